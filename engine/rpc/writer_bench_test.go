package rpc

import (
	"io"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
)

// BenchmarkWriteTextDelta measures the event-writing path of a streamed
// reply: one message_update/text_delta record per call, marshalled and
// written through the Writer's single-write-per-record lock. It reports
// events/s so the figure compares directly with bench/rpc.sh.
func BenchmarkWriteTextDelta(b *testing.B) {
	w := NewWriter(io.Discard)
	ev := engine.MessageUpdate{
		Usage:                 engine.Usage{Input: 120, Output: 7, TotalTokens: 127},
		AssistantMessageEvent: engine.AssistantEvent{Type: engine.AETextDelta, Delta: "x"},
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := w.WriteEvent(ev); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkWriteTextDeltaParallel is the same with several goroutines
// writing at once (tool updates and UI requests interleaving with the
// stream), which exercises the Writer's lock.
func BenchmarkWriteTextDeltaParallel(b *testing.B) {
	w := NewWriter(io.Discard)
	ev := engine.MessageUpdate{AssistantMessageEvent: engine.AssistantEvent{Type: engine.AETextDelta, Delta: "x"}}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := w.WriteEvent(ev); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkWriteMessageEnd measures a large record: a message_end with a
// 10,000-character text, the size a finished streamed reply has.
func BenchmarkWriteMessageEnd(b *testing.B) {
	w := NewWriter(io.Discard)
	msg := &engine.Message{Role: engine.RoleAssistant, Content: engine.Blocks(engine.TextContent(strings.Repeat("lorem <ipsum> ", 715))),
		API: "openai-completions", Provider: "mock", Model: "mock-model", StopReason: engine.StopStop}
	ev := engine.MessageEnd{Message: msg}
	b.ReportAllocs()
	for b.Loop() {
		if err := w.WriteEvent(ev); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUIRequest measures a fire-and-forget extension UI record.
func BenchmarkUIRequest(b *testing.B) {
	u := NewUIBridge(NewWriter(io.Discard))
	text := "Turn 3 running..."
	b.ReportAllocs()
	for b.Loop() {
		u.SetStatus("my-ext", &text)
	}
}
