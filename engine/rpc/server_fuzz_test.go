package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/pi-go/pi/engine/llm/faux"
	"github.com/pi-go/pi/engine/session"
)

// fuzzSeeds cover every command with good and bad fields; the committed
// corpus under testdata/fuzz holds the same records.
var fuzzSeeds = []string{
	`{"id":"1","type":"get_state"}`,
	`{"id":"2","type":"prompt","message":"hi"}`,
	`{"id":"3","type":"prompt","message":"hi","streamingBehavior":"steer","images":[{"type":"image","data":"AAAA","mimeType":"image/png"}]}`,
	`{"id":"4","type":"prompt","message":7}`,
	`{"type":"steer","message":"/skill:x y"}`,
	`{"type":"follow_up","message":"/t a b"}`,
	`{"type":"abort"}`,
	`{"type":"clear_queue"}`,
	`{"type":"new_session","parentSession":5}`,
	`{"type":"get_messages"}`,
	`{"type":"set_model","provider":"faux","modelId":"faux-2"}`,
	`{"type":"cycle_model"}`,
	`{"type":"get_available_models"}`,
	`{"type":"set_thinking_level","level":"max"}`,
	`{"type":"cycle_thinking_level"}`,
	`{"type":"get_available_thinking_levels"}`,
	`{"type":"set_steering_mode","mode":"all"}`,
	`{"type":"set_follow_up_mode","mode":null}`,
	`{"type":"compact","customInstructions":["x"]}`,
	`{"type":"set_auto_compaction","enabled":true}`,
	`{"type":"set_auto_retry","enabled":1}`,
	`{"type":"abort_retry"}`,
	`{"id":{"a":1},"type":"bash","command":"echo hi","excludeFromContext":true}`,
	`{"type":"abort_bash"}`,
	`{"type":"get_session_stats"}`,
	`{"type":"export_html","outputPath":"x.html"}`,
	`{"type":"fork","entryId":"abc"}`,
	`{"type":"clone"}`,
	`{"type":"get_fork_messages"}`,
	`{"type":"get_entries","since":"zz"}`,
	`{"type":"get_tree"}`,
	`{"type":"get_last_assistant_text"}`,
	`{"type":"set_session_name","name":"\u2028x"}`,
	`{"type":"get_commands"}`,
	`{"type":"extension_ui_response","id":"x","cancelled":true}`,
	`{"id":"c","type":"get_state","TYPE":"bash","command":"echo x"}`, `{"type":"bash","command":"a","COMMAND":"b"}`, `{"type":["get_state"]}`,
	"{\"id\":\"\xff\",\"type\":\"set_session_name\",\"name\":\"\xe2\x82\"}",
	`null`, `42`, `[]`, `"str"`, ``, `{`, `{"type":null}`, `{"type":12}`, `{"id":null,"type":"nope"}`,
}

// FuzzServerHandleLine feeds one record to a fresh server and checks that
// it never panics, that every output line is JSON, and that the record got
// exactly one response (none for extension_ui_response).
func FuzzServerHandleLine(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.Contains(line, []byte("switch_session")) || bytes.Contains(line, []byte("block")) {
			// Switching opens arbitrary paths and "block" waits for an abort
			// that never comes; neither says anything about decoding.
			t.Skip()
		}
		host := newTestHost(faux.New())
		store := session.InMemory("/", "")
		ctl, err := newTestController(host, store)
		if err != nil {
			t.Fatal(err)
		}
		sink := &lineSink{ch: make(chan struct{}, 1)}
		srv := NewServer(Options{Out: NewWriter(sink), Controller: ctl})
		srv.HandleLine(context.Background(), line)
		srv.wg.Wait()
		cur, _ := srv.current()
		_ = cur.WaitIdle(context.Background())
		responses := 0
		sink.mu.Lock()
		defer sink.mu.Unlock()
		for _, l := range sink.lines {
			var rec map[string]any
			if err := json.Unmarshal([]byte(l), &rec); err != nil || !utf8.ValidString(l) {
				t.Fatalf("output is not UTF-8 JSON: %q", l)
			}
			if rec["type"] == "response" {
				responses++
			}
		}
		want := 1
		if cmd, err := Decode(line); err == nil && cmd.Type == "extension_ui_response" {
			want = 0
		} else if err != nil && !errors.As(err, new(*DecodeError)) {
			t.Fatalf("Decode returned %v", err)
		}
		if responses != want {
			t.Fatalf("record %q got %d responses, want %d: %q", line, responses, want, sink.lines)
		}
	})
}
