package llm

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMakeStrictSchema converts the schemas of testdata/strict.jsonl and
// compares each result, or error text, with what the reference's
// makeStrictJsonSchema gave for it.
func TestMakeStrictSchema(t *testing.T) {
	t.Parallel()
	f, err := os.Open("testdata/strict.jsonl")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var c struct {
			In  string `json:"in"`
			OK  string `json:"ok"`
			Err string `json:"err"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c))
		n++
		got, err := MakeStrictSchema(json.RawMessage(c.In))
		if c.Err != "" {
			assert.EqualError(t, err, c.Err, c.In)
			continue
		}
		require.NoError(t, err, c.In)
		assert.Equal(t, c.OK, string(got), c.In)
	}
	require.NoError(t, sc.Err())
	assert.Positive(t, n)
}

// TestMakeStrictSchemaKeepsNumbers checks that numeric keywords come out
// as the numbers they went in as (a decoded json.Number once came out
// quoted).
func TestMakeStrictSchemaKeepsNumbers(t *testing.T) {
	t.Parallel()
	got, err := MakeStrictSchema(json.RawMessage(`{"type":"object","properties":{"a":{"type":"number","minimum":1,"maximum":2.50}},"required":["a"]}`))
	require.NoError(t, err)
	assert.Equal(t, `{"type":"object","properties":{"a":{"type":"number","minimum":1,"maximum":2.50}},"required":["a"],"additionalProperties":false}`, string(got))
}
