package openairesponses

import (
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"syscall"

	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
	"github.com/pi-go/pi/engine/llm/oahttp"
)

// Error texts of the reference that clients and the retry logic match on.
const (
	// ErrAbortedRequest is the text of an abort that lands before the
	// response headers arrive.
	ErrAbortedRequest = "Request aborted"
	// ErrNoTerminalEvent ends a stream that stopped (or was aborted)
	// before response.completed, response.incomplete or response.failed.
	ErrNoTerminalEvent = "OpenAI Responses stream ended before a terminal response event"
	// ErrNoStopReason ends a stream whose terminal event left no status.
	ErrNoStopReason = "OpenAI Responses stream ended without a stop reason"
	// ErrStreamCut is Node's text for a connection closed mid-body.
	ErrStreamCut = "terminated: other side closed (UND_ERR_SOCKET)"
	// ErrUnknown is used when an error stop carries no message.
	ErrUnknown = "An unknown error occurred"

	errConnection  = "Connection error."
	errSocketClose = "other side closed (UND_ERR_SOCKET)"
)

// Provider streams from an openai-responses endpoint.
type Provider struct{}

// New returns the openai-responses provider.
func New() engine.Provider { return &Provider{} }

// Stream implements engine.Provider.
func (p *Provider) Stream(ctx context.Context, req *engine.LLMRequest, emit func(engine.AssistantEvent)) *engine.Message {
	b := llm.NewBuilder(req.Model, emit)
	// The reference assigns rawStopReason before errorMessage in this
	// adapter, so its messages carry them in that order.
	b.Msg.RawStopFirst = true
	if req.Model == nil {
		return b.Fail(engine.StopError, "No model for request")
	}
	req = req.WithHeaderHook()
	m := req.Model
	if req.APIKey == "" && !hasHeader(m.Headers, "authorization") && !hasHeader(req.Headers, "authorization") &&
		!hasHeader(req.Headers, "cf-aig-authorization") && !hasHeader(m.Headers, "cf-aig-authorization") {
		return b.Fail(engine.StopError, "No API key for provider: "+m.Provider)
	}
	c := getCompat(m)
	body, err := buildBody(req, c).MarshalJSON()
	if err != nil {
		return b.Fail(engine.StopError, "build request: "+err.Error())
	}
	if req.OnPayload != nil {
		if nb := req.OnPayload(body); len(nb) > 0 {
			body = nb
		}
	}
	apiKey := req.APIKey
	if apiKey == "" {
		apiKey = "unused"
	}
	opts := []option.RequestOption{
		option.WithAPIKey(apiKey),
		option.WithMaxRetries(0),
		option.WithRequestBody("application/json", body),
	}
	for k, v := range m.Headers {
		opts = append(opts, option.WithHeader(k, v))
	}
	if req.SessionID != "" {
		if c.SessionAffinityFormat == "openrouter" {
			opts = append(opts, option.WithHeader("x-session-id", req.SessionID))
		} else {
			if c.SessionAffinityFormat == "openai" {
				opts = append(opts, option.WithHeader("session-id", req.SessionID))
			}
			opts = append(opts, option.WithHeader("x-client-request-id", req.SessionID))
		}
	}
	for k, v := range req.Headers {
		opts = append(opts, option.WithHeader(k, v))
	}
	if len(req.DropHeaders) > 0 {
		opts = append(opts, oahttp.DropHeaders(req.DropHeaders))
	}
	if ctx.Err() != nil {
		return b.Fail(engine.StopAborted, ErrAbortedRequest)
	}
	res, err := oahttp.Post(ctx, strings.TrimRight(m.BaseURL, "/")+"/", "responses", opts...)
	llm.NotifyResponse(req, res)
	if err != nil {
		if ctx.Err() != nil {
			return b.Fail(engine.StopAborted, ErrAbortedRequest)
		}
		if res != nil && res.StatusCode >= 400 {
			var data []byte
			if res.Body != nil {
				data, _ = io.ReadAll(res.Body)
				_ = res.Body.Close()
			}
			return b.Fail(engine.StopError, formatHTTPError(m, res.StatusCode, data))
		}
		return b.Fail(engine.StopError, connectionError(err))
	}
	defer res.Body.Close()
	b.Start()
	s := &stream{b: b, model: m, slots: map[int]*slot{}, reasoning: map[string]int{}, onEvent: req.OnStreamEvent}
	return s.run(ctx, ssestream.NewDecoder(res))
}

func hasHeader(h map[string]string, name string) bool {
	for k, v := range h {
		if strings.EqualFold(k, name) && strings.TrimSpace(v) != "" {
			return true
		}
	}
	return false
}

// formatHTTPError words a non-2xx response as the reference does for this
// API: "<Provider> API error (<status>): " followed by the JSON of the
// body's "error" object, or by the SDK's own message when there is none.
// The built-in "openai" provider is spelled "OpenAI".
func formatHTTPError(m *engine.Model, status int, body []byte) string {
	name := m.Provider
	if name == "openai" {
		name = "OpenAI"
	}
	prefix := name + " API error (" + strconv.Itoa(status) + "): "
	text := llm.FormatHTTPError(status, body)
	if rest, ok := strings.CutPrefix(text, strconv.Itoa(status)+": "); ok {
		return prefix + rest
	}
	return prefix + text
}

// connectionError words a failure to get a response like the reference:
// "Connection error." and the deepest cause, in Node's terms where the
// retry logic matches on them.
func connectionError(err error) string {
	var op *net.OpError
	if errors.As(err, &op) && errors.Is(err, syscall.ECONNREFUSED) && op.Addr != nil {
		return errConnection + ": connect ECONNREFUSED " + op.Addr.String()
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) {
		return errConnection + ": " + errSocketClose
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return errConnection + ": " + err.Error()
}

// streamError words a failure while reading the body.
func streamError(err error) string {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		strings.Contains(err.Error(), "unexpected EOF") || strings.Contains(err.Error(), "connection reset") {
		return ErrStreamCut
	}
	return err.Error()
}
