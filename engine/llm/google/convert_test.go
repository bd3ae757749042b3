package google

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/pi-go/pi/engine"
)

// TestThinkingConfig checks generationConfig.thinkingConfig per model and
// level; the expectations were read off the reference's requests.
func TestThinkingConfig(t *testing.T) {
	t.Parallel()
	const (
		flashMap = `{"off":null,"minimal":"minimal","low":"low","medium":"medium","high":"high","xhigh":null,"max":null}`
		proMap   = `{"off":null,"minimal":null,"low":"low","medium":"medium","high":"high","xhigh":null,"max":null}`
		gemmaMap = `{"off":null,"minimal":"MINIMAL","low":null,"medium":null,"high":"HIGH"}`
		badMap   = `{"off":null,"minimal":null,"low":"low","medium":"medium","high":"high","xhigh":"xhigh","max":null}`
	)
	tests := []struct {
		id, levelMap string
		reasoning    bool
		level        engine.ThinkingLevel
		budgets      map[engine.ThinkingLevel]int
		want         string
	}{
		// Custom budgets (settings.json thinkingBudgets), checked against the
		// reference: low 3000, medium 5000 gave gemini-2.5-flash medium 5000.
		{id: "gemini-2.5-flash", reasoning: true, level: engine.ThinkingMedium,
			budgets: map[engine.ThinkingLevel]int{engine.ThinkingLow: 3000, engine.ThinkingMedium: 5000},
			want:    `{"includeThoughts":true,"thinkingBudget":5000}`},
		{id: "gemini-2.5-pro", reasoning: true, level: engine.ThinkingHigh,
			budgets: map[engine.ThinkingLevel]int{engine.ThinkingMedium: 5000},
			want:    `{"includeThoughts":true,"thinkingBudget":32768}`},
		{id: "gemini-pro-latest", levelMap: proMap, reasoning: true, level: engine.ThinkingLow,
			budgets: map[engine.ThinkingLevel]int{engine.ThinkingLow: 3000},
			want:    `{"includeThoughts":true,"thinkingBudget":3000}`},
		{id: "gemini-3-pro-preview", reasoning: true, level: engine.ThinkingHigh,
			budgets: map[engine.ThinkingLevel]int{engine.ThinkingHigh: 3000},
			want:    `{"includeThoughts":true,"thinkingLevel":"HIGH"}`},
		{id: "gemini-2.5-flash", reasoning: true, level: engine.ThinkingOff,
			budgets: map[engine.ThinkingLevel]int{engine.ThinkingLow: 3000},
			want:    `{"thinkingBudget":0}`},
		{id: "gemini-2.5-pro", reasoning: true, level: engine.ThinkingMedium, want: `{"includeThoughts":true,"thinkingBudget":8192}`},
		{id: "gemini-2.5-pro", reasoning: true, level: engine.ThinkingMinimal, want: `{"includeThoughts":true,"thinkingBudget":128}`},
		{id: "gemini-2.5-pro", reasoning: true, level: engine.ThinkingOff, want: `{"thinkingBudget":0}`},
		{id: "gemini-2.5-pro", reasoning: true, level: "", want: `{"thinkingBudget":0}`},
		{id: "gemini-2.5-flash", reasoning: true, level: engine.ThinkingHigh, want: `{"includeThoughts":true,"thinkingBudget":24576}`},
		{id: "gemini-2.5-flash-lite", reasoning: true, level: engine.ThinkingMinimal, want: `{"includeThoughts":true,"thinkingBudget":512}`},
		{id: "gemini-pro-latest", levelMap: proMap, reasoning: true, level: engine.ThinkingLow, want: `{"includeThoughts":true,"thinkingBudget":-1}`},
		{id: "gemini-3-pro-preview", reasoning: true, level: engine.ThinkingHigh, want: `{"includeThoughts":true,"thinkingLevel":"HIGH"}`},
		{id: "gemini-3-flash-preview", levelMap: flashMap, reasoning: true, level: engine.ThinkingOff, want: `{"thinkingLevel":"MINIMAL"}`},
		{id: "gemini-3.1-pro-preview", levelMap: proMap, reasoning: true, level: engine.ThinkingMinimal, want: `{"includeThoughts":true,"thinkingLevel":"LOW"}`},
		{id: "gemini-3.1-pro-preview", levelMap: proMap, reasoning: true, level: engine.ThinkingOff, want: `{"thinkingLevel":"LOW"}`},
		{id: "gemma-4-31b-it", levelMap: gemmaMap, reasoning: true, level: engine.ThinkingMedium, want: `{"includeThoughts":true,"thinkingLevel":"HIGH"}`},
		{id: "gemma-4-31b-it", levelMap: gemmaMap, reasoning: true, level: engine.ThinkingLow, want: `{"includeThoughts":true,"thinkingLevel":"HIGH"}`},
		{id: "gemini-4-hydrogen", levelMap: badMap, reasoning: true, level: engine.ThinkingXHigh,
			want: "error: Unsupported Google thinking level mapping for google/gemini-4-hydrogen: xhigh -> xhigh"},
		{id: "gemini-2.0-flash", reasoning: false, level: engine.ThinkingHigh, want: "none"},
	}
	for _, tt := range tests {
		t.Run(tt.id+"/"+string(tt.level)+fmt.Sprint(tt.budgets), func(t *testing.T) {
			t.Parallel()
			m := &engine.Model{ID: tt.id, Provider: "google", Reasoning: tt.reasoning}
			if tt.levelMap != "" {
				m.ThinkingLevelMap = json.RawMessage(tt.levelMap)
			}
			cfg, err := thinkingConfig(m, tt.level, tt.budgets)
			got := "none"
			switch {
			case err != nil:
				got = "error: " + err.Error()
			case cfg != nil:
				b, _ := cfg.MarshalJSON()
				got = string(b)
			}
			if got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// TestSchemaRewrites checks const-as-enum and the strict form of tool
// schemas, key order included.
func TestSchemaRewrites(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in    string
		strictModel bool
		sampling    string
		want        string
		wantStrict  bool
		wantErr     string
		ownSampling bool
	}{
		{name: "const to enum", in: `{"type":"object","properties":{"kind":{"const":"a","description":"d"},"n":{"const":1},"b":{"const":true},"e":{"const":"x","enum":["x"]},"properties":{"const":"k"}}}`,
			want: `{"type":"object","properties":{"kind":{"description":"d","enum":["a"]},"n":{"enum":[1]},"b":{"const":true},"e":{"const":"x","enum":["x"]},"properties":{"enum":["k"]}}}`},
		{name: "strings as JSON.stringify writes them", in: `{"type":"object","properties":{"a":{"type":"string","description":"a<b && c>d","const":"<x>"}}}`,
			want: `{"type":"object","properties":{"a":{"type":"string","description":"a<b && c>d","enum":["<x>"]}}}`},
		{name: "trailing data", in: `{"type":"object"} {}`, wantErr: `tool "t" parameters: trailing data after JSON value`},
		{name: "const in name map keys kept", in: `{"type":"object","properties":{"const":{"type":"string"}}}`,
			want: `{"type":"object","properties":{"const":{"type":"string"}}}`},
		{name: "strict optional made nullable", strictModel: true, wantStrict: true,
			in:   `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":["number","null"]},"c":{"type":"object","properties":{"d":{"type":"string"}}}},"required":["a"]}`,
			want: `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":["number","null"]},"c":{"anyOf":[{"type":"object","properties":{"d":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["d"],"additionalProperties":false},{"type":"null"}]}},"required":["a","b","c"],"additionalProperties":false}`},
		{name: "strict unsupported falls back", strictModel: true, in: `{"type":"object","properties":{"a":{"oneOf":[{"type":"string"}]}}}`,
			want: `{"type":"object","properties":{"a":{"oneOf":[{"type":"string"}]}}}`},
		{name: "strict required unsupported", strictModel: true, ownSampling: true, sampling: `{"type":"json_schema","strict":"require"}`,
			in: `{"type":"object","additionalProperties":true}`, wantErr: `Tool "t" requires JSON-schema constrained sampling, but schema-valued or true additionalProperties is unsupported.`},
		{name: "strict required old model", ownSampling: true, sampling: `{"type":"json_schema","strict":"require"}`,
			in: `{"type":"object"}`, wantErr: `Tool "t" requires JSON-schema constrained sampling, but strict tools are unsupported.`},
		{name: "no parameters, strict required", strictModel: true, ownSampling: true, sampling: `{"type":"json_schema","strict":"require"}`,
			wantErr: `Tool "t" requires JSON-schema constrained sampling, but root schema must have type object.`},
		{name: "no parameters, strict preferred", strictModel: true, want: `null`},
		{name: "extension tool without sampling", strictModel: true, ownSampling: true,
			in: `{"type":"object","properties":{"a":{"type":"string"}}}`, want: `{"type":"object","properties":{"a":{"type":"string"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tool := engine.ToolInfo{Name: "t", Description: "d", Parameters: json.RawMessage(tt.in), OwnSampling: tt.ownSampling}
			if tt.sampling != "" {
				tool.ConstrainedSampling = json.RawMessage(tt.sampling)
			}
			decls, strict, err := convertTools([]engine.ToolInfo{tool}, tt.strictModel)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err %v, want %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			params, _ := getKey(decls[0], "parametersJsonSchema")
			b, err := engine.MarshalJSON(params)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want || strict != tt.wantStrict {
				t.Errorf("got %s strict=%v\nwant %s strict=%v", b, strict, tt.want, tt.wantStrict)
			}
		})
	}
}

// TestContents checks the conversion of transcripts the reference was
// run with: images in tool results (inside the function response from
// Gemini 3 on, in a user turn of their own before), error results, one
// turn per batch of results, and a replay to another model (thinking and
// signatures dropped).
func TestContents(t *testing.T) {
	t.Parallel()
	const png = "iVBORw0KGgo="
	batch := func(m *engine.Model) []*engine.Message {
		return []*engine.Message{
			{Role: engine.RoleUser, Content: engine.Contents{IsString: true, Blocks: []engine.Content{engine.TextContent("hi")}}},
			{Role: engine.RoleAssistant, API: m.API, Provider: m.Provider, Model: m.ID, StopReason: engine.StopToolUse, Content: engine.Blocks(
				engine.Content{Type: engine.ContentToolCall, ID: "read_1_1", Name: "read", Arguments: json.RawMessage(`{"path":"dot.png"}`)},
				engine.Content{Type: engine.ContentToolCall, ID: "bash_1_2", Name: "bash", Arguments: json.RawMessage(`{"command":"exit 3"}`)})},
			{Role: engine.RoleToolResult, ToolCallID: "read_1_1", ToolName: "read",
				Content: engine.Blocks(engine.TextContent("Read image file [image/png]"), engine.ImageContent(png, "image/png"))},
			{Role: engine.RoleToolResult, ToolCallID: "bash_1_2", ToolName: "bash", IsError: true,
				Content: engine.Blocks(engine.TextContent("(no output)\n\nCommand exited with code 3"))},
		}
	}
	g25, g3 := testModel("gemini-2.5-pro"), testModel("gemini-3-pro-preview")
	tests := []struct {
		name  string
		model *engine.Model
		msgs  []*engine.Message
		want  string
	}{
		{name: "images gemini 2.5", model: g25, msgs: batch(g25),
			want: `[{"parts":[{"text":"hi"}],"role":"user"},{"parts":[{"functionCall":{"args":{"path":"dot.png"},"name":"read"}},{"functionCall":{"args":{"command":"exit 3"},"name":"bash"}}],"role":"model"},{"parts":[{"functionResponse":{"name":"read","response":{"output":"Read image file [image/png]"}}}],"role":"user"},{"parts":[{"text":"Tool result image:"},{"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgo="}}],"role":"user"},{"parts":[{"functionResponse":{"name":"bash","response":{"error":"(no output)\n\nCommand exited with code 3"}}}],"role":"user"}]`},
		{name: "images gemini 3", model: g3, msgs: batch(g3),
			want: `[{"parts":[{"text":"hi"}],"role":"user"},{"parts":[{"functionCall":{"args":{"path":"dot.png"},"id":"read_1_1","name":"read"}},{"functionCall":{"args":{"command":"exit 3"},"id":"bash_1_2","name":"bash"}}],"role":"model"},{"parts":[{"functionResponse":{"name":"read","response":{"output":"Read image file [image/png]"},"parts":[{"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgo="}}],"id":"read_1_1"}},{"functionResponse":{"name":"bash","response":{"error":"(no output)\n\nCommand exited with code 3"},"id":"bash_1_2"}}],"role":"user"}]`},
		{name: "replay to another model", model: g3, msgs: []*engine.Message{
			{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("hi"), engine.ImageContent(png, "image/jpeg"))},
			{Role: engine.RoleAssistant, API: g25.API, Provider: g25.Provider, Model: g25.ID, StopReason: engine.StopToolUse, Content: engine.Blocks(
				engine.Content{Type: engine.ContentThinking, Thinking: "hmm", ThinkingSignature: "c2lnMQ=="},
				engine.Content{Type: engine.ContentText, Text: "I'll run it.", TextSignature: "c2lnMw=="},
				engine.Content{Type: engine.ContentToolCall, ID: "call|weird id", Name: "bash", Arguments: json.RawMessage(`{"command":"ls"}`), ThoughtSignature: "c2lnMg=="})},
			{Role: engine.RoleToolResult, ToolCallID: "call|weird id", ToolName: "bash", Content: engine.Blocks(engine.ImageContent(png, "image/png"))},
			{Role: engine.RoleAssistant, API: g25.API, Provider: g25.Provider, Model: g25.ID, StopReason: engine.StopError, Content: engine.Blocks(engine.TextContent("dropped"))},
			{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("again"))},
		},
			want: `[{"parts":[{"text":"hi"},{"inlineData":{"mimeType":"image/jpeg","data":"iVBORw0KGgo="}}],"role":"user"},{"parts":[{"text":"I'll run it."},{"functionCall":{"args":{"command":"ls"},"id":"call_weird_id","name":"bash"}}],"role":"model"},{"parts":[{"functionResponse":{"name":"bash","response":{"output":"(see attached image)"},"parts":[{"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgo="}}],"id":"call_weird_id"}}],"role":"user"},{"parts":[{"text":"again"}],"role":"user"}]`},
		{name: "signed empty text kept, bad signature dropped", model: g25, msgs: []*engine.Message{
			{Role: engine.RoleAssistant, API: g25.API, Provider: g25.Provider, Model: g25.ID, StopReason: engine.StopStop, Content: engine.Blocks(
				engine.Content{Type: engine.ContentThinking, Thinking: " ", ThinkingSignature: "not base64!"},
				engine.Content{Type: engine.ContentText, Text: "", TextSignature: "c2lnMw=="})},
		},
			want: `[{"parts":[{"text":"","thoughtSignature":"c2lnMw=="}],"role":"model"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := engine.MarshalJSON(convertContents(&engine.LLMRequest{Model: tt.model, Messages: tt.msgs}, false))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}
