package engine

import (
	"math"
	"regexp"
	"strings"
	"sync"
)

// The pattern lists are the reference's (pi-ai utils/retry.js and
// utils/overflow.js), facts that decide which provider failures are worth
// another attempt. Go's regexp has no look-around, so "not part of a
// longer word" is written with explicit boundary classes instead.
//
// Every pattern is compiled on first use (sync.OnceValue): compiling them
// at init cost every start of pi ~1,650 allocations and several
// milliseconds, though most runs never see a failure.

var nonRetryablePattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)` + strings.Join([]string{
		`GoUsageLimitError`,
		`FreeUsageLimitError`,
		`Monthly usage limit reached`,
		`available balance`,
		`insufficient_quota`,
		`out of budget`,
		`quota exceeded`,
		`billing`,
		`subscription_sharing_usage_limit_exceeded`,
		`subscription_sharing_workplace_individual_usage_limit_exceeded`,
		`"code"\s*:\s*"?1308(?:[^0-9]|$)`,
	}, "|"))
})

var retryablePattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)` + strings.Join([]string{
		`overloaded`,
		`server_busy`,
		`servers are currently busy`,
		`currently experiencing high demand`,
		`model is at capacity`,
		`rate.?limit`,
		`too many requests`,
		`(?:^|[^a-z0-9])(?:429|500|502|503|504|520|524)(?:[^a-z0-9]|$)`,
		`service.?(?:is.?)?(?:temporarily.?)?unavailable`,
		`server.?error`,
		`internal.?error`,
		`provider.?returned.?(?:an.?)?error`,
		`exceeded request buffer limit while retrying upstream`,
		`unable to forward upstream`,
		`upstream.?request.?failed`,
		`upstream_stream_read_error`,
		`stream was interrupted`,
		`http/?2 stream failed`,
		`network.?error`,
		`connection.?error`,
		`connection.?refused`,
		`connection.?lost`,
		`connection.?closed`,
		`other side closed`,
		`fetch failed`,
		`request to \S+ failed, reason:`,
		`getaddrinfo`,
		`(?:^|[^a-z0-9_])(?:ECONNRESET|ECONNABORTED|ECONNREFUSED|ETIMEDOUT|EPIPE)(?:[^a-z0-9_]|$)`,
		`connection reset by peer`,
		`ENOTFOUND`,
		`EAI_AGAIN`,
		`upstream.?connect`,
		`reset before headers`,
		`socket hang up`,
		`socket connection was closed`,
		`timed? out`,
		`timeout`,
		`terminated`,
		`websocket.?closed`,
		`websocket.?error`,
		`websocket.?connection.?limit.?reached`,
		`ended without`,
		`stream ended before message_stop`,
		`stream ended before a terminal response event`,
		`http2 request did not get a response`,
		`stream disconnected before completion`,
		`cut short after the reply had begun`,
		`pending stream has been canceled`,
		`retry delay`,
		`you can retry your request`,
		`try your request again`,
		`please retry your request`,
		`ResourceExhausted`,
		`subscription_sharing_usage_unavailable`,
		`subscription_sharing_user_unavailable`,
	}, "|"))
})

var overflowPatterns = sync.OnceValue(func() []*regexp.Regexp {
	src := []string{
		`prompt (?:is )?too long`,
		`prompt exceeds max length`,
		`request_too_large`,
		`input is too long for requested model`,
		`exceeds the context window`,
		`exceeds (?:the )?(?:model'?s )?maximum context length(?: of [\d,]+ tokens?|\s*\([\d,]+\))`,
		`context window exceeded`,
		`input token count.*exceeds the maximum`,
		`maximum prompt length is \d+`,
		`reduce the length of the messages`,
		`maximum context length is \d+ tokens`,
		`exceeds (?:the )?maximum allowed input length of [\d,]+ tokens?`,
		`input \(\d+ tokens\) is longer than the model'?s context length \(\d+ tokens\)`,
		`exceeds the limit of \d+`,
		`exceeds the available context size`,
		`greater than the context length`,
		`context window exceeds limit`,
		`exceeded model token limit`,
		`too large for model with \d+ maximum context length`,
		`prompt has [\d,]+ tokens?, but the configured context size is [\d,]+ tokens?`,
		`model_context_window_exceeded`,
		`prompt too long; exceeded (?:max )?context length`,
		`range of input length should be`,
		`context[_ ]length[_ ]exceeded`,
		`too many tokens`,
		`token limit exceeded`,
		`^(?:[\w -]+ API error \(413\):|413(?:\s|:|$))`,
	}
	out := make([]*regexp.Regexp, len(src))
	for i, s := range src {
		out[i] = regexp.MustCompile(`(?i)` + s)
	}
	return out
})

var (
	cerebrasBodylessOverflow = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^4(?:00|13)\s*(?:status code)?\s*\(no body\)`)
	})
	nonOverflowPatterns = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{
			regexp.MustCompile(`(?i)^(Throttling error|Service unavailable):`),
			regexp.MustCompile(`(?i)rate limit`),
			regexp.MustCompile(`(?i)too many requests`),
		}
	})
)

// IsRetryableError reports whether a failed assistant message looks like
// a transient provider or transport failure. Quota and billing failures
// are never retryable. Callers check context overflow first.
func IsRetryableError(m *Message) bool {
	if m == nil || m.StopReason != StopError || m.ErrorMessage == "" {
		return false
	}
	if nonRetryablePattern().MatchString(m.ErrorMessage) {
		return false
	}
	return retryablePattern().MatchString(m.ErrorMessage)
}

// IsContextOverflow reports whether an assistant message shows that the
// request did not fit the model's context: an overflow error, a
// successful reply whose input exceeds the window (silent overflow), or a
// length stop with no output and a full window. contextWindow 0 skips the
// usage-based checks.
func IsContextOverflow(m *Message, contextWindow int) bool {
	if m == nil {
		return false
	}
	if m.StopReason == StopError && m.ErrorMessage != "" {
		nonOverflow := false
		for _, p := range nonOverflowPatterns() {
			if p.MatchString(m.ErrorMessage) {
				nonOverflow = true
				break
			}
		}
		if !nonOverflow {
			for _, p := range overflowPatterns() {
				if p.MatchString(m.ErrorMessage) {
					return true
				}
			}
			if m.Provider == "cerebras" && cerebrasBodylessOverflow().MatchString(m.ErrorMessage) {
				return true
			}
		}
	}
	input := m.Usage.Input + m.Usage.CacheRead
	if contextWindow > 0 && m.StopReason == StopStop && input > contextWindow {
		return true
	}
	if contextWindow > 0 && m.StopReason == StopLength && m.Usage.Output == 0 && float64(input) >= float64(contextWindow)*0.99 {
		return true
	}
	return false
}

// IsRecoverableLength reports a length stop that produced less than the
// desired output, which compaction can fix by making room.
func IsRecoverableLength(m *Message, desiredMaxOutput int) bool {
	return m != nil && m.StopReason == StopLength && desiredMaxOutput > 0 && m.Usage.Output < desiredMaxOutput
}

// RetryDelayMs is the backoff before the given attempt (1-based):
// base·2^(attempt-1), capped at maxDelay (60 s when maxDelay is 0).
func RetryDelayMs(baseDelayMs, maxDelayMs int64, attempt int) int64 {
	if maxDelayMs <= 0 {
		maxDelayMs = 60000
	}
	if attempt < 1 {
		attempt = 1
	}
	d := float64(baseDelayMs) * math.Pow(2, float64(attempt-1))
	if d > float64(maxDelayMs) {
		return maxDelayMs
	}
	return int64(d)
}
