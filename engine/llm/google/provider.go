package google

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// sdkVersion is the version of Google's SDK the reference reports in
// x-goog-api-client.
const sdkVersion = "2.32.0"

// Error texts of the reference that clients and the retry logic match on.
const (
	// ErrAbortedBeforeRequest ends a request aborted before it was sent.
	ErrAbortedBeforeRequest = "Request aborted"
	// ErrAbortedInFlight is the fetch error of an abort while waiting for
	// or reading the response.
	ErrAbortedInFlight = "This operation was aborted"
	// ErrNoFinishReason ends a stream that closed without a finishReason.
	ErrNoFinishReason = "Google stream ended without a finish reason"
	// ErrIncompleteChunk ends a stream cut in the middle of an event.
	ErrIncompleteChunk = "Incomplete JSON segment at the end"
)

// Provider streams from the Gemini API, or from Vertex AI when Vertex is
// set.
type Provider struct {
	// Client sends the requests; nil means a client without a timeout, so
	// that only the context ends a long stream.
	Client *http.Client
	// Vertex selects Vertex AI: its endpoint, its key order inside
	// function calls and responses, and the "google-vertex" API name.
	Vertex bool
}

// New returns the google-generative-ai provider.
func New() engine.Provider { return &Provider{} }

// NewVertex returns the google-vertex provider.
func NewVertex() engine.Provider { return &Provider{Vertex: true} }

// Stream sends one request and streams the reply. It never returns a Go
// error: failures end the stream with stopReason "error" or "aborted".
func (p *Provider) Stream(ctx context.Context, req *engine.LLMRequest, emit func(engine.AssistantEvent)) *engine.Message {
	start := time.Now()
	api := engine.APIGoogleGenerativeAI
	if p.Vertex {
		api = engine.APIGoogleVertex
	}
	if req.Model == nil {
		req = &engine.LLMRequest{Model: &engine.Model{API: api}}
	}
	if emit == nil {
		emit = func(engine.AssistantEvent) {}
	}
	m := req.Model
	out := &engine.Message{
		Role: engine.RoleAssistant, Content: engine.Blocks(), API: api, Provider: m.Provider, Model: m.ID,
		StopReason: engine.StopPending, Timestamp: engine.NowMillis(),
		// The reference records rawStopReason before it fails on it.
		RawStopFirst: true,
	}
	req = req.WithHeaderHook()
	s := &streamState{model: m, out: out, emit: emit, onEvent: req.OnStreamEvent}
	err := p.run(ctx, req, s)
	if err == nil && ctx.Err() != nil {
		err = errors.New(llm.ErrAborted)
	}
	d := time.Since(start).Milliseconds()
	out.DurationMs = &d
	if err != nil {
		out.StopReason = engine.StopError
		if ctx.Err() != nil {
			out.StopReason = engine.StopAborted
		}
		out.ErrorMessage = err.Error()
		emit(engine.AssistantEvent{Type: engine.AEError, Reason: out.StopReason, Partial: out})
		return out
	}
	emit(engine.AssistantEvent{Type: engine.AEDone, Reason: out.StopReason, Partial: out})
	return out
}

// run does the request and reads the stream into s. An error return
// becomes the message's errorMessage.
func (p *Provider) run(ctx context.Context, req *engine.LLMRequest, s *streamState) error {
	client := p.Client
	if client == nil {
		client = llm.HTTPClient()
	}
	target, key, token, err := p.endpoint(ctx, client, req)
	if err != nil {
		if ctx.Err() != nil {
			return errors.New(ErrAbortedBeforeRequest)
		}
		return err
	}
	built, err := buildBody(req, p.Vertex)
	if err != nil {
		return err
	}
	body, err := built.MarshalJSON()
	if err != nil {
		return fmt.Errorf("encode request: %w", err)
	}
	if req.OnPayload != nil {
		if next := req.OnPayload(json.RawMessage(body)); len(next) > 0 {
			body = next
		}
	}
	if ctx.Err() != nil {
		return errors.New(ErrAbortedBeforeRequest)
	}
	httpReq, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("build request: %w", err)
	}
	setHeaders(httpReq, req, key, token)
	resp, err := client.Do(httpReq)
	if err != nil {
		if ctx.Err() != nil {
			return errors.New(ErrAbortedInFlight)
		}
		return connectionError(err)
	}
	defer resp.Body.Close()
	// The reference's Gemini adapter reports no response to the
	// after_provider_response hooks, so neither does this one.
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, _ := io.ReadAll(resp.Body)
		return errors.New(formatHTTPError(resp, data))
	}
	s.emitEvent(engine.AssistantEvent{Type: engine.AEStart})
	s.queueing = true
	if err := s.read(ctx, resp.Body); err != nil {
		return err
	}
	return nil
}

// endpoint returns the URL of the streaming call and its credential: the
// API key, or a bearer token (Vertex AI without a key).
func (p *Provider) endpoint(ctx context.Context, client *http.Client, req *engine.LLMRequest) (target, key string, token adcToken, err error) {
	m := req.Model
	if p.Vertex {
		return vertexEndpoint(ctx, client, req, os.Getenv)
	}
	if req.APIKey == "" {
		return "", "", adcToken{}, fmt.Errorf("No API key for provider: %s", m.Provider)
	}
	base := m.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	return strings.TrimRight(base, "/") + "/models/" + m.ID + ":streamGenerateContent?alt=sse", req.APIKey, adcToken{}, nil
}

// setHeaders sets the SDK's headers, then the model's and the request's,
// later ones winning; names an extension's hook deleted are left out.
func setHeaders(r *http.Request, req *engine.LLMRequest, key string, token adcToken) {
	var h llm.HeaderList
	for _, e := range llm.IdentityHeaders(req.Model) {
		h.Set(e[0], e[1])
	}
	h.Set("x-goog-api-client", "google-genai-sdk/"+sdkVersion+" gl-go/"+goVersion())
	h.Set("Content-Type", "application/json")
	if key != "" {
		h.Set("x-goog-api-key", key)
	}
	if token.value != "" {
		h.Set("Authorization", "Bearer "+token.value)
		if token.quota != "" {
			h.Set("x-goog-user-project", token.quota)
		}
	}
	for _, src := range []map[string]string{req.Model.Headers, req.Headers} {
		for k, v := range src {
			h.Set(k, v)
		}
	}
	h.Apply(r, req)
}

func goVersion() string { return strings.TrimPrefix(runtime.Version(), "go") }

// formatHTTPError words a failed response as Google's SDK does: the JSON
// body as sent (compacted) when it is JSON, else an error object built
// from the text, the status code and the status text.
func formatHTTPError(resp *http.Response, data []byte) string {
	if strings.Contains(resp.Header.Get("Content-Type"), "application/json") {
		var buf bytes.Buffer
		if json.Compact(&buf, bytes.TrimSpace(data)) == nil {
			return buf.String()
		}
	}
	statusText := strings.TrimSpace(strings.TrimPrefix(resp.Status, fmt.Sprint(resp.StatusCode)))
	o := llm.Object{}.Set("error", llm.Object{}.Set("message", string(data)).Set("code", resp.StatusCode).Set("status", statusText))
	b, _ := o.MarshalJSON()
	return string(b)
}

// connectionError words a failure to get a response as Node's fetch does,
// "fetch failed" and the deepest cause, where the retry logic matches on
// them.
func connectionError(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) {
		return errors.New("fetch failed: other side closed (UND_ERR_SOCKET)")
	}
	return errors.New("fetch failed: " + llm.NetCause(err))
}
