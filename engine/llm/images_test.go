package llm

import (
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/assert"
)

func TestReplaceImages(t *testing.T) {
	t.Parallel()
	img := engine.ImageContent("AA", "image/png")
	txt := engine.TextContent
	tests := []struct {
		name string
		in   []engine.Content
		want []engine.Content
	}{
		{"none", nil, nil},
		{"no images", []engine.Content{txt("a")}, []engine.Content{txt("a")}},
		{"one run, one placeholder", []engine.Content{txt("a"), img, img, txt("b"), img}, []engine.Content{txt("a"), txt("P"), txt("b"), txt("P")}},
		{"placeholder already there", []engine.Content{txt("P"), img}, []engine.Content{txt("P")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, ReplaceImages(tc.in, "P"))
		})
	}
}
