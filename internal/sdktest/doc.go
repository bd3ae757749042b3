// Package sdktest sets up what an embedding program's test needs: an
// agent directory whose models.json points at a scripted mock LLM
// (internal/mockllm) on 127.0.0.1, so pi.New runs offline. The SDK
// examples and the root package's examples use it.
package sdktest
