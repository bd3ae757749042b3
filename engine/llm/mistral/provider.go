package mistral

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// Texts the reference uses for failures; clients and the retry logic
// match on some of them ("terminated", "fetch failed").
const (
	errAborted         = "Request was aborted"
	errAbortedInFlight = "This operation was aborted"
	errNoFinish        = "Mistral stream ended without a finish reason"
	errInvalidEvent    = "Invalid Mistral streaming event"
	errFetchFailed     = "fetch failed"
	errTerminated      = "terminated"
)

// HeaderTimeout bounds the wait for the response headers only: a long
// stream (extended thinking) is never cut by a deadline, as in the
// reference.
const HeaderTimeout = 60 * time.Second

// Provider streams from Mistral's chat completions endpoint.
type Provider struct {
	// Client sends the requests; nil means http.DefaultClient.
	Client *http.Client
	// HeaderTimeout overrides the wait for response headers; 0 means
	// the package's HeaderTimeout.
	HeaderTimeout time.Duration
}

// New returns the mistral-conversations provider.
func New() engine.Provider { return &Provider{} }

// Stream implements engine.Provider. It never returns a Go error: every
// failure ends the message with stopReason "error" or "aborted".
func (p *Provider) Stream(ctx context.Context, req *engine.LLMRequest, emit func(engine.AssistantEvent)) *engine.Message {
	req = req.WithHeaderHook()
	if req.Model == nil {
		req.Model = &engine.Model{API: engine.APIMistralConversations}
	}
	b := llm.NewBuilder(req.Model, emit)
	// The reference records rawStopReason while streaming and the error
	// text only when the stream ends, so the former comes first.
	b.Msg.RawStopFirst = true
	fail := func(msg string) *engine.Message {
		if ctx.Err() != nil {
			return b.Fail(engine.StopAborted, msg)
		}
		return b.Fail(engine.StopError, msg)
	}
	if req.APIKey == "" {
		return fail("No API key for provider: " + req.Model.Provider)
	}
	body, err := buildPayload(req).MarshalJSON()
	if err != nil {
		return fail(fmt.Sprintf("build request: %v", err))
	}
	if req.OnPayload != nil {
		if nb := req.OnPayload(body); len(nb) > 0 {
			body = nb
		}
	}
	if body, err = wirePayload(body); err != nil {
		return fail(err.Error())
	}
	if ctx.Err() != nil {
		return b.Fail(engine.StopAborted, errAbortedInFlight)
	}
	res, err := p.post(ctx, req, body)
	if err != nil {
		if ctx.Err() != nil {
			return b.Fail(engine.StopAborted, errAbortedInFlight)
		}
		return fail(err.Error())
	}
	defer res.Body.Close()
	llm.NotifyResponse(req, res)
	if res.StatusCode < 200 || res.StatusCode > 299 {
		data, _ := io.ReadAll(res.Body)
		return fail(httpErrorText(res, data))
	}
	b.Start()
	return readStream(ctx, b, req, res.Body)
}

// post sends the request. The header timeout is a timer that cancels the
// request only until the response headers arrive.
func (p *Provider) post(ctx context.Context, req *engine.LLMRequest, body []byte) (*http.Response, error) {
	u, err := endpoint(req.Model.BaseURL)
	if err != nil {
		return nil, err
	}
	rctx, cancel := context.WithCancelCause(ctx)
	timeout := p.HeaderTimeout
	if timeout <= 0 {
		timeout = HeaderTimeout
	}
	timedOut := fmt.Errorf("Mistral response headers timed out after %dms", timeout.Milliseconds())
	timer := time.AfterFunc(timeout, func() { cancel(timedOut) })
	hr, err := http.NewRequestWithContext(rctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		timer.Stop()
		cancel(nil)
		return nil, fmt.Errorf("%s: %w", errFetchFailed, err)
	}
	setHeaders(hr, req)
	client := p.Client
	if client == nil {
		client = llm.HTTPClient()
	}
	res, err := client.Do(hr)
	stopped := timer.Stop()
	if err != nil {
		cancel(nil)
		if !stopped && ctx.Err() == nil {
			return nil, timedOut
		}
		// Node's fetch reports any transport failure as "fetch failed",
		// and the reference's Mistral adapter shows only that message,
		// not its cause; the retry logic matches it.
		return nil, errors.New(errFetchFailed)
	}
	// The request context must outlive this function (the body is read
	// later), so the cancel func is attached to the body.
	res.Body = &cancelBody{ReadCloser: res.Body, cancel: func() { cancel(nil) }}
	return res, nil
}

type cancelBody struct {
	io.ReadCloser
	cancel func()
}

func (c *cancelBody) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// endpoint resolves "v1/chat/completions" against the base URL with one
// trailing slash, so a base path ("https://host/proxy") is kept.
func endpoint(base string) (string, error) {
	if base == "" {
		base = "https://api.mistral.ai"
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", fmt.Errorf("Invalid URL: %w", err)
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/"
	u.RawPath = ""
	return u.ResolveReference(&url.URL{Path: "v1/chat/completions"}).String(), nil
}

// setHeaders sets the reference's headers in its precedence: the identity
// User-Agent and the fixed ones, then the model's headers, then the
// request's; the session id goes out as x-affinity unless a header list
// names x-affinity itself. Names dropped by a hook are not sent at all.
func setHeaders(r *http.Request, req *engine.LLMRequest) {
	type kv struct{ k, v string }
	var hs []kv
	set := func(k, v string) {
		for i := range hs {
			if strings.EqualFold(hs[i].k, k) {
				hs[i].v = v
				return
			}
		}
		hs = append(hs, kv{strings.ToLower(k), v})
	}
	set("user-agent", llm.UserAgent())
	set("accept", "text/event-stream")
	set("authorization", "Bearer "+req.APIKey)
	set("content-type", "application/json")
	explicit := false
	for _, src := range []map[string]string{req.Model.Headers, req.Headers} {
		for k, v := range src {
			set(k, v)
			if strings.EqualFold(k, "x-affinity") {
				explicit = true
			}
		}
	}
	if req.HeaderDropped("x-affinity") {
		explicit = true
	}
	if sid := req.CacheSessionID(); sid != "" && !explicit {
		set("x-affinity", sid)
	}
	for _, h := range hs {
		if req.HeaderDropped(h.k) {
			continue
		}
		r.Header[http.CanonicalHeaderKey(h.k)] = []string{h.v}
	}
}

// httpErrorText is the reference's text for a non-2xx response:
// "Mistral API error (<status>): <body>", the body trimmed and cut at 4000
// UTF-16 units; an empty body gives the status text instead.
func httpErrorText(res *http.Response, body []byte) string {
	text := strings.TrimSpace(string(body))
	if text != "" {
		return fmt.Sprintf("Mistral API error (%d): %s", res.StatusCode, llm.TruncateText(text, llm.MaxErrorBodyChars))
	}
	reason := strings.TrimSpace(strings.TrimPrefix(res.Status, strconv.Itoa(res.StatusCode)))
	if reason == "" {
		reason = fmt.Sprintf("Request failed with status %d", res.StatusCode)
	}
	return fmt.Sprintf("Mistral API error (%d): %s", res.StatusCode, reason)
}

// hasValue reports whether raw holds something other than null.
func hasValue(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && string(t) != "null"
}
