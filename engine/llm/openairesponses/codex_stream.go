package openairesponses

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// codexClient carries Codex requests. The reference uses plain fetch for
// this backend rather than the OpenAI SDK, so no SDK headers are added.
var codexClient = &http.Client{Transport: llm.IdleTransport(codexTransport())}

func codexTransport() http.RoundTripper {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return http.DefaultTransport
	}
	t = t.Clone()
	t.ResponseHeaderTimeout = 10 * time.Minute
	return t
}

// streamCodex sends body to the ChatGPT backend over SSE and streams the
// answer. The reference tries a WebSocket first and falls back to SSE;
// this adapter speaks SSE only, which the backend serves the same way.
func (p *Provider) streamCodex(ctx context.Context, req *engine.LLMRequest, b *llm.Builder, body []byte, accountID string, grammar map[string]string) *engine.Message {
	m := req.Model
	if ctx.Err() != nil {
		return b.Fail(engine.StopAborted, llm.ErrAborted)
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, codexURL(m.BaseURL), bytes.NewReader(body))
	if err != nil {
		return b.Fail(engine.StopError, err.Error())
	}
	setCodexHeaders(hr.Header, req, accountID)
	res, err := codexClient.Do(hr)
	llm.NotifyResponse(req, res)
	if err != nil {
		if ctx.Err() != nil {
			return b.Fail(engine.StopAborted, llm.ErrAborted)
		}
		return b.Fail(engine.StopError, fetchError(err))
	}
	defer res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		data, rerr := io.ReadAll(res.Body)
		if rerr != nil && ctx.Err() != nil {
			return b.Fail(engine.StopAborted, llm.ErrAborted)
		}
		now := time.Now
		if p.now != nil {
			now = p.now
		}
		return b.Fail(engine.StopError, codexHTTPError(res.StatusCode, statusText(res), data, now()))
	}
	b.Start()
	s := &stream{b: b, model: m, flavor: flavorCodex, grammar: grammar, slots: map[int]*slot{}, reasoning: map[string]int{}, onEvent: req.OnStreamEvent}
	msg := s.run(ctx, ssestream.NewDecoder(res))
	if msg.StopReason == engine.StopAborted {
		msg.ErrorMessage = llm.ErrAborted
	}
	return msg
}

// setCodexHeaders sets the headers in the reference's precedence: the
// originator and User-Agent, the model's headers, the request's (a dropped one removed),
// then the auth, account and SSE headers, which nothing overrides.
func setCodexHeaders(h http.Header, req *engine.LLMRequest, accountID string) {
	h.Set("originator", "pi")
	h.Set("User-Agent", llm.UserAgent())
	for k, v := range req.Model.Headers {
		h.Set(k, v)
	}
	for k, v := range req.Headers {
		h.Set(k, v)
	}
	for _, k := range req.DropHeaders {
		h.Del(k)
	}
	h.Set("Authorization", "Bearer "+req.APIKey)
	h.Set("chatgpt-account-id", accountID)
	h.Set("OpenAI-Beta", "responses=experimental")
	h.Set("accept", "text/event-stream")
	h.Set("content-type", "application/json")
	if sid := req.CacheSessionID(); sid != "" {
		id := clampRunes(sid, promptCacheKeyMax)
		h.Set("session-id", id)
		h.Set("x-client-request-id", id)
	}
}

// statusText is the reason phrase the server sent, as fetch reports it.
func statusText(res *http.Response) string {
	if _, text, ok := strings.Cut(res.Status, " "); ok {
		return text
	}
	return ""
}

// fetchError words a failed fetch as Node does with its deepest cause:
// "fetch failed: connect ECONNREFUSED 127.0.0.1:1".
func fetchError(err error) string {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) {
		return "fetch failed: " + errSocketClose
	}
	return "fetch failed: " + llm.NetCause(err)
}
