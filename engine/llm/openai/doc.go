// Package openai implements the openai-completions wire API (OpenAI Chat
// Completions with SSE streaming), used by OpenAI-compatible hosts and
// local servers. The request body is built key by key so that it is the
// same JSON the reference sends; the openai-go client carries it and its
// SSE decoder reads the stream.
package openai
