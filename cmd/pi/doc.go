// Command pi is the pi coding agent: it parses the command line, picks
// the mode (print, json, rpc), wires configuration, model, tools, system
// prompt and session store into an engine session, and runs the mode.
// Everything else lives in the packages it wires together.
package main
