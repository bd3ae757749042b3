// Package llm holds what every wire-API provider shares: cost from a
// model's prices, the reference's HTTP error text, the transcript
// transform applied before a request, repair of streamed tool-call JSON,
// and Builder, which turns provider deltas into the engine's assistant
// event sequence while keeping the partial message current.
//
// Rules more than one adapter applies live here too, so that the adapters
// cannot drift apart: the replay rename of other models' tool-call ids
// (RenameToolCallIDs, with each adapter's own rename rule), the
// reference's ShortHash, strict tool schemas (StrictToolParameters,
// MakeStrictSchema, DecodeOrdered), the system-slot text (SystemText),
// thinking budgets and efforts (ThinkingBudget, ClaudeEffort,
// ThinkingMapEntry), image placeholders (ReplaceImages), error-body
// truncation (TruncateText), identity headers (UserAgent,
// IdentityHeaders) and an ordered case-insensitive header merge
// (HeaderList).
//
// One subpackage per wire API builds on these helpers: openai
// (openai-completions), openairesponses (openai-responses,
// azure-openai-responses, openai-codex-responses), anthropic, google
// (google-generative-ai, google-vertex), mistral and bedrock
// (bedrock-converse-stream). faux is a scripted in-process provider for
// loop tests.
package llm
