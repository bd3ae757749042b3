package interactive

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
)

// A read of an image shows the image below the tool row where the
// terminal draws images (terminal.images forces Kitty here), and a
// placeholder with its size in the expanded output where it does not.
func TestToolResultImage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, settings string
		kitty          bool
	}{
		{"kitty", `{"terminal":{"images":"kitty"}}`, true},
		{"none", `{"terminal":{"images":false}}`, false},
		{"hidden", `{"terminal":{"images":"kitty","showImages":false}}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args, _ := json.Marshal(map[string]string{"path": "pic.png"})
			ta := startApp(t, mockllm.Script{Turns: []mockllm.Turn{
				{ToolCalls: []mockllm.ToolCall{{Name: "read", Arguments: args, ID: "call_1"}}},
				{Text: "Nice picture."},
			}}, Options{}, tc.settings)
			var b bytes.Buffer
			if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 40, 20))); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(ta.a.c.Cwd(), "pic.png"), b.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
			ta.waitFor("v0.0.0-test")
			ta.r.Feed("look\r")
			ta.waitFor("Nice picture.")
			out := ta.term.Output()
			if got := strings.Contains(out, "\x1b_Ga=T,f=100"); got != tc.kitty {
				t.Fatalf("kitty image written: %v, want %v", got, tc.kitty)
			}
			if !tc.kitty {
				ta.r.Feed("\x0f") // Ctrl+O shows the read's output
				ta.waitFor("[Image: [image/png] 40x20]")
			}
		})
	}
}
