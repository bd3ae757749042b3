package openairesponses

import (
	"strings"

	"github.com/pi-go/pi/engine/llm"
)

// normalizeIDPart makes an id safe for the API: every character outside
// [A-Za-z0-9_-] becomes "_" (one per UTF-16 unit, as the reference's regex
// sees them), the result is cut to 64 characters and trailing underscores
// are dropped.
func normalizeIDPart(s string) string { return strings.TrimRight(llm.SanitizeID(s), "_") }
