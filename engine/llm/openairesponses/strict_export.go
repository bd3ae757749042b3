package openairesponses

import (
	"encoding/json"

	"github.com/pi-go/pi/engine"
)

// StrictToolParameters is the reference's resolveJsonSchemaStrictSampling
// and makeStrictJsonSchema together, for other adapters that send strict
// tool schemas (Bedrock): the strict schema of a tool that asks for
// JSON-schema sampling on a model that supports it, nil when the tool
// goes without, and an error when it requires strict sampling it cannot
// get.
func StrictToolParameters(t engine.ToolInfo, params json.RawMessage, supportsStrict bool) (json.RawMessage, error) {
	return strictParameters(t, params, supportsStrict)
}
