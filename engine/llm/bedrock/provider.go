package bedrock

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/google/uuid"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// signingName is the SigV4 service name of the Bedrock runtime.
const signingName = "bedrock"

// The reference's texts for a cancelled request, which depend on when it
// was cancelled: before the response (the SDK's abort error with its
// cause), while reading the event stream, or after the stream ended.
const (
	errAbortedRequest = "Request aborted: This operation was aborted (20)"
	errAbortedStream  = "aborted"
	errAborted        = "Request was aborted"
)

// Provider streams from Bedrock's ConverseStream operation.
type Provider struct {
	// Client sends the requests; nil means http.DefaultClient.
	Client *http.Client
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Home is the directory holding .aws/; "" means the user's home.
	Home string
	// Now is the signing clock; nil means time.Now.
	Now func() time.Time
	// InvocationID makes the amz-sdk-invocation-id header; nil means a
	// random UUID.
	InvocationID func() string
	// sleep waits between attempts (retry.go); nil waits for real.
	sleep func(ctx context.Context, d time.Duration) error
}

// New returns the bedrock-converse-stream provider.
func New() engine.Provider { return &Provider{} }

// Stream implements engine.Provider. It never returns a Go error: every
// failure ends the message with stopReason "error" or "aborted".
func (p *Provider) Stream(ctx context.Context, req *engine.LLMRequest, emit func(engine.AssistantEvent)) *engine.Message {
	req = req.WithHeaderHook()
	if req.Model == nil {
		req.Model = &engine.Model{API: engine.APIBedrockConverseStream}
	}
	b := llm.NewBuilder(req.Model, emit)
	// rawStopReason is recorded at messageStop, the error text only when
	// the stream ends, so the former comes first.
	b.Msg.RawStopFirst = true
	st := &streamState{b: b, req: req, open: map[int]*openBlock{}}
	requestID := ""
	abortText := errAbortedRequest
	fail := func(err error) *engine.Message {
		st.flushOpen()
		if ctx.Err() != nil {
			return b.Fail(engine.StopAborted, abortText)
		}
		msg := err.Error()
		if strings.Contains(strings.ToLower(msg), "data retention mode") {
			msg += " See https://docs.aws.amazon.com/bedrock/latest/userguide/data-retention.html for supported data retention modes."
		}
		if d := failureDiagnostic(err, requestID); d != nil {
			// A fallback diagnostic recorded before the request stays first
			// but moves with the failure's (key order is the engine's).
			b.Msg.Diagnostics = appendDiagnostic(b.Msg.Diagnostics, d)
			b.Msg.DiagnosticsAfterError = true
		}
		return b.Fail(engine.StopError, msg)
	}
	e := env(p.Getenv)
	files := &sharedFiles{home: p.Home}
	tgt, err := resolveTarget(req.Model.ID, req.Model.BaseURL, e, files)
	if err != nil {
		return fail(err)
	}
	s := resolveSettings(req, e)
	// Bedrock checks strict tool schemas before it streams anything, so a
	// request whose preferred-strict tools exceed Claude's limits is sent
	// again once with those tools non-strict; the session remembers it.
	s.noPreferredStrict = strictLimitsExceeded(req.SessionID)
	var res *http.Response
	for {
		var preferredStrict bool
		res, preferredStrict, err = p.send(ctx, req, tgt, s, e, files)
		if err != nil {
			return fail(err)
		}
		if res.StatusCode >= 200 && res.StatusCode <= 299 {
			break
		}
		requestID = strings.TrimSpace(res.Header.Get("x-amzn-requestid"))
		llm.NotifyResponse(req, res)
		data, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
		res.Body.Close()
		herr := httpError(res, data)
		var ae *awsError
		if ctx.Err() != nil || s.noPreferredStrict || !preferredStrict || !errors.As(herr, &ae) ||
			ae.name != "ValidationException" || !isStrictToolLimitError(ae.message) {
			return fail(herr)
		}
		s.noPreferredStrict = true
		markStrictLimitsExceeded(req.SessionID)
		b.Msg.Diagnostics = appendDiagnostic(b.Msg.Diagnostics, llm.Object{}.Set("type", "bedrock_strict_tools_fallback").
			Set("timestamp", engine.NowMillis()).Set("error", llm.Object{}.Set("message", ae.message)).
			Set("details", llm.Object{}.Set("reason", "strict_tool_limits_exceeded")))
	}
	defer res.Body.Close()
	requestID = strings.TrimSpace(res.Header.Get("x-amzn-requestid"))
	llm.NotifyResponse(req, res)
	abortText = errAbortedStream
	if err := readStream(ctx, st, res.Body); err != nil {
		if errors.Is(err, errStreamAborted) {
			abortText = errAborted
		}
		return fail(err)
	}
	st.flushOpen()
	return b.Finish(b.Msg.StopReason)
}

// send builds the body (running the payload hook), signs and sends it.
// preferredStrict reports whether the body has tools sent strict only
// because they prefer it.
func (p *Provider) send(ctx context.Context, req *engine.LLMRequest, tgt target, s settings, e env, files *sharedFiles) (res *http.Response, preferredStrict bool, err error) {
	input, preferredStrict, err := buildInput(req, s, e)
	if err != nil {
		return nil, false, err
	}
	raw, err := input.MarshalJSON()
	if err != nil {
		return nil, false, fmt.Errorf("build request: %w", err)
	}
	if req.OnPayload != nil {
		if nb := req.OnPayload(raw); len(nb) > 0 {
			raw = nb
		}
	}
	modelID, body, err := wireBody(raw)
	if err != nil {
		return nil, false, err
	}
	if modelID == "" {
		modelID = req.Model.ID
	}
	client := p.Client
	if client == nil {
		client = llm.HTTPClient()
	}
	id := ""
	if p.InvocationID != nil {
		id = p.InvocationID()
	} else {
		id = uuid.NewString()
	}
	// Each attempt is signed anew; all carry one invocation id, as the
	// SDK's do.
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		hr, err := p.newRequest(ctx, req, tgt, modelID, body, e, files, id, attempt)
		if err != nil {
			return nil, false, err
		}
		res, err = client.Do(hr)
		if err != nil {
			if attempt < maxAttempts && ctx.Err() == nil && retryableTransport(err) {
				if werr := p.wait(ctx, backoff(retryBase, attempt)); werr == nil {
					continue
				}
			}
			return nil, preferredStrict, transportError(err)
		}
		if base, retry := retryDelay(res); retry && attempt < maxAttempts {
			res.Body.Close()
			if err := p.wait(ctx, backoff(base, attempt)); err != nil {
				return nil, false, err
			}
			continue
		}
		return res, preferredStrict, nil
	}
}

// newRequest builds the signed (or bearer-authenticated) HTTP request.
func (p *Provider) newRequest(ctx context.Context, req *engine.LLMRequest, tgt target, modelID string, body []byte, e env, files *sharedFiles, id string, attempt int) (*http.Request, error) {
	u := tgt.endpoint + "/model/" + escapeLabel(modelID) + "/converse-stream"
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	ua := llm.UserAgent()
	hr.Header["Content-Type"] = []string{"application/json"}
	hr.Header["X-Amz-User-Agent"] = []string{"pi/" + llm.Version}
	hr.Header["User-Agent"] = []string{ua}
	hr.Header["Amz-Sdk-Invocation-Id"] = []string{id}
	hr.Header["Amz-Sdk-Request"] = []string{fmt.Sprintf("attempt=%d; max=%d", attempt, maxAttempts)}
	// Caller headers go in before signing so the signature covers them;
	// the ones SigV4 or the auth scheme own are never overridden.
	for _, src := range []map[string]string{req.Model.Headers, req.Headers} {
		for k, v := range src {
			if reservedHeader(k) {
				continue
			}
			hr.Header[http.CanonicalHeaderKey(k)] = []string{v}
		}
	}
	for k := range hr.Header {
		if req.HeaderDropped(k) && !reservedHeader(k) {
			delete(hr.Header, k)
		}
	}
	if token := bearerToken(req.APIKey, e); token != "" {
		hr.Header["Authorization"] = []string{"Bearer " + token}
		return hr, nil
	}
	client := p.Client
	if client == nil {
		client = llm.HTTPClient()
	}
	creds, err := credentials(ctx, e, files, client)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(body)
	hash := hex.EncodeToString(sum[:])
	hr.Header["X-Amz-Content-Sha256"] = []string{hash}
	now := time.Now
	if p.Now != nil {
		now = p.Now
	}
	if err := sign(ctx, hr, creds, hash, tgt.region, now()); err != nil {
		return nil, err
	}
	return hr, nil
}

// sign adds the SigV4 headers (x-amz-date, x-amz-security-token,
// authorization).
func sign(ctx context.Context, hr *http.Request, creds aws.Credentials, payloadHash, region string, at time.Time) error {
	if err := v4.NewSigner().SignHTTP(ctx, creds, hr, payloadHash, signingName, region, at); err != nil {
		return fmt.Errorf("sign request: %w", err)
	}
	return nil
}

// reservedHeader reports the headers caller headers never replace: the
// ones SigV4 signs by name and the auth header.
func reservedHeader(k string) bool {
	l := strings.ToLower(k)
	return strings.HasPrefix(l, "x-amz-") || l == "authorization" || l == "host"
}

// escapeLabel percent-encodes a path label as the SDK does: everything
// but unreserved characters, so ":" and "/" in ids and ARNs are escaped.
func escapeLabel(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// httpError reads a non-2xx response as the SDK does: the exception name
// from x-amzn-errortype or the body's code or __type, the text from its
// message; a body that is not JSON is shown with the status.
func httpError(res *http.Response, body []byte) error {
	name := res.Header.Get("x-amzn-errortype")
	var doc map[string]json.RawMessage
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && json.Unmarshal(trimmed, &doc) != nil {
		text := llm.TruncateText(string(trimmed), llm.MaxErrorBodyChars)
		return &httpStatusError{status: res.StatusCode, text: fmt.Sprintf("%d: %s", res.StatusCode, text)}
	}
	str := func(k string) string {
		var s string
		_ = json.Unmarshal(doc[k], &s)
		return s
	}
	if name == "" {
		name = str("code")
	}
	if name == "" {
		name = str("__type")
	}
	if i := strings.IndexByte(name, ':'); i >= 0 {
		name = name[:i]
	}
	if i := strings.LastIndexByte(name, '#'); i >= 0 {
		name = name[i+1:]
	}
	if name == "" {
		name = "Unknown"
	}
	msg := str("message")
	if msg == "" {
		msg = str("Message")
	}
	if msg == "" {
		msg = str("errorMessage")
	}
	if msg == "" {
		msg = "UnknownError"
	}
	return &awsError{name: name, message: msg, status: res.StatusCode}
}

// httpStatusError is a response whose body could not be read as an AWS
// error document.
type httpStatusError struct {
	status int
	text   string
}

func (e *httpStatusError) Error() string { return e.text }

// failureDiagnostic is the reference's bedrock_response_failure entry:
// the HTTP status, the exception name and the request id, whichever are
// known; nil when none is.
func failureDiagnostic(err error, requestID string) llm.Object {
	details := llm.Object{}
	var ae *awsError
	var se *httpStatusError
	switch {
	case errors.As(err, &ae):
		if ae.status != 0 {
			details = details.Set("status", ae.status)
		}
		if strings.HasSuffix(ae.name, "Exception") {
			details = details.Set("errorCode", ae.name)
		}
	case errors.As(err, &se):
		details = details.Set("status", se.status)
	}
	if requestID != "" && len(requestID) <= 200 {
		details = details.Set("requestId", requestID)
	}
	if len(details) == 0 {
		return nil
	}
	return llm.Object{}.Set("type", "bedrock_response_failure").Set("timestamp", engine.NowMillis()).Set("details", details)
}

// appendDiagnostic adds one entry to a message's diagnostics array.
func appendDiagnostic(list json.RawMessage, d llm.Object) json.RawMessage {
	b, err := d.MarshalJSON()
	if err != nil {
		return list
	}
	if len(list) < 2 {
		return json.RawMessage("[" + string(b) + "]")
	}
	return json.RawMessage(string(list[:len(list)-1]) + "," + string(b) + "]")
}
