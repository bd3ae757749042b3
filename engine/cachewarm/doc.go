// Package cachewarm keeps a provider's prompt cache warm between requests
// and derives the cache diagnostics the transcript shows.
//
// A Warmer follows the last real request of a session: shortly before the
// cache entry that request wrote would expire (90% of the model's
// promptCache lifetime, at least ten seconds early), it asks whether a
// refresh pays for itself, lets extensions override that answer
// (cache_warming_decision), and re-sends the request capped at one output
// token. Each successful refresh is recorded as a "cache_warm" usage
// entry. The cacheWarming setting decides how long it goes on: "off"
// never, "streaming" while a run is active, "idle" also for up to 30
// minutes after it settles. Every wait goes through a Clock, so tests
// drive the schedule without sleeping.
//
// The notice helpers (DetectCacheMiss, CacheMissNotice, WarmingUsageText,
// SummaryUsageNotice, DroppedThinkingNotice) give the texts the
// showCacheMissNotices setting turns on, worded as the reference words
// them.
package cachewarm
