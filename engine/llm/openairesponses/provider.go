package openairesponses

import (
	"context"
	"errors"
	"io"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

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

// Provider streams from an openai-responses, azure-openai-responses or
// openai-codex-responses endpoint.
type Provider struct {
	flavor flavor
	// getenv reads the Azure settings; nil means os.Getenv. Tests set it
	// so they need not touch the process environment.
	getenv func(string) string
	// now is the clock for usage-limit reset times; nil means time.Now.
	now func() time.Time
}

// New returns the openai-responses provider.
func New() engine.Provider { return &Provider{} }

// NewAzure returns the azure-openai-responses provider.
func NewAzure() engine.Provider { return &Provider{flavor: flavorAzure} }

// NewCodex returns the openai-codex-responses provider (the ChatGPT
// backend reached with a ChatGPT sign-in's access token as the API key).
func NewCodex() engine.Provider { return &Provider{flavor: flavorCodex} }

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
	if p.flavor != flavorOpenAI {
		if req.APIKey == "" {
			return b.Fail(engine.StopError, "No API key for provider: "+m.Provider)
		}
	} else if req.APIKey == "" && !hasHeader(m.Headers, "authorization") && !hasHeader(req.Headers, "authorization") &&
		!hasHeader(req.Headers, "cf-aig-authorization") && !hasHeader(m.Headers, "cf-aig-authorization") {
		return b.Fail(engine.StopError, "No API key for provider: "+m.Provider)
	}
	c := getCompat(m, p.flavor)
	var azure azureConfig
	var accountID string
	switch p.flavor {
	case flavorAzure:
		var err error
		if azure, err = resolveAzure(m.ID, m.BaseURL, p.getenv); err != nil {
			return b.Fail(engine.StopError, err.Error())
		}
	case flavorCodex:
		var err error
		if accountID, err = codexAccountID(req.APIKey); err != nil {
			return b.Fail(engine.StopError, err.Error())
		}
	}
	// The effort the input's configuration_update items carry is recorded
	// on the message, so a later request can replay it.
	b.Msg.ProviderThinkingLevel = configurationEffort(req, c)
	b.Msg.ProviderThinkingLevelFirst = true
	grammar, err := grammarTools(req.Tools, c)
	if err != nil {
		return b.Fail(engine.StopError, p.withUsageHint(err.Error()))
	}
	obj, err := buildBody(req, c, azure.Deployment, grammar)
	if err != nil {
		return b.Fail(engine.StopError, p.withUsageHint(err.Error()))
	}
	body, err := obj.MarshalJSON()
	if err != nil {
		return b.Fail(engine.StopError, "build request: "+err.Error())
	}
	if req.OnPayload != nil {
		if nb := req.OnPayload(body); len(nb) > 0 {
			body = nb
		}
	}
	if p.flavor == flavorCodex {
		return p.streamCodex(ctx, req, b, body, accountID, grammar)
	}
	var opts []option.RequestOption
	base, path := strings.TrimRight(m.BaseURL, "/")+"/", "responses"
	if p.flavor == flavorAzure {
		// Azure authenticates with an api-key header and no bearer token.
		// The query rides on the path because oahttp sends to exactly
		// the URL it is given.
		base, path = azure.BaseURL+"/", "responses?api-version="+url.QueryEscape(azure.APIVersion)
	} else {
		apiKey := req.APIKey
		if apiKey == "" {
			apiKey = "unused"
		}
		opts = append(opts, option.WithAPIKey(apiKey))
	}
	opts = append(opts, option.WithMaxRetries(0), option.WithRequestBody("application/json", body),
		option.WithHeader("User-Agent", llm.UserAgent()))
	for k, v := range m.Headers {
		opts = append(opts, option.WithHeader(k, v))
	}
	// GitHub Copilot's GPT models speak this API too and read the same
	// per-request headers as on the other two.
	for _, kv := range llm.CopilotDynamicHeaders(m, req.Messages) {
		opts = append(opts, option.WithHeader(kv[0], kv[1]))
	}
	if sid := req.CacheSessionID(); sid != "" && p.flavor == flavorOpenAI {
		if c.SessionAffinityFormat == "openrouter" {
			opts = append(opts, option.WithHeader("x-session-id", sid))
		} else {
			if c.SessionAffinityFormat == "openai" {
				opts = append(opts, option.WithHeader("session-id", sid))
			}
			opts = append(opts, option.WithHeader("x-client-request-id", sid))
		}
	}
	for k, v := range req.Headers {
		opts = append(opts, option.WithHeader(k, v))
	}
	if p.flavor == flavorAzure {
		opts = append(opts, option.WithHeader("api-key", req.APIKey))
	}
	if len(req.DropHeaders) > 0 {
		opts = append(opts, oahttp.DropHeaders(req.DropHeaders))
	}
	if ctx.Err() != nil {
		return b.Fail(engine.StopAborted, ErrAbortedRequest)
	}
	res, err := oahttp.Post(ctx, base, path, opts...)
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
			return b.Fail(engine.StopError, p.withUsageHint(formatHTTPError(m, p.flavor, res.StatusCode, data)))
		}
		return b.Fail(engine.StopError, connectionError(err))
	}
	defer res.Body.Close()
	b.Start()
	s := &stream{b: b, model: m, flavor: p.flavor, grammar: grammar, slots: map[int]*slot{}, reasoning: map[string]int{}, onEvent: req.OnStreamEvent}
	msg := s.run(ctx, ssestream.NewDecoder(res))
	if msg.StopReason == engine.StopError {
		msg.ErrorMessage = p.withUsageHint(msg.ErrorMessage)
	}
	return msg
}

// Hints the reference appends to a ChatGPT sign-in's usage-limit errors
// on the openai-responses API.
const (
	chatGPTUsageURL       = "https://chatgpt.com/settings/usage"
	chatGPTWorkspaceLimit = "You've reached your ChatGPT workspace's usage limit. Ask your workspace admin to increase it at admin.openai.com → Workspace → Usage limits."
)

func (p *Provider) withUsageHint(msg string) string {
	if p.flavor != flavorOpenAI {
		return msg
	}
	switch {
	case strings.Contains(msg, "subscription_sharing_usage_limit_exceeded"):
		return msg + "\nCheck your ChatGPT usage: " + chatGPTUsageURL
	case strings.Contains(msg, "subscription_sharing_workplace_individual_usage_limit_exceeded"):
		return msg + "\n" + chatGPTWorkspaceLimit
	}
	return msg
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
// The built-in "openai" provider is spelled "OpenAI"; Azure's prefix is
// always "Azure OpenAI".
func formatHTTPError(m *engine.Model, f flavor, status int, body []byte) string {
	name := m.Provider
	switch {
	case f == flavorAzure:
		name = "Azure OpenAI"
	case name == "openai":
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
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) {
		return errConnection + ": " + errSocketClose
	}
	return errConnection + ": " + llm.NetCause(err)
}

// streamError words a failure while reading the body.
func streamError(err error) string {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		strings.Contains(err.Error(), "unexpected EOF") || strings.Contains(err.Error(), "connection reset") {
		return ErrStreamCut
	}
	return err.Error()
}
