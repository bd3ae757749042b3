package cachewarm

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/pi-go/pi/engine"
)

// CacheTTL is the cache lifetime an idle gap is compared with when a
// notice names the likely cause of a miss: Anthropic's default of five
// minutes.
const CacheTTL = 5 * time.Minute

// noiseFloorTokens is the per-request miss that cache breakpoint
// granularity explains on its own; smaller misses are not counted.
const noiseFloorTokens = 1024

// Miss is one request's cache miss relative to the request before it.
type Miss struct {
	MissedTokens int
	MissedCost   float64
	Idle         time.Duration
	ModelChanged bool
}

// ModelLookup finds a model's prices for a miss whose message reported no
// cache read; nil, or a nil result, prices cache reads at zero.
type ModelLookup func(provider, id string) *engine.Model

type previous struct {
	promptTokens  int
	modelKey      string
	timestamp     int64 // Unix milliseconds
	reportedCache bool
}

func promptOf(u engine.Usage) int { return u.Input + u.CacheRead + u.CacheWrite }

func detectMiss(prev *previous, m *engine.Message, models ModelLookup) *Miss {
	u := m.Usage
	prompt := promptOf(u)
	// A request without cache activity counts only once a cache was seen:
	// on providers that report cache reads alone it is a total miss, on
	// providers that never report caching it means nothing.
	if prev == nil || prompt <= 0 || (u.CacheRead+u.CacheWrite == 0 && !prev.reportedCache) {
		return nil
	}
	missed := min(prev.promptTokens, prompt) - u.CacheRead
	if missed <= noiseFloorTokens {
		return nil
	}
	// Missed tokens land in the input or cache-write buckets, so this
	// message's own bill gives the rate paid for them.
	paid := u.Input + u.CacheWrite
	paidPer := 0.0
	if paid > 0 {
		paidPer = (u.Cost.Input + u.Cost.CacheWrite) / float64(paid)
	}
	readPer := 0.0
	if u.CacheRead > 0 {
		readPer = u.Cost.CacheRead / float64(u.CacheRead)
	} else if models != nil {
		if md := models(m.Provider, m.Model); md != nil {
			readPer = md.Cost.CacheRead / 1_000_000
		}
	}
	return &Miss{
		MissedTokens: missed,
		MissedCost:   float64(missed) * math.Max(0, paidPer-readPer),
		Idle:         time.Duration(max(0, m.Timestamp-prev.timestamp)) * time.Millisecond,
		ModelChanged: m.Provider+"/"+m.Model != prev.modelKey,
	}
}

func asPrevious(m *engine.Message, reported bool) *previous {
	u := m.Usage
	prompt := promptOf(u)
	if prompt <= 0 {
		return nil
	}
	return &previous{promptTokens: prompt, modelKey: m.Provider + "/" + m.Model, timestamp: m.Timestamp,
		reportedCache: reported || u.CacheRead+u.CacheWrite > 0}
}

// scan walks entries in order, returning the last request and the misses
// by assistant message.
func scan(entries []*engine.Entry, models ModelLookup) (*previous, map[*engine.Message]*Miss) {
	var prev *previous
	misses := map[*engine.Message]*Miss{}
	for _, e := range entries {
		switch {
		case e.Type == engine.EntryCompaction || e.Type == engine.EntryBranchSummary:
			// The context changed on purpose: the next prompt is new
			// content, not content billed again. A model switch is no such
			// exemption: it bills the whole prompt again.
			prev = nil
		case e.Type == engine.EntryUsage && e.Kind == "cache_warm":
			var u engine.Usage
			if json.Unmarshal(e.Usage, &u) != nil || promptOf(u) <= 0 {
				continue
			}
			ts, _ := time.Parse(time.RFC3339Nano, e.Timestamp)
			prev = &previous{promptTokens: promptOf(u), modelKey: e.Provider + "/" + e.Model,
				timestamp: ts.UnixMilli(), reportedCache: true}
		case e.Type == engine.EntryMessage && e.Message != nil && e.Message.Role == engine.RoleAssistant:
			if miss := detectMiss(prev, e.Message, models); miss != nil {
				misses[e.Message] = miss
			}
			if p := asPrevious(e.Message, prev != nil && prev.reportedCache); p != nil {
				prev = p
			}
		}
	}
	return prev, misses
}

// DetectCacheMiss is the miss of message, just completed, against the
// last request in entries (which do not hold message yet), or nil when
// nothing is worth counting.
func DetectCacheMiss(entries []*engine.Entry, message *engine.Message, models ModelLookup) *Miss {
	prev, _ := scan(entries, models)
	return detectMiss(prev, message, models)
}

// CollectCacheMisses is every counted miss of a session by the assistant
// message that paid for it: misses are not stored, so a transcript
// rebuilt from entries derives them again.
func CollectCacheMisses(entries []*engine.Entry, models ModelLookup) map[*engine.Message]*Miss {
	_, misses := scan(entries, models)
	return misses
}

// CacheMissNotice is the transcript line for a miss, "" when the miss is
// too small to mention (under 20k tokens and under ten cents).
func CacheMissNotice(m *Miss) string {
	if m == nil || (m.MissedTokens < 20_000 && m.MissedCost < 0.1) {
		return ""
	}
	cost := ""
	if m.MissedCost >= 0.01 {
		cost = fmt.Sprintf(" (~$%s)", fixed(m.MissedCost, 2))
	}
	label := "Cache miss"
	switch {
	case m.ModelChanged:
		label = "Cache miss after model switch"
	case m.Idle >= CacheTTL:
		label = fmt.Sprintf("Cache miss after %dm idle", int64(math.Floor(float64(m.Idle)/float64(time.Minute)+0.5)))
	}
	return fmt.Sprintf("%s: %s tokens re-billed%s", label, FormatTokens(m.MissedTokens), cost)
}

// WarmingUsageText is the transcript line for one or more consecutive
// refreshes costing totalCost in all; note is the entries' note.
func WarmingUsageText(totalCost float64, note string) string {
	noteText := ""
	if note != "" {
		noteText = " (" + note + ")"
	}
	// Six decimals, trailing zeros trimmed down to three.
	cost := fixed(totalCost, 6)
	if dot := strings.IndexByte(cost, '.'); dot >= 0 {
		keep := dot + 4
		end := len(cost)
		for end > keep && cost[end-1] == '0' {
			end--
		}
		cost = cost[:end]
	}
	return fmt.Sprintf("Cache warmed%s: $%s", noteText, cost)
}

// SummaryUsageNotice is the transcript line for the usage of a compaction
// (kind "compaction") or a branch summary (kind "branch_summary").
func SummaryUsageNotice(kind string, u engine.Usage) string {
	tokens := u.Input + u.Output + u.CacheRead + u.CacheWrite
	cost := ""
	if u.Cost.Total >= 0.01 {
		cost = fmt.Sprintf(" (~$%s)", fixed(u.Cost.Total, 2))
	}
	label := "Branch summary"
	if kind == engine.EntryCompaction {
		label = "Compaction"
	}
	return fmt.Sprintf("%s: %s tokens billed%s", label, FormatTokens(tokens), cost)
}

// reasoningDrop describes a diagnostic that lists reasoning a provider
// withheld from the model.
type reasoningDrop struct {
	provider, droppedType, one, many string
}

var reasoningDrops = map[string]reasoningDrop{
	"anthropic_input_transformations": {"Anthropic", "thinking_dropped", "thinking block", "thinking blocks"},
	"openai_input_transformations":    {"OpenAI", "reasoning", "reasoning item", "reasoning items"},
}

// Dropped is the reasoning a provider reported as withheld from the
// request that produced a message.
type Dropped struct {
	Diagnostic string
	Count      int
	Reasons    []string
}

// DroppedReasoning reads the first reasoning-drop diagnostic of m, or nil.
func DroppedReasoning(m *engine.Message) *Dropped {
	if m == nil || len(m.Diagnostics) == 0 {
		return nil
	}
	var diags []struct {
		Type    string `json:"type"`
		Details struct {
			Transformations []json.RawMessage `json:"transformations"`
		} `json:"details"`
	}
	if json.Unmarshal(m.Diagnostics, &diags) != nil {
		return nil
	}
	for _, d := range diags {
		kind, ok := reasoningDrops[d.Type]
		if !ok || d.Details.Transformations == nil {
			continue
		}
		out := &Dropped{Diagnostic: d.Type}
		for _, raw := range d.Details.Transformations {
			var t map[string]any
			if json.Unmarshal(raw, &t) != nil || t == nil || t["type"] != kind.droppedType {
				continue
			}
			out.Count++
			if r, ok := t["reason"].(string); ok && !contains(out.Reasons, r) {
				out.Reasons = append(out.Reasons, r)
			}
		}
		if out.Count == 0 {
			continue
		}
		return out
	}
	return nil
}

// DroppedThinkingNotice is the transcript line for reasoning dropped from
// the request of message, "" when there is nothing new: providers report
// a withheld block again on every later request that replays it, so only
// a count above the previous response's (previous: the branch's last
// assistant message before message, or nil) is a new loss.
func DroppedThinkingNotice(message, previous *engine.Message) string {
	d := DroppedReasoning(message)
	if d == nil {
		return ""
	}
	if p := DroppedReasoning(previous); p != nil && p.Diagnostic == d.Diagnostic && d.Count <= p.Count {
		return ""
	}
	kind := reasoningDrops[d.Diagnostic]
	noun := kind.many
	if d.Count == 1 {
		noun = kind.one
	}
	reasons := ""
	if len(d.Reasons) > 0 {
		reasons = ": " + strings.Join(d.Reasons, ", ")
	}
	return fmt.Sprintf("%s dropped %d %s%s (details in session)", kind.provider, d.Count, noun, reasons)
}

// FormatTokens abbreviates a token count as the footer does: 999, 1.2k,
// 45k, 1.5M, 12M.
func FormatTokens(n int) string {
	f := float64(n)
	switch {
	case n < 1000:
		return strconv.Itoa(n)
	case n < 10_000:
		return fixed(f/1000, 1) + "k"
	case n < 1_000_000:
		return strconv.FormatInt(jsRound(f/1000), 10) + "k"
	case n < 10_000_000:
		return fixed(f/1_000_000, 1) + "M"
	}
	return strconv.FormatInt(jsRound(f/1_000_000), 10) + "M"
}

// jsRound rounds halves up, as Math.round does.
func jsRound(f float64) int64 { return int64(math.Floor(f + 0.5)) }

// fixed formats f with digits decimals as Number.prototype.toFixed does:
// on the value's exact decimal expansion, a tie rounds away from zero,
// where strconv would round it to even (0.125 gives 0.13, not 0.12).
func fixed(f float64, digits int) string {
	neg := f < 0
	// 100 decimals are exact for every tie toFixed can meet at these
	// magnitudes: a tie has at most digits+1 significant decimals.
	exact := strconv.FormatFloat(math.Abs(f), 'f', 100, 64)
	dot := strings.IndexByte(exact, '.')
	keep := []byte(exact[:dot+1+digits])
	if exact[dot+1+digits] >= '5' {
		for i := len(keep) - 1; ; i-- {
			if i < 0 {
				keep = append([]byte{'1'}, keep...)
				break
			}
			if keep[i] == '.' {
				continue
			}
			if keep[i] < '9' {
				keep[i]++
				break
			}
			keep[i] = '0'
		}
	}
	out := strings.TrimSuffix(string(keep), ".")
	if neg && strings.Trim(out, "0.") != "" {
		out = "-" + out
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// FormatStatus is the one-line warming status /session shows.
func FormatStatus(st Status, now time.Time) string {
	d := st.Decision
	// A decision is attached once pi or an extension acted on it; an
	// inactive run without one never got that far.
	if d == nil || (st.State == "inactive" && !d.EconomicsAvailable && !st.ExtensionOverride) {
		reason := st.Reason
		if reason == "" {
			reason = "unknown reason"
		}
		return "Inactive (" + reason + ")"
	}
	details := economics(*d) + " -> " + d.Action
	if st.ExtensionOverride {
		details = "extension override, " + economics(*d)
	}
	switch st.State {
	case "inactive":
		return "Stopped (" + details + ")"
	case "refreshing":
		return "Warming cache (" + details + ")"
	}
	return decisionTime(st.NextWarmAt, now) + " (" + details + ")"
}

func dollars(v float64) string {
	if v < 0 {
		return "-$" + fixed(-v, 3)
	}
	return "$" + fixed(v, 3)
}

func economics(d Decision) string {
	if !d.EconomicsAvailable {
		return "cache economics unavailable"
	}
	p := jsRound(d.ContinuationProbability * 100)
	text := fmt.Sprintf("%d%% continuation probability", p)
	if d.Phase == PhaseStreaming {
		text += " while agent is running"
	}
	cmp := "<"
	if d.Action == ActionWarm {
		cmp = ">="
	}
	return fmt.Sprintf("%s, expected savings %s %s $%s", text, dollars(d.ExpectedSavings), cmp, fixed(MinimumExpectedSavings, 3))
}

func decisionTime(next, now time.Time) string {
	if next.IsZero() || !next.After(now) {
		return "Decision now"
	}
	rem := int64(math.Ceil(float64(next.Sub(now).Milliseconds()) / 1000))
	h, m, s := rem/3600, rem%3600/60, rem%60
	var parts []string
	if h > 0 {
		parts = append(parts, fmt.Sprintf("%dh", h))
	}
	if m > 0 {
		parts = append(parts, fmt.Sprintf("%dm", m))
	}
	if s > 0 || len(parts) == 0 {
		parts = append(parts, fmt.Sprintf("%ds", s))
	}
	return "Decision in " + strings.Join(parts, " ")
}
