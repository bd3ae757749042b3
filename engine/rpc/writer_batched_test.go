package rpc_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/rpc"
)

// lockedBuffer is a bytes.Buffer safe for the drain goroutine and the test.
type lockedBuffer struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	writes int
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writes++
	return l.buf.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func TestBatchedWriter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		writers int
		records int
	}{
		{"one producer keeps order", 1, 500},
		{"concurrent producers never interleave", 8, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := &lockedBuffer{}
			w := rpc.NewBatchedWriter(out)
			var wg sync.WaitGroup
			for p := range tt.writers {
				wg.Go(func() {
					for i := range tt.records {
						if err := w.WriteRecord(map[string]any{"p": p, "i": i, "pad": strings.Repeat("x", 100)}); err != nil {
							t.Error(err)
						}
					}
				})
			}
			wg.Wait()
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if len(lines) != tt.writers*tt.records {
				t.Fatalf("got %d lines, want %d", len(lines), tt.writers*tt.records)
			}
			next := make([]int, tt.writers)
			for _, l := range lines {
				var p, i int
				if _, err := fmt.Sscanf(l, `{"i":%d,"p":%d,`, &i, &p); err != nil {
					t.Fatalf("bad line %q: %v", l, err)
				}
				if i != next[p] {
					t.Fatalf("producer %d: record %d after %d", p, i, next[p]-1)
				}
				next[p]++
			}
		})
	}
}

func TestBatchedWriterStopsAfterFirstError(t *testing.T) {
	t.Parallel()
	fw := &failWriter{}
	w := rpc.NewBatchedWriter(fw)
	delta := engine.MessageUpdate{AssistantMessageEvent: engine.AssistantEvent{Type: engine.AETextDelta, Delta: "x"}}
	if err := w.WriteEvent(delta); err != nil {
		t.Fatalf("queued write failed early: %v", err)
	}
	if err := w.Flush(); err == nil {
		t.Fatal("Flush: want the write error")
	}
	if err := w.WriteEvent(delta); !errors.Is(err, rpc.ErrClosed) {
		t.Fatalf("delta after the error: want ErrClosed, got %v", err)
	}
	if err := w.WriteEvent(engine.AgentStart{}); !errors.Is(err, rpc.ErrClosed) {
		t.Fatalf("want ErrClosed, got %v", err)
	}
	if w.Err() == nil {
		t.Fatal("Err: want the write error")
	}
}

// blockingWriter holds every write until released, like a reader that
// stopped reading.
type blockingWriter struct {
	release chan struct{}
	entered chan struct{}
	once    sync.Once
}

func (b *blockingWriter) Write(p []byte) (int, error) {
	b.once.Do(func() { close(b.entered) })
	<-b.release
	return len(p), nil
}

func TestBatchedWriterBackpressure(t *testing.T) {
	t.Parallel()
	bw := &blockingWriter{release: make(chan struct{}), entered: make(chan struct{})}
	w := rpc.NewBatchedWriter(bw)
	big := engine.MessageUpdate{AssistantMessageEvent: engine.AssistantEvent{Type: engine.AETextDelta, Delta: strings.Repeat("x", 600<<10)}}
	if err := w.WriteEvent(big); err != nil {
		t.Fatal(err)
	}
	<-bw.entered // the first delta is being written and is stuck
	done := make(chan struct{})
	go func() {
		// Two more deltas exceed the pending limit: the second must wait.
		_ = w.WriteEvent(big)
		_ = w.WriteEvent(big)
		close(done)
	}()
	select {
	case <-done:
		t.Fatal("producer was not held back by a stuck reader")
	default:
	}
	close(bw.release)
	<-done
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
}

// recordingWriter keeps each Write call's bytes apart, so a test can see
// which records shared a write.
type recordingWriter struct {
	mu     sync.Mutex
	writes []string
}

func (r *recordingWriter) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.writes = append(r.writes, string(p))
	return len(p), nil
}

func (r *recordingWriter) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.writes...)
}

// TestBatchedWriterNonDeltasGoOutAtOnce checks the batching policy: a
// record that is not a streamed delta is in the underlying writer when
// WriteEvent returns (tool_execution_start before the tool runs), after
// every delta queued before it, and in a write of its own (turn_end,
// agent_end and agent_settled never share one).
func TestBatchedWriterNonDeltasGoOutAtOnce(t *testing.T) {
	t.Parallel()
	delta := engine.MessageUpdate{AssistantMessageEvent: engine.AssistantEvent{Type: engine.AETextDelta, Delta: "x"}}
	lifecycle := []engine.Event{
		engine.ToolExecutionStart{ToolCallID: "t1", ToolName: "edit"},
		engine.TurnEnd{},
		engine.AgentEnd{},
		engine.AgentSettled{},
	}
	rec := &recordingWriter{}
	w := rpc.NewBatchedWriter(rec)
	for i, e := range lifecycle {
		for range 50 {
			if err := w.WriteEvent(delta); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.WriteEvent(e); err != nil {
			t.Fatal(err)
		}
		// No Flush: the record must already be written, and be the last.
		writes := rec.all()
		last := writes[len(writes)-1]
		want, err := engine.MarshalEvent(e)
		if err != nil {
			t.Fatal(err)
		}
		if last != string(want)+"\n" {
			t.Fatalf("event %d: last write is %q, want %s alone", i, last, want)
		}
		if got := strings.Count(strings.Join(writes, ""), `"text_delta"`); got != 50*(i+1) {
			t.Fatalf("event %d: %d deltas written before it, want %d", i, got, 50*(i+1))
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkWriteTextDeltaBatched is BenchmarkWriteTextDelta through the
// batched writer that RPC mode uses.
func BenchmarkWriteTextDeltaBatched(b *testing.B) {
	w := rpc.NewBatchedWriter(io.Discard)
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
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
