// Package openairesponses implements the three Responses wire APIs of the
// reference: "openai-responses" (New), "azure-openai-responses" (NewAzure)
// and "openai-codex-responses" (NewCodex, the ChatGPT backend). They share
// the request's input conversion and the SSE stream handling, and differ
// in URL, auth, a few body fields and error wording (see flavor).
//
// The request body is built key by key so it is the JSON the reference
// sends: the transcript becomes input items, reasoning items are replayed
// verbatim from the thinking signature (encrypted content included, since
// requests are sent with store:false), and tool calls carry
// "call_id|item_id" ids. The openai-go client carries OpenAI and Azure
// requests and its SSE decoder reads every stream; Codex requests go out
// over plain net/http as the reference sends them with fetch.
package openairesponses
