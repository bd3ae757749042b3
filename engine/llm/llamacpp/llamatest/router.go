// Package llamatest is a fake llama.cpp router server for tests: an
// httptest server with the router's model list, /props, load, unload and
// download, which records every request it gets.
package llamatest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Model is one router entry, written as the router lists it.
type Model struct {
	ID           string
	Status       string
	Source       string
	Args         []string
	NCtx         int
	Image        bool
	Decision     bool
	ChatTemplate string
}

// Router is the fake server.
type Router struct {
	*httptest.Server
	mu       sync.Mutex
	models   []Model
	autoload bool
	requests []string
	auth     []string
	// logprobs are the next-token log-probabilities /completion reports,
	// by label (SetLogprobs); prompts are the user messages
	// /apply-template rendered.
	logprobs map[string]float64
	prompts  []string
}

// SetLogprobs sets what /completion reports for the labels' tokens.
func (r *Router) SetLogprobs(l map[string]float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.logprobs = l
}

// Prompts are the user messages /apply-template got, in order.
func (r *Router) Prompts() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.prompts...)
}

// Token is the fake tokenizer's id of a text without a leading newline:
// a single character is its code point, anything longer one token above
// 1000.
func Token(s string) int {
	if len([]rune(s)) == 1 {
		return int([]rune(s)[0])
	}
	n := 1000
	for i, c := range s {
		n += (i + 1) * int(c)
	}
	return n
}

func tokenize(s string) []int {
	var out []int
	if strings.HasPrefix(s, "\n") {
		out = append(out, 10)
		s = s[1:]
	}
	if s != "" {
		out = append(out, Token(s))
	}
	return out
}

// New starts a router with the given models; autoload is what /props
// reports as models_autoload.
func New(autoload bool, models ...Model) *Router {
	r := &Router{models: models, autoload: autoload}
	r.Server = httptest.NewServer(http.HandlerFunc(r.serve))
	return r
}

// Requests are "METHOD path[?query]" lines, in order.
func (r *Router) Requests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.requests...)
}

// Auth is the Authorization header of every request, in order.
func (r *Router) Auth() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.auth...)
}

// Status is a model's current status, or "".
func (r *Router) Status(id string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range r.models {
		if m.ID == id {
			return m.Status
		}
	}
	return ""
}

func (r *Router) entry(m Model) map[string]any {
	st := map[string]any{"value": m.Status}
	if m.Args != nil {
		st["args"] = m.Args
	}
	e := map[string]any{"id": m.ID, "object": "model", "status": st}
	if m.Source != "" {
		e["source"] = m.Source
	}
	if m.NCtx > 0 {
		e["meta"] = map[string]any{"n_ctx": m.NCtx}
	}
	arch := map[string]any{}
	if m.Image {
		arch["input_modalities"] = []string{"text", "image"}
	}
	if m.Decision {
		arch["output_modalities"] = []string{"decisions"}
	}
	if len(arch) > 0 {
		e["architecture"] = arch
	}
	return e
}

func (r *Router) serve(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	line := req.Method + " " + req.URL.Path
	if req.URL.RawQuery != "" {
		line += "?" + req.URL.RawQuery
	}
	r.requests = append(r.requests, line)
	r.auth = append(r.auth, req.Header.Get("Authorization"))
	w.Header().Set("Content-Type", "application/json")
	send := func(v any) { _ = json.NewEncoder(w).Encode(v) }
	var body struct {
		Model    string `json:"model"`
		Content  string `json:"content"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if req.Method == http.MethodPost {
		_ = json.NewDecoder(req.Body).Decode(&body)
	}
	set := func(id, status string) bool {
		for i := range r.models {
			if r.models[i].ID == id {
				r.models[i].Status = status
				return true
			}
		}
		return false
	}
	switch {
	case req.Method == http.MethodPost && req.URL.Path == "/tokenize":
		send(map[string]any{"tokens": tokenize(body.Content)})
	case req.Method == http.MethodPost && req.URL.Path == "/apply-template":
		prompt := ""
		for _, m := range body.Messages {
			prompt += "<" + m.Role + ">" + m.Content
			if m.Role == "user" {
				r.prompts = append(r.prompts, m.Content)
			}
		}
		send(map[string]any{"prompt": prompt + "<assistant>"})
	case req.Method == http.MethodPost && req.URL.Path == "/completion":
		top := []any{}
		for label, lp := range r.logprobs {
			top = append(top, map[string]any{"id": Token(label), "token": label, "logprob": lp})
		}
		send(map[string]any{"content": "", "completion_probabilities": []any{map[string]any{"top_logprobs": top}}})
	case req.Method == http.MethodGet && req.URL.Path == "/models":
		data := []any{}
		for i, m := range r.models {
			data = append(data, r.entry(m))
			// A download shows as downloading once, then as a model.
			if m.Status == "downloading" {
				r.models[i].Status = "unloaded"
			}
		}
		send(map[string]any{"object": "list", "data": data})
	case req.Method == http.MethodGet && req.URL.Path == "/props":
		id := req.URL.Query().Get("model")
		if id == "" {
			send(map[string]any{"models_autoload": r.autoload})
			return
		}
		for _, m := range r.models {
			if m.ID == id {
				send(map[string]any{"chat_template": m.ChatTemplate})
				return
			}
		}
		w.WriteHeader(http.StatusNotFound)
		send(map[string]any{"error": map[string]any{"message": "model not found"}})
	case req.Method == http.MethodPost && req.URL.Path == "/models/load":
		if !set(body.Model, "loaded") {
			w.WriteHeader(http.StatusBadRequest)
			send(map[string]any{"error": map[string]any{"message": "unknown model " + body.Model}})
			return
		}
		send(map[string]any{"success": true})
	case req.Method == http.MethodPost && req.URL.Path == "/models/unload":
		set(body.Model, "unloaded")
		send(map[string]any{"success": true})
	case req.Method == http.MethodPost && req.URL.Path == "/models":
		if strings.Count(body.Model, "/") != 1 {
			w.WriteHeader(http.StatusBadRequest)
			send(map[string]any{"error": map[string]any{"message": "invalid model"}})
			return
		}
		r.models = append(r.models, Model{ID: body.Model, Status: "downloading"})
		send(map[string]any{"success": true})
	default:
		w.WriteHeader(http.StatusNotFound)
		send(map[string]any{"error": map[string]any{"message": "not found"}})
	}
}
