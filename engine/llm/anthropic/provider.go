package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// anthropicVersion is the API version header every request carries.
const anthropicVersion = "2023-06-01"

// Provider streams from the Anthropic Messages API.
type Provider struct {
	// Client sends the requests; nil means a client without a timeout, so
	// that only the context ends a long stream.
	Client *http.Client
}

// New returns the anthropic-messages provider.
func New() engine.Provider { return &Provider{} }

// Stream sends one request and streams the reply. It never returns a Go
// error: failures end the stream with stopReason "error" or "aborted".
func (p *Provider) Stream(ctx context.Context, req *engine.LLMRequest, emit func(engine.AssistantEvent)) *engine.Message {
	start := time.Now()
	m := req.Model
	if m == nil {
		// A request without a model is a wiring bug; it still ends as an
		// error message rather than a panic.
		m = &engine.Model{API: engine.APIAnthropicMessages}
		req = &engine.LLMRequest{Model: m}
	}
	out := &engine.Message{
		Role: engine.RoleAssistant, Content: engine.Blocks(), API: m.API, Provider: m.Provider, Model: m.ID,
		StopReason: engine.StopPending, Timestamp: engine.NowMillis(),
		// The reference's Anthropic adapter adds cacheWrite1h after the
		// usage object is built and rawStopReason before any error text.
		Usage: engine.Usage{TrailingExtras: true}, RawStopFirst: true,
	}
	if out.API == "" {
		out.API = engine.APIAnthropicMessages
	}
	req = req.WithHeaderHook()
	s := &streamState{ctx: ctx, req: req, out: out, emit: emit, abortText: errAbortedReading}
	err := p.run(ctx, req, s)
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
		s.abortText = errAborted
	}
	d := time.Since(start).Milliseconds()
	out.DurationMs = &d
	if err != nil {
		if ctx.Err() != nil {
			out.StopReason = engine.StopAborted
			out.ErrorMessage = s.abortText
		} else {
			out.StopReason = engine.StopError
			out.ErrorMessage = err.Error()
		}
		emit(engine.AssistantEvent{Type: engine.AEError, Reason: out.StopReason, Partial: out})
		return out
	}
	if len(s.transformations) > 0 {
		out.Diagnostics = appendDiagnostic(out.Diagnostics, transformationsDiagnostic(s.transformations, engine.NowMillis()))
	}
	emit(engine.AssistantEvent{Type: engine.AEDone, Reason: out.StopReason, Partial: out})
	return out
}

// run does the request and reads the stream into s. An error return
// becomes the message's errorMessage.
func (p *Provider) run(ctx context.Context, req *engine.LLMRequest, s *streamState) error {
	m := req.Model
	if err := ctx.Err(); err != nil {
		return err
	}
	if m.ID == "" {
		return errors.New("No model selected")
	}
	if req.APIKey == "" && !hasHeader(m.Headers, req.Headers, "authorization", "x-api-key", "cf-aig-authorization") {
		return fmt.Errorf("No API key for provider: %s", m.Provider)
	}
	o := resolveOptions(req)
	s.oauth = o.oauth
	body, err := engine.MarshalJSON(buildBody(req, o))
	if err != nil {
		return fmt.Errorf("encode request: %w", err)
	}
	if req.OnPayload != nil {
		if next := req.OnPayload(json.RawMessage(body)); len(next) > 0 {
			body = next
		}
	}
	body, betas, err := afterPayloadHook(body)
	if err != nil {
		return fmt.Errorf("payload hook: %w", err)
	}

	httpReq, err := http.NewRequestWithContext(ctx, http.MethodPost, messagesURL(m.BaseURL), bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("Connection error.: %w", err)
	}
	setHeaders(httpReq, req, o, betas)
	client := p.Client
	if client == nil {
		client = llm.HTTPClient()
	}
	s.abortText = errAbortedRequest
	resp, err := client.Do(httpReq)
	if err != nil {
		return connectionError(err)
	}
	s.abortText = errAbortedReading
	defer resp.Body.Close()
	llm.NotifyResponse(req, resp)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		b, _ := io.ReadAll(resp.Body)
		return errors.New(formatHTTPError(resp.StatusCode, b))
	}
	s.emitEvent(engine.AssistantEvent{Type: engine.AEStart})
	return s.read(resp)
}

// afterPayloadHook makes the body ready to send: stream forced to true,
// as the reference does after a hook, and "betas" moved out of the body
// into the header list.
func afterPayloadHook(b []byte) ([]byte, []string, error) {
	o, err := orderedObject(b)
	if err != nil {
		return nil, nil, err
	}
	o.set("stream", true)
	var betas []string
	kept := o[:0]
	for _, m := range o {
		if m.key == "betas" {
			raw, _ := m.val.(json.RawMessage)
			_ = json.Unmarshal(raw, &betas)
			continue
		}
		kept = append(kept, m)
	}
	out, err := engine.MarshalJSON(kept)
	return out, betas, err
}

// messagesURL joins the base URL (which has no /v1) with the beta
// Messages endpoint the reference's SDK calls.
func messagesURL(base string) string {
	if base == "" {
		base = "https://api.anthropic.com"
	}
	return strings.TrimRight(base, "/") + "/v1/messages?beta=true"
}

// setHeaders sets the headers in the reference's precedence: identity and
// fixed headers, then the model's headers, then the request's, then the
// beta list. Names keep the reference's lower case. An OAuth token and a
// Copilot token authenticate as bearer tokens (oauth.go).
func setHeaders(r *http.Request, req *engine.LLMRequest, o options, betas []string) {
	h := llm.HeaderList{}
	copilot := isCopilot(req.Model)
	if !o.oauth {
		h.Set("User-Agent", llm.UserAgent())
	}
	h.Set("anthropic-version", anthropicVersion)
	switch {
	case (o.oauth || copilot) && req.APIKey != "":
		h.Set("authorization", "Bearer "+req.APIKey)
	case !o.oauth && !copilot && req.APIKey != "":
		h.Set("x-api-key", req.APIKey)
	}
	h.Set("accept", "application/json")
	h.Set("anthropic-dangerous-direct-browser-access", "true")
	if o.oauth {
		// Canonical case, so that Go sends no default user agent beside it.
		h.Set("User-Agent", "claude-cli/"+claudeCodeVersion)
		h.Set("x-app", "cli")
	}
	if sid := req.CacheSessionID(); !o.oauth && !copilot && sid != "" && o.compat.sendSessionAffinityHeaders {
		name := "x-session-affinity"
		if o.compat.sessionAffinityFormat == "openrouter" {
			name = "x-session-id"
		}
		h.Set(name, sid)
	}
	addAll := func(src map[string]string) {
		for k, v := range src {
			if strings.EqualFold(k, "anthropic-beta") {
				continue
			}
			h.Set(k, v)
		}
	}
	addAll(req.Model.Headers)
	for _, kv := range llm.CopilotDynamicHeaders(req.Model, req.Messages) {
		h.Set(kv[0], kv[1])
	}
	addAll(req.Headers)
	h.Set("content-type", "application/json")
	if len(betas) > 0 {
		h.Set("anthropic-beta", strings.Join(betas, ","))
	}
	h.Apply(r, req)
}

func hasHeader(a, b map[string]string, names ...string) bool {
	for _, src := range []map[string]string{a, b} {
		for k, v := range src {
			for _, n := range names {
				if strings.EqualFold(k, n) && strings.TrimSpace(v) != "" {
					return true
				}
			}
		}
	}
	return false
}
