package pimessages

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
	"github.com/pi-go/pi/internal/utf16x"
)

// Texts the reference's failures carry; the retry logic matches some of
// them ("fetch failed", "terminated").
const (
	errAbortedInFlight = "This operation was aborted"
	errFetchFailed     = "fetch failed"
	errTerminated      = "terminated"
)

// Provider streams from a pi-messages backend.
type Provider struct {
	// Client sends the requests; nil means http.DefaultClient.
	Client *http.Client
	// now stamps diagnostics; tests replace it.
	now func() int64
}

// New returns the pi-messages provider.
func New() engine.Provider { return &Provider{} }

func (p *Provider) millis() int64 {
	if p.now != nil {
		return p.now()
	}
	return time.Now().UnixMilli()
}

// Stream implements engine.Provider. It never returns a Go error: every
// failure ends the message with stopReason "error" or "aborted".
func (p *Provider) Stream(ctx context.Context, req *engine.LLMRequest, emit func(engine.AssistantEvent)) *engine.Message {
	req = req.WithHeaderHook()
	if req.Model == nil {
		req.Model = &engine.Model{API: engine.APIPiMessages}
	}
	if emit == nil {
		emit = func(engine.AssistantEvent) {}
	}
	b := llm.NewBuilder(req.Model, emit)
	s := &streamer{p: p, ctx: ctx, req: req, b: b, emit: emit}
	if req.APIKey == "" {
		return s.fail(fmt.Errorf("No API key provided for provider %q", req.Model.Provider), nil)
	}
	u, err := endpoint(req.Model.BaseURL)
	if err != nil {
		return s.fail(err, nil)
	}
	body, err := buildPayload(req)
	if err != nil {
		return s.fail(fmt.Errorf("build request: %w", err), nil)
	}
	if req.OnPayload != nil {
		if nb := req.OnPayload(body); len(nb) > 0 {
			body = nb
		}
	}
	res, err := p.post(ctx, req, u, body)
	if err != nil {
		return s.fail(err, nil)
	}
	defer res.Body.Close()
	llm.NotifyResponse(req, res)
	if res.StatusCode < 200 || res.StatusCode > 299 {
		data, rerr := io.ReadAll(res.Body)
		if rerr != nil {
			return s.fail(readError(rerr), nil)
		}
		return s.fail(errors.New(errorText(res, data)), p.responseFailure(req.Model, u, res, data))
	}
	return s.run(res.Body)
}

// endpoint is "{baseUrl}/messages", the base URL's trailing slashes
// dropped.
func endpoint(base string) (string, error) {
	raw := strings.TrimRight(base, "/") + "/messages"
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", errors.New("Invalid URL")
	}
	return u.String(), nil
}

func (p *Provider) post(ctx context.Context, req *engine.LLMRequest, u string, body []byte) (*http.Response, error) {
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", errFetchFailed, err)
	}
	headers(req).Apply(hr, req)
	client := p.Client
	if client == nil {
		client = llm.HTTPClient()
	}
	res, err := client.Do(hr)
	if err != nil {
		// Node's fetch reports any transport failure as "fetch failed"
		// and this adapter shows only that, not the cause.
		return nil, errors.New(errFetchFailed)
	}
	return res, nil
}

// headers are pi's identity headers, then the fixed ones, then the
// model's and the request's, later names replacing earlier ones.
func headers(req *engine.LLMRequest) llm.HeaderList {
	var hs llm.HeaderList
	for _, h := range llm.IdentityHeaders(req.Model) {
		hs.Set(h[0], h[1])
	}
	hs.Set("authorization", "Bearer "+req.APIKey)
	hs.Set("accept", "text/event-stream")
	hs.Set("content-type", "application/json")
	for _, src := range []map[string]string{req.Model.Headers, req.Headers} {
		for _, k := range sortedKeys(src) {
			hs.Set(k, src[k])
		}
	}
	return hs
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// errorBody is a JSON error body whose "error" is an object.
type errorBody struct {
	Error json.RawMessage `json:"error"`
}

func parseErrorBody(body []byte) (json.RawMessage, bool) {
	var eb errorBody
	if json.Unmarshal(body, &eb) != nil {
		return nil, false
	}
	t := bytes.TrimSpace(eb.Error)
	if len(t) == 0 || t[0] != '{' {
		return nil, false
	}
	return t, true
}

// errorFields reads error.message and error.code when they are strings.
func errorFields(errObj json.RawMessage) (msg, code *string) {
	var f struct {
		Message json.RawMessage `json:"message"`
		Code    json.RawMessage `json:"code"`
	}
	if json.Unmarshal(errObj, &f) != nil {
		return nil, nil
	}
	str := func(r json.RawMessage) *string {
		var s string
		if len(r) > 0 && r[0] == '"' && json.Unmarshal(r, &s) == nil {
			return &s
		}
		return nil
	}
	return str(f.Message), str(f.Code)
}

func statusText(res *http.Response) string {
	return strings.TrimSpace(strings.TrimPrefix(res.Status, strconv.Itoa(res.StatusCode)))
}

// errorText is the reference's "<status> <statusText>: <message or
// body>[ (<code>)]".
func errorText(res *http.Response, body []byte) string {
	suffix := string(body)
	codeSuffix := ""
	if errObj, ok := parseErrorBody(body); ok {
		msg, code := errorFields(errObj)
		if msg != nil {
			suffix = *msg
		}
		if code != nil && *code != "" {
			codeSuffix = " (" + *code + ")"
		}
	}
	return fmt.Sprintf("%d %s: %s%s", res.StatusCode, statusText(res), suffix, codeSuffix)
}

// failureDetails is the pi_messages_response_failure diagnostic's details,
// in the reference's key order.
type failureDetails struct {
	Version     int             `json:"version"`
	Provider    string          `json:"provider"`
	Model       string          `json:"model"`
	URL         string          `json:"url"`
	Status      int             `json:"status"`
	StatusText  string          `json:"statusText"`
	Error       json.RawMessage `json:"error,omitempty"`
	Body        *string         `json:"body,omitempty"`
	TimestampMs int64           `json:"timestampMs"`
}

type diagError struct {
	Name    string  `json:"name"`
	Message string  `json:"message"`
	Code    *string `json:"code,omitempty"`
}

type diagnostic struct {
	Type      string          `json:"type"`
	Timestamp int64           `json:"timestamp"`
	Error     *diagError      `json:"error,omitempty"`
	Details   json.RawMessage `json:"details"`
}

// failure is an HTTP error's diagnostic, before its message is known.
type failure struct {
	code    *string
	details failureDetails
}

func (p *Provider) responseFailure(m *engine.Model, u string, res *http.Response, body []byte) *failure {
	f := &failure{details: failureDetails{
		Version: 1, Provider: m.Provider, Model: m.ID, URL: u,
		Status: res.StatusCode, StatusText: statusText(res), TimestampMs: p.millis(),
	}}
	if errObj, ok := parseErrorBody(body); ok {
		f.details.Error = errObj
		_, f.code = errorFields(errObj)
	} else {
		s := truncateDiagnostic(string(body))
		f.details.Body = &s
	}
	return f
}

// truncateDiagnostic cuts a body kept in a diagnostic at 8192 UTF-16
// units, marking the cut with an ellipsis.
func truncateDiagnostic(s string) string {
	kept, _, cut := utf16x.Truncate(s, 8192)
	if !cut {
		return s
	}
	return kept + "…"
}

// readError words a failure while reading the response body as Node does.
func readError(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return errors.New(errAbortedInFlight)
	}
	return errors.New(errTerminated)
}
