package pi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-go/pi"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

// subAgentExt runs a sub-agent from a command, as @tintinweb/pi-subagents's
// Agent tool does: a DefaultResourceLoader with a replaced system prompt,
// createAgentSession with the parent's model, a tool allowlist and an
// in-memory SessionManager, then prompt, with its events subscribed.
const subAgentExt = `
import { createAgentSession, DefaultResourceLoader, SessionManager, getAgentDir } from "@earendil-works/pi-coding-agent";
export default function (pi) {
  pi.registerCommand("sub", { handler: async (_args, ctx) => {
    const loader = new DefaultResourceLoader({ cwd: ctx.cwd, agentDir: getAgentDir(), noExtensions: true, noSkills: true,
      noContextFiles: true, systemPromptOverride: () => "You are the sub-agent.", appendSystemPromptOverride: () => [] });
    await loader.reload();
    const sessionManager = SessionManager.inMemory(ctx.cwd);
    const { session } = await createAgentSession({ cwd: ctx.cwd, model: ctx.model, tools: ["read", "grep"], resourceLoader: loader, sessionManager });
    session.setSessionName("helper");
    const types = [];
    const unsub = session.subscribe((e) => types.push(e.type));
    await session.prompt("hello sub");
    unsub();
    console.log("SUB " + JSON.stringify({
      text: session.getLastAssistantText(), tools: session.getActiveToolNames(), roles: session.messages.map((m) => m.role),
      types: [...new Set(types)].filter((t) => ["agent_start", "message_end", "agent_end"].includes(t)),
      entries: sessionManager.getEntries().map((e) => e.type), name: sessionManager.getSessionName(),
      extensions: loader.getExtensions().extensions.length,
    }));
    session.dispose();
  }});
}`

func TestSubAgentInProcess(t *testing.T) {
	t.Parallel()
	agentDir, project, srv := sdktest.Home(t, mockllm.Script{Turns: []mockllm.Turn{{Text: "sub answer"}}})
	ext := filepath.Join(project, "sub.ts")
	if err := os.WriteFile(ext, []byte(subAgentExt), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	agent, err := pi.New(context.Background(), pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model,
		NoSession: true, Mode: pi.ModePrint, Extensions: []string{ext}, Stderr: &stderr})
	if err != nil {
		t.Fatalf("New: %v\n%s", err, stderr.String())
	}
	defer agent.Close()
	if err := agent.Prompt(context.Background(), "/sub", nil); err != nil {
		t.Fatal(err)
	}
	_, line, ok := strings.Cut(stderr.String(), "SUB ")
	if !ok {
		t.Fatalf("no sub-agent report in:\n%s", stderr.String())
	}
	line, _, _ = strings.Cut(line, "\n")
	// The transcript and the store are the engine's, as a session of the
	// CLI records them (the system message, the model and thinking level).
	want := `{"text":"sub answer","tools":["read","grep"],"roles":["system","user","assistant"],"types":["agent_start","message_end","agent_end"],` +
		`"entries":["model_change","thinking_level_change","session_info","message","message","message"],"name":"helper","extensions":0}`
	if line != want {
		t.Errorf("sub-agent report\n got: %s\nwant: %s", line, want)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d LLM requests, want the sub-agent's one", len(reqs))
	}
	var body struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	var system string
	_ = json.Unmarshal(body.Messages[0].Content, &system)
	if body.Messages[0].Role != "system" || !strings.HasPrefix(system, "You are the sub-agent.") {
		t.Errorf("system prompt = %q, want the loader's override first", system)
	}
	var tools []string
	for _, tl := range body.Tools {
		tools = append(tools, tl.Function.Name)
	}
	if strings.Join(tools, ",") != "read,grep" {
		t.Errorf("tools = %v, want the allowlist [read grep]", tools)
	}
}
