// Command pi is the pi coding agent: it parses the command line, picks
// the mode (print, json, rpc), turns the flags into pi.Options, and runs
// the mode over the pi.Agent that the root package assembles. Everything
// else lives in the packages it wires together.
package main
