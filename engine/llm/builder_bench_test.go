package llm

import (
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
)

// BenchmarkBuilderText streams a 10,000-delta reply through a Builder, as
// a provider does; the cost per reply must grow linearly with its length.
func BenchmarkBuilderText(b *testing.B) {
	model := &engine.Model{ID: "m", Provider: "p", API: "openai-completions"}
	b.ReportAllocs()
	for b.Loop() {
		bl := NewBuilder(model, nil)
		bl.Start()
		for range 10000 {
			bl.Text("x")
		}
		bl.EndAll()
		if got := bl.Msg.Content.Blocks[0].Text; len(got) != 10000 {
			b.Fatalf("text length %d", len(got))
		}
	}
}

// TestBuilderTextAfterExternalEdit checks that a block whose text was
// replaced outside the Builder keeps growing from the replacement.
func TestBuilderTextAfterExternalEdit(t *testing.T) {
	t.Parallel()
	bl := NewBuilder(&engine.Model{ID: "m"}, nil)
	bl.Text("ab")
	first := bl.Msg.Content.Blocks[0].Text
	bl.Text("c")
	bl.Msg.Content.Blocks[0].Text = "XY"
	bl.Text("z")
	if got := bl.Msg.Content.Blocks[0].Text; got != "XYz" {
		t.Errorf("text = %q, want XYz", got)
	}
	if first != "ab" {
		t.Errorf("an earlier partial changed to %q", first)
	}
	bl.Thinking("", strings.Repeat("t", 3))
	bl.Thinking("", "u")
	if got := bl.Msg.Content.Blocks[1].Thinking; got != "tttu" {
		t.Errorf("thinking = %q", got)
	}
}
