// Package openairesponses implements the openai-responses wire API (the
// OpenAI Responses API with SSE streaming). The request body is built key
// by key so it is the JSON the reference sends: the transcript becomes
// input items, reasoning items are replayed verbatim from the thinking
// signature (encrypted content included, since requests are sent with
// store:false), and tool calls carry "call_id|item_id" ids. The openai-go
// client carries the request and its SSE decoder reads the stream.
package openairesponses
