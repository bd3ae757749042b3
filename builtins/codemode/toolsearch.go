package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/pi-go/pi/engine"
)

// SearchName is the tool_search tool's name.
const SearchName = "tool_search"

// SearchConfig is what tool_search needs from its agent.
type SearchConfig struct {
	// Registry holds the tools it searches: those with deferred or
	// codemode exposure.
	Registry *Registry
	// Extra returns more entries next to the registry's (Config.Extra).
	Extra func() []Entry
	// Declared returns the tools declared to the model; they are not
	// searched.
	Declared func() []engine.Tool
	// Activate declares the matched tools for the next model call (the
	// agent adds them to the active set, which the session records).
	Activate func(names []string) error
}

// Search is the tool_search tool.
type Search struct {
	cfg SearchConfig
	mu  sync.Mutex
}

// NewSearch returns the tool_search tool.
func NewSearch(cfg SearchConfig) *Search { return &Search{cfg: cfg} }

const searchParameters = `{"type":"object","required":["query"],"properties":{"query":{"type":"string","description":"Search query for deferred tools."},"limit":{"type":"number","description":"Maximum number of tools to return. Defaults to 8."}}}`

// Info declares the tool.
func (s *Search) Info() engine.ToolInfo {
	return engine.ToolInfo{
		// Declared without a sampling constraint, as the reference does.
		Name: SearchName, Label: SearchName, Parameters: json.RawMessage(searchParameters), OwnSampling: true,
		Description: "# Tool discovery\n\nRanks the tools that are not declared yet (deferred tools) against a query with BM25 and declares the matches for your next call.\n\n" +
			"Some tools, MCP servers' tools among them, are not given to you upfront: search for them with this tool (`tool_search`). Always use `tool_search` to find MCP tools.",
		PromptSnippet: "Search for tools that are not declared yet and load the matches",
	}
}

// Execute searches and activates the matches.
func (s *Search) Execute(ctx context.Context, call engine.ToolCall, _ func(engine.ToolResult)) (engine.ToolResult, error) {
	var args struct {
		Query string  `json:"query"`
		Limit float64 `json:"limit"`
	}
	_ = json.Unmarshal(call.Args, &args)
	// A search ranks every tool, so it waits for all that are connecting.
	s.cfg.Registry.Wait(ctx, "")
	declared := map[string]bool{}
	if s.cfg.Declared != nil {
		for _, t := range s.cfg.Declared() {
			declared[t.Info().Name] = true
		}
	}
	var cands []Entry
	for _, e := range allEntries(s.cfg.Registry, s.cfg.Extra) {
		if !declared[e.Tool.Info().Name] {
			cands = append(cands, e)
		}
	}
	docs := make([]searchDoc, len(cands))
	for i, e := range cands {
		e := e
		docs[i] = docOf(e.Tool.Info().Name, e.Tool.Info().Description, &e)
	}
	idx := rank(docs, args.Query, int(args.Limit))
	if len(idx) == 0 {
		return engine.ToolResult{Content: []engine.Content{engine.TextContent("No matching tools found.")}, Details: json.RawMessage(`{"loaded":[]}`)}, nil
	}
	names := make([]string, len(idx))
	var b strings.Builder
	for i, k := range idx {
		info := cands[k].Tool.Info()
		names[i] = info.Name
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("- " + info.Name)
		if d := firstLine(info.Description); d != "" {
			b.WriteString(": " + d)
		}
	}
	if s.cfg.Activate != nil {
		if err := s.cfg.Activate(names); err != nil {
			return engine.ErrorResult("tool_search could not load the matches: " + err.Error()), nil
		}
	}
	loaded, _ := engine.MarshalJSON(names)
	noun := "tools"
	if len(names) == 1 {
		noun = "tool"
	}
	// The result line is the reference's, which clients and tests match.
	text := fmt.Sprintf("Loaded %d %s. They are available from your next call:\n%s", len(names), noun, b.String())
	return engine.ToolResult{Content: []engine.Content{engine.TextContent(text)}, Details: json.RawMessage(`{"loaded":` + string(loaded) + `}`)}, nil
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}
