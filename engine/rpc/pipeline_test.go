package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-go/pi/engine/llm/faux"
	"github.com/pi-go/pi/engine/session"
)

// pipelineServer is a server over the test controller writing into sink
// through the batched writer RPC mode uses.
func pipelineServer(t testing.TB, sink *lineSink) (*Server, *Writer) {
	t.Helper()
	dir := t.TempDir()
	ctl, err := newTestController(newTestHost(faux.New()), session.InMemory(filepath.Join(dir, "proj"), ""))
	if err != nil {
		t.Fatal(err)
	}
	out := NewBatchedWriter(sink)
	return NewServer(Options{Out: out, Controller: ctl}), out
}

// getStateBurst is n pipelined get_state commands, ids 0..n-1.
func getStateBurst(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "{\"id\":%d,\"type\":\"get_state\"}\n", i)
	}
	return b.Bytes()
}

// TestPipelinedCommandsAllAnsweredAtEOF sends 10,000 get_state commands
// and closes the input at once: every one is answered, in order, before
// Serve returns (issue 11: 623 of 10,000 were answered, the rest lost
// when shutdown stopped waiting after 2 s).
func TestPipelinedCommandsAllAnsweredAtEOF(t *testing.T) {
	t.Parallel()
	const n = 10000
	sink := &lineSink{ch: make(chan struct{}, 1)}
	srv, out := pipelineServer(t, sink)
	start := time.Now()
	if err := srv.Serve(context.Background(), bytes.NewReader(getStateBurst(n))); err != nil {
		t.Fatal(err)
	}
	if err := out.Flush(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d get_state answered in %v", n, time.Since(start))
	sink.mu.Lock()
	lines := append([]string(nil), sink.lines...)
	sink.mu.Unlock()
	next := 0
	for _, chunk := range lines {
		for _, l := range strings.Split(chunk, "\n") {
			var r struct {
				ID      int    `json:"id"`
				Type    string `json:"type"`
				Success bool   `json:"success"`
			}
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatalf("bad line %q: %v", l, err)
			}
			if r.Type != "response" {
				continue
			}
			if r.ID != next || !r.Success {
				t.Fatalf("response %d: id %d success %v", next, r.ID, r.Success)
			}
			next++
		}
	}
	if next != n {
		t.Fatalf("%d of %d commands answered", next, n)
	}
}

// TestSequencerWaitIdleGivesUpOnStall checks the bound on the shutdown
// wait: a command that never finishes does not hold the exit forever,
// while a queue that makes progress is waited for to the end.
func TestSequencerWaitIdleGivesUpOnStall(t *testing.T) {
	t.Parallel()
	var q sequencer
	ran := 0
	for range 100 {
		q.run(func() { time.Sleep(time.Millisecond); ran++ }, false)
	}
	if !q.waitIdle(time.Second) || ran != 100 {
		t.Fatalf("progressing queue: not emptied, or only %d of 100 ran", ran)
	}
	block := make(chan struct{})
	defer close(block)
	q.run(func() { <-block }, false)
	if q.waitIdle(50 * time.Millisecond) {
		t.Fatal("stuck queue reported empty")
	}
}

// TestSequencerWaitsForBoundedCommand: a command that always finishes
// (get_messages of a large session) is waited for past the stall bound,
// so it is answered before exit.
func TestSequencerWaitsForBoundedCommand(t *testing.T) {
	t.Parallel()
	var q sequencer
	done := false
	q.run(func() { time.Sleep(200 * time.Millisecond); done = true }, true)
	if !q.waitIdle(20*time.Millisecond) || !done {
		t.Fatal("a bounded command was given up before it finished")
	}
}

// BenchmarkPipelinedGetState measures 10,000 pipelined get_state commands
// through Serve (read, dispatch, answer, write), the case that cost
// quadratic time with one goroutine per command.
func BenchmarkPipelinedGetState(b *testing.B) {
	const n = 10000
	in := getStateBurst(n)
	for b.Loop() {
		sink := &lineSink{ch: make(chan struct{}, 1)}
		srv, out := pipelineServer(b, sink)
		if err := srv.Serve(context.Background(), bytes.NewReader(in)); err != nil {
			b.Fatal(err)
		}
		if err := out.Flush(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "commands/s")
}
