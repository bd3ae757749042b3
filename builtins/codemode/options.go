package codemode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Default and hard limits of one script (docs/codemode.md, "Scripts").
const (
	defaultMaxOutputTokens = 10000
	maxOutputChars         = 16777216
	maxOutputCalls         = 100000
	maxStoreValueChars     = 262144
	maxStoreTotalChars     = 1048576
	optionsPrefix          = "// @options:"
)

// scriptOptions are the settings of an optional first "// @options:" line.
type scriptOptions struct {
	MaxOutputTokens int
	TimeoutMs       int // 0: no deadline
}

// parseOptions reads the options line. An options line that is not the
// first line, an unknown key or a bad value fails the call before the
// script runs, as in the reference.
func parseOptions(code string) (scriptOptions, error) {
	opts := scriptOptions{MaxOutputTokens: defaultMaxOutputTokens}
	lines := strings.Split(code, "\n")
	for i, l := range lines {
		if i > 0 && strings.HasPrefix(strings.TrimSpace(l), optionsPrefix) {
			return opts, fmt.Errorf("the // @options: line has to be the first line of the script; line %d has one", i+1)
		}
	}
	first := strings.TrimSpace(lines[0])
	rest, ok := strings.CutPrefix(first, optionsPrefix)
	if !ok {
		return opts, nil
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(rest)))
	dec.UseNumber()
	var raw map[string]json.Number
	if err := dec.Decode(&raw); err != nil {
		return opts, fmt.Errorf("the // @options: line must hold a JSON object of numbers: %w", err)
	}
	for k, v := range raw {
		n, err := v.Int64()
		if err != nil || n <= 0 {
			return opts, fmt.Errorf("@options %s must be a positive integer; got %s", k, v)
		}
		switch k {
		case "max_output_tokens":
			opts.MaxOutputTokens = int(n)
		case "timeout_ms":
			opts.TimeoutMs = int(n)
		default:
			return opts, fmt.Errorf("@options accepts only `max_output_tokens` and `timeout_ms`, not `%s`", k)
		}
	}
	return opts, nil
}
