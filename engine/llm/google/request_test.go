package google

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
)

// refRecord is one request the reference sent to a capture server
// (descriptions and the system prompt replaced by placeholders).
type refRecord struct {
	Model    string          `json:"model"`
	Thinking string          `json:"thinking"`
	Turn     int             `json:"turn"`
	Path     string          `json:"path"`
	APIKey   string          `json:"apiKey"`
	Vertex   bool            `json:"vertex"`
	BaseURL  string          `json:"baseUrl"`
	Body     json.RawMessage `json:"body"`
}

func readRecords(t *testing.T) []refRecord {
	t.Helper()
	f, err := os.Open("testdata/reference_requests.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []refRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r refRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// testModel is the models.json model the reference ran with.
func testModel(id string) *engine.Model {
	return &engine.Model{
		ID: id, Name: id, API: engine.APIGoogleGenerativeAI, Provider: "google", BaseURL: "http://127.0.0.1:1/v1beta",
		Reasoning: true, Input: []string{"text", "image"}, ContextWindow: 1000000, MaxTokens: 65536,
		Cost: engine.ModelCost{Input: 1.25, Output: 10, CacheRead: 0.31},
	}
}

// recordTools rebuilds the tool list from a recorded gemini-2.5 body,
// whose schemas the reference sent unchanged.
func recordTools(t *testing.T, body json.RawMessage) (string, []engine.ToolInfo) {
	t.Helper()
	var b struct {
		SystemInstruction struct {
			Parts []struct {
				Text string `json:"text"`
			} `json:"parts"`
		} `json:"systemInstruction"`
		Tools []struct {
			FunctionDeclarations []struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Params      json.RawMessage `json:"parametersJsonSchema"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatal(err)
	}
	var tools []engine.ToolInfo
	for _, d := range b.Tools[0].FunctionDeclarations {
		tools = append(tools, engine.ToolInfo{Name: d.Name, Description: d.Description, Parameters: d.Params})
	}
	return b.SystemInstruction.Parts[0].Text, tools
}

// transcript is the conversation of the recorded run at a turn: "hi",
// then the first reply (thinking, text, a bash call) and its result.
func transcript(model *engine.Model, turn int, callID string, thinking bool) []*engine.Message {
	msgs := []*engine.Message{{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("hi")), Timestamp: 1}}
	if turn == 0 {
		return msgs
	}
	var blocks []engine.Content
	if thinking {
		blocks = append(blocks,
			engine.Content{Type: engine.ContentThinking, Thinking: "Let me think about it.", ThinkingSignature: "c2lnMQ=="},
			engine.TextContent("I'll run it."))
	}
	blocks = append(blocks, engine.Content{Type: engine.ContentToolCall, ID: callID, Name: "bash",
		Arguments: json.RawMessage(`{"command":"echo hi"}`), ThoughtSignature: "c2lnMg=="})
	return append(msgs,
		&engine.Message{Role: engine.RoleAssistant, Content: engine.Blocks(blocks...), API: model.API,
			Provider: model.Provider, Model: model.ID, StopReason: engine.StopToolUse, Timestamp: 2},
		&engine.Message{Role: engine.RoleToolResult, ToolCallID: callID, ToolName: "bash",
			Content: engine.Blocks(engine.TextContent("hi\n")), Timestamp: 3})
}

func compact(t *testing.T, b []byte) string {
	t.Helper()
	var c bytes.Buffer
	if err := json.Compact(&c, b); err != nil {
		t.Fatal(err)
	}
	return c.String()
}

// TestReferenceBodies rebuilds each recorded request and compares the
// body byte for byte: key order, thinking config, strict schemas with
// VALIDATED calling on Gemini 3, call ids and thought signatures.
func TestReferenceBodies(t *testing.T) {
	t.Parallel()
	recs := readRecords(t)
	system, tools := recordTools(t, recs[0].Body)
	for _, r := range recs {
		name := r.Model + "/" + r.Thinking + "/" + string(rune('0'+r.Turn))
		if r.Vertex {
			name = "vertex/" + name
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			m := testModel(r.Model)
			if r.Vertex {
				// The Vertex runs used models with an 8192-token cap.
				m.API, m.Provider, m.BaseURL, m.MaxTokens = engine.APIGoogleVertex, "vx", r.BaseURL, 8192
			}
			callID := "bash_1_1"
			if strings.HasPrefix(r.Model, "gemini-3") {
				callID = "fc1"
			}
			req := &engine.LLMRequest{Model: m, SystemPrompt: system, Tools: tools, APIKey: r.APIKey,
				ThinkingLevel: engine.ThinkingLevel(r.Thinking),
				Messages:      transcript(m, r.Turn, callID, !strings.HasPrefix(r.Model, "gemini-3"))}
			body, err := buildBody(req, r.Vertex)
			if err != nil {
				t.Fatal(err)
			}
			got, err := body.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if want := compact(t, r.Body); string(got) != want {
				t.Errorf("body differs\n got: %s\nwant: %s", got, want)
			}
			target, _, _, err := (&Provider{Vertex: r.Vertex}).endpoint(context.Background(), http.DefaultClient, req)
			if err != nil {
				t.Fatal(err)
			}
			if target != "http://127.0.0.1:1"+r.Path {
				t.Errorf("url %s, want path %s", target, r.Path)
			}
		})
	}
}
