package builtins

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-go/pi/engine"
)

func call(t *testing.T, tl engine.Tool, args string) (engine.ToolResult, string) {
	t.Helper()
	res, err := tl.Execute(context.Background(), engine.ToolCall{ID: "c", Name: tl.Info().Name, Args: json.RawMessage(args)}, nil)
	if err != nil {
		t.Fatalf("execute: %v", err)
	}
	b, err := engine.MarshalJSON(res)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(b)
}

func TestEditMatchesReference(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "greeting.txt")
	os.WriteFile(p, []byte("Hello, world!\nSecond line stays.\n"), 0o644)
	res, got := call(t, NewEdit(dir), `{"path":"greeting.txt","edits":[{"oldText":"world","newText":"conformance"}]}`)
	want := `{"content":[{"type":"text","text":"Successfully replaced 1 block(s) in greeting.txt."}],"details":{"diff":"-1 Hello, world!\n+1 Hello, conformance!\n 2 Second line stays.","patch":"--- greeting.txt\n+++ greeting.txt\n@@ -1,2 +1,2 @@\n-Hello, world!\n+Hello, conformance!\n Second line stays.\n","firstChangedLine":1}}`
	if got != want || res.IsError {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	res, got = call(t, NewEdit(dir), `{"path":"greeting.txt","edits":[{"oldText":"no such text","newText":"x"}]}`)
	want = `{"content":[{"type":"text","text":"Could not find the exact text in greeting.txt. The old text must match exactly including all whitespace and newlines."}],"details":{}}`
	if got != want || !res.IsError {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestBashMatchesReference(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var updates []string
	res, err := NewBash(dir).Execute(context.Background(), engine.ToolCall{Name: "bash", Args: json.RawMessage(`{"command":"echo hello"}`)}, func(r engine.ToolResult) {
		b, _ := engine.MarshalJSON(r)
		updates = append(updates, string(b))
	})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := engine.MarshalJSON(res)
	got := string(b)
	i := strings.Index(got, `"wall_time_seconds":`)
	if i < 0 || got[:i] != `{"content":[{"type":"text","text":"hello\n"}],"structuredContent":{"output":"hello\n","truncated":false,"exit_code":0,` {
		t.Fatalf("got %s", got)
	}
	if len(updates) != 2 || updates[0] != `{"content":[]}` || updates[1] != `{"content":[{"type":"text","text":"hello\n"}],"details":{}}` {
		t.Fatalf("updates %q", updates)
	}
	res, _ = call(t, NewBash(dir), `{"command":"echo hi; echo err >&2; exit 3"}`)
	if res.Content[0].Text != "hi\nerr\n\n\nCommand exited with code 3" || !res.IsError {
		t.Fatalf("got %q", res.Content[0].Text)
	}
}

func TestBashAbortKillsGroup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan engine.ToolResult)
	go func() {
		res, _ := NewBash(dir).Execute(ctx, engine.ToolCall{Name: "bash", Args: json.RawMessage(`{"command":"sleep 30 & echo $! > pid; echo start; wait"}`)}, func(r engine.ToolResult) {
			if len(r.Content) > 0 {
				cancel()
			}
		})
		done <- res
	}()
	res := <-done
	if res.Content[0].Text != "start\n\n\nCommand aborted" || !res.IsError {
		t.Fatalf("got %q", res.Content[0].Text)
	}
	waitDead(t, pidFile)
}

func waitDead(t *testing.T, pidFile string) {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid := strings.TrimSpace(string(b))
	for range 200 {
		if _, err := os.Stat("/proc/" + pid); err != nil {
			return
		}
		st, _ := os.ReadFile("/proc/" + pid + "/stat")
		if strings.Contains(string(st), ") Z ") {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("child %s still alive", pid)
}
