package engine

import (
	"encoding/json"
	"testing"
)

// TestPiMessagesOrderRoundTrip checks that the key orders of the
// pi-messages adapter's messages survive a session file.
func TestPiMessagesOrderRoundTrip(t *testing.T) {
	t.Parallel()
	u := `{"input":1,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":3,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}`
	for _, line := range []string{
		`{"role":"assistant","content":[],"api":"pi-messages","provider":"radius","model":"cheap","usage":` + u + `,"stopReason":"stop","timestamp":1,"responseId":"r","responseModel":"m","providerThinkingLevel":"high","diagnostics":[{"type":"pi_messages_rewrite","timestamp":2,"details":{}}],"durationMs":3,"thinkingLevel":"high"}`,
		`{"role":"assistant","content":[],"api":"pi-messages","provider":"radius","model":"cheap","usage":` + u + `,"stopReason":"error","timestamp":1,"errorMessage":"boom","responseId":"r","durationMs":3,"thinkingLevel":"high"}`,
		`{"role":"assistant","content":[],"api":"openai-completions","provider":"p","model":"m","usage":` + u + `,"stopReason":"stop","timestamp":1,"responseId":"r","durationMs":3,"thinkingLevel":"off","responseModel":"x"}`,
	} {
		var m Message
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		got, err := MarshalJSON(m)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != line {
			t.Errorf("round trip:\n got %s\nwant %s", got, line)
		}
	}
}
