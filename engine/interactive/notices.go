package interactive

import (
	"encoding/json"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/cachewarm"
)

// costNotices are the transcript lines the showCacheMissNotices setting
// turns on, as the reference shows them: a cache miss that re-billed a
// prompt (after the assistant message that paid for it, live and on
// replay), reasoning a provider dropped from a request (live only), the
// tokens a compaction or branch summary billed (after its summary), and
// cache-warming refreshes (one dim line, consecutive refreshes with the
// same note added up).
type costNotices struct {
	on      func() bool
	entries func() []*engine.Entry // every entry of the session, in order
	branch  func() []*engine.Entry // the current branch
	models  cachewarm.ModelLookup
}

func (n *costNotices) enabled() bool { return n != nil && n.on != nil && n.on() }

// warmItem is the cache-warming line; consecutive refreshes with the same
// note add their cost to it.
type warmItem struct {
	noticeItem
	note  string
	total float64
}

func (w *warmItem) set() {
	w.text = cachewarm.WarmingUsageText(w.total, w.note)
	w.c = cache{}
}

func entryUsage(e *engine.Entry) (engine.Usage, bool) {
	var u engine.Usage
	if len(e.Usage) == 0 || json.Unmarshal(e.Usage, &u) != nil {
		return u, false
	}
	return u, true
}

// addWarming shows a cache_warm usage entry.
func (t *Transcript) addWarming(e *engine.Entry) {
	u, ok := entryUsage(e)
	if !ok {
		return
	}
	if n := len(t.items); n > 0 {
		if last, ok := t.items[n-1].(*warmItem); ok && last.note == e.Note {
			last.total += u.Cost.Total
			last.set()
			t.touch(last)
			return
		}
	}
	w := &warmItem{noticeItem: noticeItem{v: t.v, token: "dim"}, note: e.Note, total: u.Cost.Total}
	w.set()
	t.add(w)
}

// addSummaryUsage shows what a compaction or branch summary entry billed.
func (t *Transcript) addSummaryUsage(e *engine.Entry) {
	if u, ok := entryUsage(e); ok {
		t.notice("warning", cachewarm.SummaryUsageNotice(e.Type, u))
	}
}

// addMiss shows a cache miss worth mentioning.
func (t *Transcript) addMiss(m *cachewarm.Miss) {
	if s := cachewarm.CacheMissNotice(m); s != "" {
		t.notice("warning", s)
	}
}

// entriesBefore cuts entries before the one holding m: a message_end
// reaches the UI goroutine after the message may have been saved, and
// a miss is measured against the requests before it.
func entriesBefore(entries []*engine.Entry, m *engine.Message) []*engine.Entry {
	for i, e := range entries {
		if e.Type != engine.EntryMessage || e.Message == nil {
			continue
		}
		if e.Message == m || (e.Message.Role == engine.RoleAssistant && m.Timestamp != 0 &&
			e.Message.Timestamp == m.Timestamp && e.Message.Model == m.Model) {
			return entries[:i]
		}
	}
	return entries
}

// lastAssistant is the last assistant message of entries, or nil.
func lastAssistant(entries []*engine.Entry) *engine.Message {
	for i := len(entries) - 1; i >= 0; i-- {
		if e := entries[i]; e.Type == engine.EntryMessage && e.Message != nil && e.Message.Role == engine.RoleAssistant {
			return e.Message
		}
	}
	return nil
}

// assistantEnded adds the notices of a reply that just completed
// (neither aborted nor failed): reasoning the provider dropped, then the
// cache miss it paid for.
func (t *Transcript) assistantEnded(m *engine.Message) {
	n := t.costs
	if !n.enabled() || m.StopReason == engine.StopAborted || m.StopReason == engine.StopError {
		return
	}
	if s := cachewarm.DroppedThinkingNotice(m, lastAssistant(entriesBefore(n.branch(), m))); s != "" {
		t.notice("warning", s)
	}
	t.addMiss(cachewarm.DetectCacheMiss(entriesBefore(n.entries(), m), m, n.models))
}
