// Package mockllm is a scripted mock LLM server for end-to-end tests: a Go
// port of the conformance suite's mockllm.py. It speaks OpenAI Chat
// Completions (POST …/chat/completions) and Anthropic Messages (POST
// …/messages) over SSE on 127.0.0.1 and streams the same bytes as the
// Python mock for the same script, so transcripts of our binary can be
// compared with the reference's recordings.
//
// Every POST to one of the two endpoints consumes the next turn of the
// script; when the script runs out, replies carry the fallback text.
// Every request is logged and can be read back with Requests.
package mockllm
