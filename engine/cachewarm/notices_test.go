package cachewarm

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/pi-go/pi/engine"
)

// Expected texts and numbers were printed by the reference's formatting
// and cache-stats functions for the same inputs.

func TestWarmingUsageText(t *testing.T) {
	t.Parallel()
	for cost, want := range map[float64]string{
		0.002: "$0.002", 0.0101505: "$0.01015", 0.125: "$0.125", 1.5: "$1.500", 0.00001: "$0.00001",
	} {
		if got := WarmingUsageText(cost, ""); got != "Cache warmed: "+want {
			t.Errorf("%v: %q", cost, got)
		}
		if got := WarmingUsageText(cost, "extension override"); got != "Cache warmed (extension override): "+want {
			t.Errorf("%v: %q", cost, got)
		}
	}
}

func TestFormatTokens(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{999: "999", 1000: "1.0k", 1250: "1.3k", 9999: "10.0k", 10000: "10k", 45500: "46k",
		999999: "1000k", 1000000: "1.0M", 1250000: "1.3M", 9999999: "10.0M", 12500000: "13M"} {
		if got := FormatTokens(n); got != want {
			t.Errorf("FormatTokens(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestFormatStatus(t *testing.T) {
	t.Parallel()
	m := &engine.Model{Cost: engine.ModelCost{Input: 10, Output: 50, CacheRead: 0.1, CacheWrite: 12.5}}
	m2 := &engine.Model{Cost: engine.ModelCost{Input: 3, Output: 15, CacheRead: 0.3}}
	warm, stop := Evaluate(m, 101000, PhaseIdle), Evaluate(m2, 50000, PhaseIdle)
	now := time.UnixMilli(1000000)
	tests := []struct {
		st   Status
		want string
	}{
		{Status{State: "scheduled", NextWarmAt: now.Add(3725500 * time.Millisecond), Decision: &warm},
			"Decision in 1h 2m 6s (15% continuation probability, expected savings $0.178 >= $0.050 -> warm)"},
		{Status{State: "scheduled", NextWarmAt: now.Add(270 * time.Second), Decision: &warm, ExtensionOverride: true},
			"Decision in 4m 30s (extension override, 15% continuation probability, expected savings $0.178 >= $0.050)"},
		{Status{State: "refreshing", NextWarmAt: now, Decision: &stop},
			"Warming cache (15% continuation probability, expected savings $0.005 < $0.050 -> stop)"},
		{Status{State: "inactive", Reason: "agent run settled"}, "Inactive (agent run settled)"},
		{Status{State: "inactive", Reason: "expected savings below threshold", Decision: &stop},
			"Stopped (15% continuation probability, expected savings $0.005 < $0.050 -> stop)"},
	}
	for _, tc := range tests {
		if got := FormatStatus(tc.st, now); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}

// assistant is a message priced at 3/0.3/3.75 $ per million input,
// cache-read and cache-write tokens.
func assistant(input, read, write int, ts int64, model string) *engine.Message {
	u := engine.Usage{Input: input, Output: 10, CacheRead: read, CacheWrite: write}
	u.Cost.Input = float64(input) * 3 / 1e6
	u.Cost.CacheRead = float64(read) * 0.3 / 1e6
	u.Cost.CacheWrite = float64(write) * 3.75 / 1e6
	return &engine.Message{Role: engine.RoleAssistant, Provider: "p", Model: model, Usage: u, Timestamp: ts}
}

func TestCacheMisses(t *testing.T) {
	t.Parallel()
	models := func(string, string) *engine.Model { return &engine.Model{Cost: engine.ModelCost{CacheRead: 0.3}} }
	e := func(m *engine.Message) *engine.Entry { return &engine.Entry{Type: engine.EntryMessage, Message: m} }
	a := assistant(100, 0, 50000, 0, "m")
	b := assistant(200, 50000, 300, 60000, "m")
	c := assistant(300, 0, 50500, 60000+7*60000, "m")
	d := assistant(60000, 0, 0, 60000+8*60000, "m2")
	warmUsage, _ := json.Marshal(map[string]int{"input": 0, "output": 1, "cacheRead": 60000, "cacheWrite": 0})
	warm := &engine.Entry{Type: engine.EntryUsage, Kind: "cache_warm", Provider: "p", Model: "m2",
		Timestamp: time.UnixMilli(60000 + 9*60000).UTC().Format("2006-01-02T15:04:05.000Z"), Usage: warmUsage}
	f := assistant(5000, 55000, 0, 60000+10*60000, "m2")
	entries := []*engine.Entry{e(a), e(b), e(c), e(d), warm, e(f)}
	misses := CollectCacheMisses(entries, models)
	want := map[*engine.Message]struct {
		miss   Miss
		notice string
	}{
		c: {Miss{50500, 0.17400132874015747, 7 * time.Minute, false}, "Cache miss after 7m idle: 51k tokens re-billed (~$0.17)"},
		d: {Miss{50800, 0.13716, time.Minute, true}, "Cache miss after model switch: 51k tokens re-billed (~$0.14)"},
		f: {Miss{5000, 0.0135, time.Minute, false}, ""},
	}
	if len(misses) != len(want) {
		t.Fatalf("%d misses, want %d", len(misses), len(want))
	}
	for m, w := range want {
		got := misses[m]
		if got == nil || *got != w.miss {
			t.Errorf("miss %+v, want %+v", got, w.miss)
			continue
		}
		if n := CacheMissNotice(got); n != w.notice {
			t.Errorf("notice %q, want %q", n, w.notice)
		}
	}
	next := assistant(40000, 10000, 0, 1000, "m")
	got := DetectCacheMiss([]*engine.Entry{e(a)}, next, models)
	if got == nil || *got != (Miss{40000, 0.108, time.Second, false}) || CacheMissNotice(got) != "Cache miss: 40k tokens re-billed (~$0.11)" {
		t.Errorf("detect %+v", got)
	}
	if got := DetectCacheMiss([]*engine.Entry{e(a), {Type: engine.EntryCompaction}}, c, models); got != nil {
		t.Errorf("a miss counted across a compaction: %+v", got)
	}
}

func TestSummaryAndThinkingNotices(t *testing.T) {
	t.Parallel()
	u := engine.Usage{Input: 12000, Output: 800, CacheRead: 30000}
	u.Cost.Total = 0.0456
	if got := SummaryUsageNotice(engine.EntryCompaction, u); got != "Compaction: 43k tokens billed (~$0.05)" {
		t.Errorf("%q", got)
	}
	u.Cost.Total = 0.004
	if got := SummaryUsageNotice(engine.EntryBranchSummary, u); got != "Branch summary: 43k tokens billed" {
		t.Errorf("%q", got)
	}
	diag := func(n int, reason string) *engine.Message {
		var ts []map[string]string
		for range n {
			ts = append(ts, map[string]string{"type": "thinking_dropped", "reason": reason})
		}
		ts = append(ts, map[string]string{"type": "other"})
		b, _ := json.Marshal([]any{map[string]any{"type": "anthropic_input_transformations", "details": map[string]any{"transformations": ts}}})
		return &engine.Message{Role: engine.RoleAssistant, Diagnostics: b}
	}
	for _, tc := range []struct {
		msg, prev *engine.Message
		want      string
	}{
		{diag(1, "signature_invalid"), nil, "Anthropic dropped 1 thinking block: signature_invalid (details in session)"},
		{diag(3, "signature_invalid"), diag(1, "x"), "Anthropic dropped 3 thinking blocks: signature_invalid (details in session)"},
		{diag(2, "x"), diag(2, "x"), ""},
		{&engine.Message{Role: engine.RoleAssistant}, nil, ""},
	} {
		if got := DroppedThinkingNotice(tc.msg, tc.prev); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
