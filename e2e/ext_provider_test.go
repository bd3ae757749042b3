package e2e_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// providerExt registers provider "acme" on the mock with the wire API and
// base URL it is given, a literal key and a header, and two models: one
// fully described, one with only an id.
const providerExt = `export default function (pi) {
  pi.registerProvider("acme", {
    baseUrl: "__BASE__", apiKey: "ACME-KEY", api: "__API__", headers: { "X-Acme": "on" },
    models: [
      { id: "m1", name: "Acme One", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 100000, maxTokens: 1000 },
      { id: "m2", compat: { supportsDeveloperRole: false } },
    ],
  });
}
`

// TestRegisterProviderEndToEnd drives the built binary with an extension
// that registers a provider: --model selects it at start-up, requests go
// to its baseUrl with its key and headers through its wire API,
// get_available_models lists its models in the definition's own key order,
// and set_model switches to them.
func TestRegisterProviderEndToEnd(t *testing.T) {
	t.Parallel()
	for _, api := range apis {
		t.Run(api, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, api, `[{"text":"from acme"},{"text":"from acme again"}]`, nil)
			base := e.srv.URL()
			if api == "anthropic-messages" {
				base = e.srv.BaseURL()
			}
			src := strings.NewReplacer("__BASE__", base, "__API__", api).Replace(providerExt)
			e.write("acme.ts", src)

			r := e.run("", "-p", "--model", "acme/m1", "-e", "acme.ts", "hello")
			if r.code != 0 || !strings.Contains(r.stdout, "from acme") {
				t.Fatalf("print run: code %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
			}
			reqs := e.srv.Requests()
			if len(reqs) != 1 {
				var bodies []string
				for _, q := range reqs {
					bodies = append(bodies, q.Method+" "+q.Path+" "+q.Kind+" "+string(q.Body[:min(len(q.Body), 80)]))
				}
				t.Fatalf("want 1 request, got %d:\n%s\nstderr: %s", len(reqs), strings.Join(bodies, "\n"), r.stderr)
			}
			h := lowerKeys(reqs[0].Headers)
			if h["x-acme"] != "on" {
				t.Errorf("header X-Acme not sent: %v", h)
			}
			if h["authorization"] != "Bearer ACME-KEY" && h["x-api-key"] != "ACME-KEY" {
				t.Errorf("key not sent: %v", h)
			}
			var body struct {
				Model string `json:"model"`
			}
			_ = json.Unmarshal(reqs[0].Body, &body)
			if body.Model != "m1" {
				t.Errorf("request model %q, want m1", body.Model)
			}

			stdin := `{"id":"1","type":"get_available_models"}` + "\n" +
				`{"id":"2","type":"set_model","provider":"acme","modelId":"m2"}` + "\n"
			r = e.run(stdin, "--mode", "rpc", "-e", "acme.ts")
			var models, set string
			for _, line := range strings.Split(r.stdout, "\n") {
				switch {
				case strings.Contains(line, `"id":"1"`):
					models = line
				case strings.Contains(line, `"id":"2"`):
					set = line
				}
			}
			wantM2 := `{"id":"m2","compat":{"supportsDeveloperRole":false},"api":"` + api + `","provider":"acme","baseUrl":"` + base + `"}`
			wantM1 := `{"id":"m1","name":"Acme One","reasoning":false,"input":["text"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":100000,"maxTokens":1000,"api":"` + api + `","provider":"acme","baseUrl":"` + base + `"}`
			if !strings.Contains(models, wantM1+","+wantM2) {
				t.Errorf("get_available_models lacks the acme models in their own key order:\n%s", models)
			}
			if !strings.Contains(set, `"success":true,"data":`+wantM2) {
				t.Errorf("set_model: %s\nstderr: %s", set, r.stderr)
			}
		})
	}
}

// TestRegisterProviderListModels checks that --list-models shows the
// models an extension registers, as the reference does.
func TestRegisterProviderListModels(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "openai-completions", `[]`, nil)
	e.write("acme.ts", strings.NewReplacer("__BASE__", e.srv.URL(), "__API__", "openai-completions").Replace(providerExt))
	r := e.run("", "--list-models", "acme", "-e", "acme.ts")
	want := "provider  model  context  max-out  thinking  images\n" +
		"acme      m1     100K     1K       no        no    \n"
	if r.code != 0 || !strings.HasPrefix(r.stdout, want) {
		t.Fatalf("code %d\nstdout:\n%s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
}

// TestCustomStreamProviderEndToEnd runs a prompt through a provider whose
// streamSimple is the extension's own JS, in print and JSON mode.
func TestCustomStreamProviderEndToEnd(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "openai-completions", `[]`, nil)
	e.write("echo.ts", `import { createAssistantMessageEventStream } from "@earendil-works/pi-ai";
export default function (pi) {
  pi.registerProvider("echo", {
    baseUrl: "http://unused/v1", apiKey: "k", api: "echo-api",
    models: [{ id: "e1", name: "Echo", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 }],
    streamSimple(model, context) {
      const stream = createAssistantMessageEventStream();
      const last = context.messages[context.messages.length - 1];
      const text = "echo: " + last.content.map((c) => c.text || "").join("");
      const msg = { role: "assistant", content: [], api: model.api, provider: model.provider, model: model.id,
        usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
        stopReason: "stop", timestamp: Date.now() };
      queueMicrotask(() => {
        stream.push({ type: "start", partial: msg });
        msg.content.push({ type: "text", text });
        stream.push({ type: "text_start", contentIndex: 0, partial: msg });
        stream.push({ type: "text_delta", contentIndex: 0, delta: text, partial: msg });
        stream.push({ type: "text_end", contentIndex: 0, content: text, partial: msg });
        stream.push({ type: "done", reason: "stop", message: msg });
      });
      return stream;
    },
  });
}
`)
	r := e.run("", "-p", "--model", "echo/e1", "-e", "echo.ts", "hello there")
	if r.code != 0 || r.stdout != "echo: hello there\n" {
		t.Fatalf("print: code %d\nstdout: %q\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	r = e.run("", "--mode", "json", "--model", "echo/e1", "-e", "echo.ts", "hello there")
	ts := types(records(t, r.stdout))
	if r.code != 0 || count(ts, "message_update") != 3 {
		t.Fatalf("json: code %d, types %v\nstderr: %s", r.code, ts, r.stderr)
	}
	if len(e.srv.Requests()) != 0 {
		t.Errorf("the mock was called: %d requests", len(e.srv.Requests()))
	}
}

// TestRegisterProviderLoadFailure checks that a registration refused
// during loading stops the start with the reference's message.
func TestRegisterProviderLoadFailure(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "openai-completions", `[]`, nil)
	e.write("bad.ts", `export default function (pi) { pi.registerProvider("badp", { models: [{ id: "b" }] }); }`)
	r := e.run("", "-p", "-e", "bad.ts", "hello")
	want := `error: Provider badp, model b: no "api" specified. Set it at model level or provider level.`
	if r.code != 1 || !strings.HasPrefix(r.stderr, "Error: Extension \"") || !strings.Contains(r.stderr, want) {
		t.Fatalf("code %d, stderr %q", r.code, r.stderr)
	}
}

func lowerKeys(h map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range h {
		out[strings.ToLower(k)] = v
	}
	return out
}
