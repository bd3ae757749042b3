package rpc_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/rpc"
)

func TestWriterRecords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		emit func(w *rpc.Writer) error
		want string
	}{
		{"event without fields", func(w *rpc.Writer) error { return w.WriteEvent(engine.AgentStart{}) }, `{"type":"agent_start"}` + "\n"},
		{"settled", func(w *rpc.Writer) error { return w.WriteEvent(engine.AgentSettled{Aborted: true}) }, `{"type":"agent_settled","aborted":true}` + "\n"},
		{"raw html and line separator", func(w *rpc.Writer) error {
			return w.WriteRecord(map[string]string{"a": "<&>\u2028"})
		}, "{\"a\":\"<&>\u2028\"}\n"},
		{"header", func(w *rpc.Writer) error {
			return w.WriteRecord(engine.Header{Type: "session", Version: 3, ID: "x", Timestamp: "t", Cwd: "/p"})
		}, `{"type":"session","version":3,"id":"x","timestamp":"t","cwd":"/p"}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			w := rpc.NewWriter(&buf)
			if err := tt.emit(w); err != nil {
				t.Fatal(err)
			}
			if got := buf.String(); got != tt.want {
				t.Fatalf("got %q want %q", got, tt.want)
			}
		})
	}
}

func TestWriterConcurrentLinesDoNotInterleave(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	w := rpc.NewWriter(&buf)
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = w.WriteRecord(map[string]any{"i": i, "pad": strings.Repeat("x", 1000)})
		}()
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 50 {
		t.Fatalf("got %d lines", len(lines))
	}
	for _, l := range lines {
		if !json.Valid([]byte(l)) {
			t.Fatalf("invalid line %q", l)
		}
	}
}

type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	f.n++
	return 0, errors.New("broken pipe")
}

func TestWriterStopsAfterFirstError(t *testing.T) {
	t.Parallel()
	fw := &failWriter{}
	w := rpc.NewWriter(fw)
	if err := w.WriteEvent(engine.AgentStart{}); err == nil {
		t.Fatal("want error")
	}
	if err := w.WriteEvent(engine.AgentStart{}); !errors.Is(err, rpc.ErrClosed) {
		t.Fatalf("want ErrClosed, got %v", err)
	}
	if fw.n != 1 || w.Err() == nil {
		t.Fatalf("writes=%d err=%v", fw.n, w.Err())
	}
}

func TestJSONModeHeaderThenEvents(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	j := rpc.NewJSONMode(rpc.NewWriter(&buf))
	if err := j.Header(engine.Header{Type: "session", Version: 3, ID: "id", Timestamp: "ts", Cwd: "/c"}); err != nil {
		t.Fatal(err)
	}
	j.Event(engine.TurnStart{})
	want := `{"type":"session","version":3,"id":"id","timestamp":"ts","cwd":"/c"}` + "\n" + `{"type":"turn_start"}` + "\n"
	if buf.String() != want {
		t.Fatalf("got %q", buf.String())
	}
}
