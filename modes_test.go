package pi

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/rpc"
)

// fakeRunner answers each prompt with a scripted assistant message.
type fakeRunner struct {
	replies []*engine.Message
	prompts []string
	subs    []func(engine.Event)
	msgs    []*engine.Message
	err     error
}

func (f *fakeRunner) Header() engine.Header {
	return engine.Header{Type: "session", Version: 3, ID: "sid", Timestamp: "ts", Cwd: "/p"}
}

func (f *fakeRunner) Subscribe(fn func(engine.Event)) func() {
	f.subs = append(f.subs, fn)
	return func() { f.subs = nil }
}

func (f *fakeRunner) Prompt(_ context.Context, text string, _ []engine.Content) error {
	if f.err != nil {
		return f.err
	}
	f.prompts = append(f.prompts, text)
	reply := f.replies[0]
	f.replies = f.replies[1:]
	f.msgs = append(f.msgs, reply)
	for _, s := range f.subs {
		s(engine.AgentStart{})
		s(engine.AgentSettled{})
	}
	return nil
}

func (f *fakeRunner) Messages() []*engine.Message { return f.msgs }

func assistant(stop engine.StopReason, errMsg string, texts ...string) *engine.Message {
	m := &engine.Message{Role: engine.RoleAssistant, StopReason: stop, ErrorMessage: errMsg}
	for _, t := range texts {
		m.Content.Blocks = append(m.Content.Blocks, engine.TextContent(t))
	}
	m.Content.Blocks = append(m.Content.Blocks, engine.Content{Type: engine.ContentThinking, Thinking: "hidden"})
	return m
}

func TestRunPrint(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		json       bool
		replies    []*engine.Message
		rest       []string
		promptErr  error
		wantCode   int
		wantOut    string
		wantErr    string
		wantPrompt []string
	}{
		{name: "text blocks of last reply", replies: []*engine.Message{assistant(engine.StopStop, "", "first"), assistant(engine.StopStop, "", "a", "b")},
			rest: []string{"two"}, wantOut: "a\nb\n", wantPrompt: []string{"one", "two"}},
		{name: "error with message", replies: []*engine.Message{assistant(engine.StopError, "529 overloaded", "x")}, wantCode: 1, wantErr: "529 overloaded\n"},
		{name: "aborted without message", replies: []*engine.Message{assistant(engine.StopAborted, "")}, wantCode: 1, wantErr: "Request aborted\n"},
		{name: "error without message", replies: []*engine.Message{assistant(engine.StopError, "")}, wantCode: 1, wantErr: "Request error\n"},
		{name: "length", replies: []*engine.Message{assistant(engine.StopLength, "", "part")}, wantCode: 1, wantOut: "part\n", wantErr: truncatedNotice + "\n"},
		{name: "prompt failure", promptErr: errors.New("No API key found for mock."), wantCode: 1, wantErr: "No API key found for mock.\n"},
		{name: "json header then events, exit 0 on error", json: true, replies: []*engine.Message{assistant(engine.StopError, "boom")},
			wantOut: `{"type":"session","version":3,"id":"sid","timestamp":"ts","cwd":"/p"}` + "\n" + `{"type":"agent_start"}` + "\n" + `{"type":"agent_settled","aborted":false}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := &fakeRunner{replies: tt.replies, err: tt.promptErr}
			var out, errOut bytes.Buffer
			code := RunPrint(context.Background(), f, PrintOptions{JSON: tt.json, Initial: InitialMessage{Text: "one"}, Rest: tt.rest}, rpc.NewWriter(&out), &out, &errOut)
			if code != tt.wantCode || out.String() != tt.wantOut || errOut.String() != tt.wantErr {
				t.Fatalf("code=%d out=%q err=%q", code, out.String(), errOut.String())
			}
			if tt.wantPrompt != nil && strings.Join(f.prompts, "|") != strings.Join(tt.wantPrompt, "|") {
				t.Fatalf("prompts %v", f.prompts)
			}
		})
	}
}

func TestRunPrintNoMessagesIsHeaderOnly(t *testing.T) {
	t.Parallel()
	f := &fakeRunner{}
	var out bytes.Buffer
	if code := RunPrint(context.Background(), f, PrintOptions{JSON: true}, rpc.NewWriter(&out), &out, &out); code != 0 {
		t.Fatal(code)
	}
	if strings.Count(out.String(), "\n") != 1 || len(f.prompts) != 0 {
		t.Fatalf("%q", out.String())
	}
}

func TestInitialMessage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00")
	for name, data := range map[string][]byte{"a.txt": []byte("\xef\xbb\xbfhello"), "img.png": png, "empty.txt": nil} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	text, images, err := ProcessFileArgs(dir, []string{"a.txt", "empty.txt", filepath.Join(dir, "img.png")})
	if err != nil {
		t.Fatal(err)
	}
	a, img := filepath.Join(dir, "a.txt"), filepath.Join(dir, "img.png")
	want := "<file name=\"" + a + "\">\nhello\n</file>\n<file name=\"" + img + "\"></file>\n"
	if text != want || len(images) != 1 || images[0].MimeType != "image/png" {
		t.Fatalf("text=%q images=%d", text, len(images))
	}
	first, rest := BuildInitialMessage("STDIN", text, images, []string{"q1", "q2"})
	if first.Text != "STDIN"+want+"q1" || len(rest) != 1 || rest[0] != "q2" {
		t.Fatalf("%q %v", first.Text, rest)
	}
	_, _, err = ProcessFileArgs(dir, []string{"missing.txt"})
	if err == nil || err.Error() != "Error: File not found: "+filepath.Join(dir, "missing.txt") {
		t.Fatalf("err=%v", err)
	}
	s, _ := ReadPipedStdin(strings.NewReader("piped content\n\n"))
	if s != "piped content" {
		t.Fatal(s)
	}
}

// finalRunner is a fakeRunner that marks the prompt sent as print mode's
// last one.
type finalRunner struct {
	fakeRunner
}

func (f *finalRunner) PromptFinal(ctx context.Context, text string, images []engine.Content) error {
	return f.Prompt(ctx, text+" (final)", images)
}

func TestRunPrintLastPromptIsFinal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		initial string
		rest    []string
		want    string
	}{
		{name: "initial only", initial: "one", want: "one (final)"},
		{name: "initial and rest", initial: "one", rest: []string{"two", "three"}, want: "one|two|three (final)"},
		{name: "rest only", rest: []string{"two"}, want: "two (final)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			n := 1 + len(tt.rest)
			f := &finalRunner{}
			for range n {
				f.replies = append(f.replies, assistant(engine.StopStop, "", "ok"))
			}
			var out, errOut bytes.Buffer
			RunPrint(context.Background(), f, PrintOptions{Initial: InitialMessage{Text: tt.initial}, Rest: tt.rest}, rpc.NewWriter(&out), &out, &errOut)
			if got := strings.Join(f.prompts, "|"); got != tt.want {
				t.Fatalf("prompts %q, want %q", got, tt.want)
			}
		})
	}
}
