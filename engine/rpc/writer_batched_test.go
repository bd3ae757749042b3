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
	if err := w.WriteEvent(engine.AgentStart{}); err != nil {
		t.Fatalf("queued write failed early: %v", err)
	}
	if err := w.Flush(); err == nil {
		t.Fatal("Flush: want the write error")
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
	big := []byte(`"` + strings.Repeat("x", 600<<10) + `"`)
	if err := w.WriteLine(big); err != nil {
		t.Fatal(err)
	}
	<-bw.entered // the first record is being written and is stuck
	done := make(chan struct{})
	go func() {
		// Two more records exceed the pending limit: the second must wait.
		_ = w.WriteLine(big)
		_ = w.WriteLine(big)
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
