package openairesponses

import (
	"encoding/json"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// StrictToolParameters is llm.StrictToolParameters, kept under this name
// for the adapters that called it here before it moved (Bedrock).
func StrictToolParameters(t engine.ToolInfo, params json.RawMessage, supportsStrict bool) (json.RawMessage, error) {
	return llm.StrictToolParameters(t, params, supportsStrict)
}
