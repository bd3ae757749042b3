// Package mistral is the wire adapter for the "mistral-conversations" API:
// Mistral's native chat completions endpoint (POST {baseUrl}/v1/chat/completions)
// streamed as server-sent events.
//
// It differs from the OpenAI chat adapter in ways a request or a replayed
// transcript depends on: tool-call ids are rewritten to Mistral's nine
// alphanumeric characters, assistant turns carry "prefix": false and their
// text and thinking as content chunks, tool results carry the tool's name,
// images are sent as "image_url" strings, reasoning models get either
// "reasoning_effort" (when the model has a thinking level map) or
// "prompt_mode": "reasoning", and the session id goes out both as
// "prompt_cache_key" and as the "x-affinity" header. Streamed content may be
// a string or an array of text and thinking chunks.
package mistral
