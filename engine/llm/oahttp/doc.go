// Package oahttp sends a request to an OpenAI-compatible endpoint through
// openai-go v3's request plumbing (retries, default headers, bearer auth,
// error decoding) without importing openai-go's root package.
//
// The root package registers hundreds of API types at init, which cost about
// 5 MiB of resident memory and tens of milliseconds of CPU on every start of
// pi, even when no OpenAI model is used. Only a few light subpackages are
// linked through this package, so that cost disappears.
package oahttp
