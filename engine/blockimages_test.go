package engine_test

import (
	"context"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm/faux"
	"github.com/pi-go/pi/engine/session"
)

// TestBlockImagesInRequest checks images.blockImages: with it on, the
// request carries "Image reading is disabled." (once for adjacent
// images) where the prompt had images; with it off, the images go out.
func TestBlockImagesInRequest(t *testing.T) {
	t.Parallel()
	img := engine.ImageContent("aGk=", "image/png")
	for _, block := range []bool{true, false} {
		p := faux.New(faux.Turn{Text: "ok"})
		s, err := engine.NewSession(engine.SessionOptions{
			Store: session.InMemory(t.TempDir(), ""), Model: &engine.Model{Provider: "faux", ID: "m", API: "faux", Input: []string{"text", "image"}},
			ThinkingLevel: engine.ThinkingOff, ProviderFor: func(string) (engine.Provider, error) { return p, nil },
			Settings: engine.DefaultRuntimeSettings(), BlockImages: func() bool { return block },
		})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		if _, err := s.Prompt(ctx, "look", []engine.Content{img, img}, engine.PromptOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := s.WaitIdle(ctx); err != nil {
			t.Fatal(err)
		}
		reqs := p.Requests()
		if len(reqs) != 1 {
			t.Fatalf("%d requests", len(reqs))
		}
		var types, texts []string
		for _, m := range reqs[0].Messages {
			if m.Role != engine.RoleUser {
				continue
			}
			for _, b := range m.Content.Blocks {
				types = append(types, b.Type)
				texts = append(texts, b.Text)
			}
		}
		want := []string{"text", "image", "image"}
		if block {
			want = []string{"text", "text"}
		}
		if len(types) != len(want) {
			t.Fatalf("block %v: user content %v %q, want %v", block, types, texts, want)
		}
		for i := range want {
			if types[i] != want[i] {
				t.Fatalf("block %v: user content %v %q, want %v", block, types, texts, want)
			}
		}
		if block && texts[1] != "Image reading is disabled." {
			t.Errorf("placeholder %q", texts[1])
		}
		if got := s.Messages()[0].Content.Blocks; block && got[1].Type != engine.ContentImage {
			t.Error("blocking changed the session's own message")
		}
	}
}
