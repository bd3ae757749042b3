package pi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/prompts"
)

func TestPromptOptionsRoundTrip(t *testing.T) {
	t.Parallel()
	base := prompts.Options{Cwd: "/work/p", DocsRoot: "/opt/pi", Append: []string{"extra"},
		ContextFiles: []prompts.ContextFile{{Path: "/work/p/AGENTS.md", Content: "be nice"}},
		Skills:       []prompts.SkillRef{{Name: "s1", Description: "does s1", Location: "/sk/s1/SKILL.md"}}}
	tools := []engine.ToolInfo{
		{Name: "read", PromptSnippet: "Read files", PromptGuidelines: []string{"Use read"}},
		{Name: "bash", PromptSnippet: "Run commands"},
	}
	raw := promptOptionsJSON(base, tools)
	var keys []string
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	_, _ = dec.Token()
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var v any
		_ = dec.Decode(&v)
	}
	want := "selectedTools,hiddenTools,toolSnippets,toolGuidelines,promptGuidelines,appendSystemPrompt,sections,cwd,contextFiles,skills"
	if got := strings.Join(keys, ","); got != want {
		t.Fatalf("keys %s, want %s", got, want)
	}
	withTools := base
	withTools.Tools = tools
	built := prompts.Join(prompts.Build(withTools))

	cases := []struct {
		name   string
		edit   func(m map[string]any)
		check  func(t *testing.T, text string)
		errSub string
	}{
		{"unchanged", func(map[string]any) {}, func(t *testing.T, text string) {
			if text != built {
				t.Errorf("unchanged options render differently:\n%s\n---\n%s", text, built)
			}
		}, ""},
		{"section", func(m map[string]any) { m["sections"] = map[string]any{"tool_guidance": "- hint"} }, func(t *testing.T, text string) {
			if !strings.HasSuffix(text, "<tool_guidance>\n- hint\n</tool_guidance>") {
				t.Errorf("section not appended: %q", text[len(text)-80:])
			}
		}, ""},
		{"tools", func(m map[string]any) { m["selectedTools"] = []any{"bash"} }, func(t *testing.T, text string) {
			if strings.Contains(text, "- read: Read files") || !strings.Contains(text, "- bash: Run commands") {
				t.Errorf("tool list not rebuilt: %q", text)
			}
		}, ""},
		{"bad section", func(m map[string]any) { m["sections"] = map[string]any{"Bad Name": "x"} }, nil, "Invalid system prompt section name: Bad Name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			c.edit(m)
			b, _ := json.Marshal(m)
			secs, err := renderPromptOptions(base, b)
			if c.errSub != "" {
				if err == nil || !strings.Contains(err.Error(), c.errSub) {
					t.Fatalf("err %v, want %q", err, c.errSub)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, prompts.Join(secs))
		})
	}
}
