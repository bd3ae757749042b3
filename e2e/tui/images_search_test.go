package tui

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

// A read of an image draws it with the Kitty graphics protocol when
// PI_IMAGE_PROTOCOL says the terminal has it; then the transcript search
// (Ctrl+Shift+F, sent as a Kitty keyboard sequence) finds the reply and
// counts its matches.
func TestImageAndTranscriptSearch(t *testing.T) {
	t.Parallel()
	args, _ := json.Marshal(map[string]string{"path": "pic.png"})
	agentDir, project, _ := sdktest.Home(t, mockllm.Script{Turns: []mockllm.Turn{
		{ToolCalls: []mockllm.ToolCall{{Name: "read", Arguments: args, ID: "call_1"}}},
		{Text: "A red square, findable-word here and findable-word there."},
	}})
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 30, 30))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, "pic.png"), b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	tm := startPiEnv(t, []string{"PI_IMAGE_PROTOCOL=kitty"}, agentDir, project, 100, 30, "--model", sdktest.Model)
	tm.waitFor("mock-model")
	tm.send("look at it\r")
	tm.waitFor("findable-word there.")
	tm.mu.Lock()
	raw := tm.raw.String()
	tm.mu.Unlock()
	if !strings.Contains(raw, "\x1b_Ga=T,f=100,q=2,C=1,") {
		i := strings.Index(raw, "\x1b_G")
		t.Fatalf("no Kitty image in the output (APC at %d): %q", i, raw[max(0, i-100):min(len(raw), i+200)])
	}
	tm.send("\x1b[102;6u") // Ctrl+Shift+F
	tm.waitFor("Find in transcript")
	tm.send("findable-word")
	tm.waitFor("1/2")
	tm.send("\r")
	tm.waitFor("2/2")
	tm.send("\x1b[27u") // Escape closes the box
	deadline := 0
	for strings.Contains(tm.screen(), "2/2") {
		if deadline++; deadline > 500 {
			t.Fatalf("search box still open:\n%s", tm.screen())
		}
		tm.waitFor("mock-model")
	}
}
