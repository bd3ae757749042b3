// Package llamacpp talks to a llama.cpp router server (`llama serve`
// without a model), the backend of the reference's built-in extension
// builtin:llama.cpp: the router's model list (GET /models) and its
// per-model properties (GET /props), loading, unloading and downloading
// models, and the conversion of the router's list into pi models: chat
// models on the openai-completions API at <server>/v1, and every
// selectable model again as a classifier.
//
// Requests to the models themselves go through the ordinary
// openai-completions provider; this package only manages the router.
package llamacpp
