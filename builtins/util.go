package builtins

import (
	"embed"
	"math"
	"strings"
)

//go:embed descriptions/*.md
var descriptions embed.FS

// description returns the embedded description of a tool, without the
// trailing newline editors add.
func description(name string) string {
	b, err := descriptions.ReadFile("descriptions/" + name + ".md")
	if err != nil {
		panic(err)
	}
	return strings.TrimSpace(string(b))
}

func floor(f float64) float64 { return math.Floor(f) }
