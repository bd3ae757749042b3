package rpc

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm/faux"
	"github.com/pi-go/pi/engine/session"
)

// BenchmarkServerStreamDeltas streams a reply of 10,000 one-character
// text deltas through the whole server (faux provider, session runtime,
// event forwarding, Writer) and reports deltas per second, the in-process
// counterpart of bench/rpc.sh's streaming case: with the Writer of JSON
// mode (a write per record) and the batched one RPC mode uses.
func BenchmarkServerStreamDeltas(b *testing.B) {
	for _, w := range []struct {
		name string
		new  func(io.Writer) *Writer
	}{{"writer", NewWriter}, {"batched", NewBatchedWriter}} {
		b.Run(w.name, func(b *testing.B) { benchStreamDeltas(b, w.new) })
	}
}

func benchStreamDeltas(b *testing.B, newWriter func(io.Writer) *Writer) {
	const deltas = 10000
	text := strings.Repeat("x", deltas)
	b.ReportAllocs()
	for b.Loop() {
		host := newTestHost(faux.New(faux.Turn{Text: text, ChunkSize: 1}))
		store := session.InMemory(b.TempDir(), "")
		ctl, err := newTestController(host, store)
		if err != nil {
			b.Fatal(err)
		}
		out := newWriter(io.Discard)
		srv := NewServer(Options{Out: out, Controller: ctl})
		srv.HandleLine(context.Background(), []byte(`{"id":"p","type":"prompt","message":"go"}`))
		srv.wg.Wait()
		sess, _ := ctl.Current()
		if err := sess.WaitIdle(context.Background()); err != nil {
			b.Fatal(err)
		}
		if got := sess.Messages(); len(got) == 0 || got[len(got)-1].Role != engine.RoleAssistant {
			b.Fatal("no reply")
		}
		if err := out.Flush(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*deltas)/b.Elapsed().Seconds(), "deltas/s")
}
