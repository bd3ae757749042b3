package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
	"github.com/pi-go/pi/engine/llm/oahttp"
	"github.com/pi-go/pi/internal/jsonx"
)

// ErrStreamCut is the reference's error text when the server closes the
// connection in the middle of a streamed response.
const ErrStreamCut = "terminated: other side closed (UND_ERR_SOCKET)"

// Provider streams from an openai-completions endpoint.
type Provider struct{}

// New returns the openai-completions provider.
func New() engine.Provider { return &Provider{} }

type chunk struct {
	ID      string          `json:"id"`
	Model   string          `json:"model"`
	Usage   json.RawMessage `json:"usage"`
	Choices []choice        `json:"choices"`
}

type choice struct {
	Delta        delta           `json:"delta"`
	FinishReason *string         `json:"finish_reason"`
	Usage        json.RawMessage `json:"usage"`
}

// delta holds the fields of a choice's delta that pi reads, kept raw
// until used: decoding into named fields instead of a map saves a map
// and its entries for every streamed chunk.
type delta struct {
	Content          json.RawMessage `json:"content"`
	ReasoningContent json.RawMessage `json:"reasoning_content"`
	Reasoning        json.RawMessage `json:"reasoning"`
	ReasoningText    json.RawMessage `json:"reasoning_text"`
	ToolCalls        json.RawMessage `json:"tool_calls"`
}

type toolCallDelta struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function *struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// Stream implements engine.Provider.
func (p *Provider) Stream(ctx context.Context, req *engine.LLMRequest, emit func(engine.AssistantEvent)) *engine.Message {
	req = req.WithHeaderHook()
	b := llm.NewBuilder(req.Model, emit)
	c := getCompat(req.Model)
	obj, err := buildBody(req, c)
	if err != nil {
		return b.Fail(engine.StopError, err.Error())
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
	opts := []option.RequestOption{
		option.WithAPIKey(req.APIKey),
		option.WithMaxRetries(0),
		option.WithRequestBody("application/json", body),
	}
	for _, kv := range requestHeaders(req, c) {
		opts = append(opts, option.WithHeader(kv[0], kv[1]))
	}
	if len(req.DropHeaders) > 0 {
		opts = append(opts, oahttp.DropHeaders(req.DropHeaders))
	}
	res, err := oahttp.Post(ctx, strings.TrimRight(req.Model.BaseURL, "/")+"/", "chat/completions", opts...)
	llm.NotifyResponse(req, res)
	if err != nil {
		if ctx.Err() != nil {
			return b.Fail(engine.StopAborted, llm.ErrAborted)
		}
		if res != nil && res.StatusCode >= 400 && res.Body != nil {
			data, _ := io.ReadAll(res.Body)
			_ = res.Body.Close()
			return b.Fail(engine.StopError, llm.FormatHTTPError(res.StatusCode, data))
		}
		return b.Fail(engine.StopError, connectionError(err))
	}
	defer res.Body.Close()
	b.Start()
	return p.read(ctx, b, req, c, ssestream.NewDecoder(res))
}

// requestHeaders are the headers on top of the SDK's, in the reference's
// order, later ones overriding earlier ones: pi's identity, the model's
// headers, GitHub Copilot's per-request ones, the session affinity
// headers of hosts that route by session, OpenCode's session, then the
// request's own.
func requestHeaders(req *engine.LLMRequest, c compat) [][2]string {
	h := llm.IdentityHeaders(req.Model)
	for k, v := range req.Model.Headers {
		h = append(h, [2]string{k, v})
	}
	h = append(h, llm.CopilotDynamicHeaders(req.Model, req.Messages)...)
	// A request without caching (a summary) goes without a session.
	sid := req.CacheSessionID()
	if id := sid; id != "" && c.SendSessionAffinityHeaders {
		if c.SessionAffinityFormat == "openrouter" {
			h = append(h, [2]string{"x-session-id", id})
		} else {
			if c.SessionAffinityFormat == "openai" {
				h = append(h, [2]string{"session_id", id})
			}
			h = append(h, [2]string{"x-client-request-id", id}, [2]string{"x-session-affinity", id})
		}
	}
	if sid != "" && llm.IsOpenCode(req.Model) {
		h = append(h, [2]string{"x-opencode-session", sid})
	}
	for k, v := range req.Headers {
		h = append(h, [2]string{k, v})
	}
	return h
}

// connectionError words a transport failure like the OpenAI SDK does:
// "Connection error." plus the underlying reason in Node's words.
func connectionError(err error) string {
	if errors.Is(err, llm.ErrHeadersTimeout) {
		// The SDK's own request timeout, which the reference sets to the
		// idle timeout, words the abort this way.
		return "Request timed out.: This operation was aborted (20)"
	}
	return "Connection error.: " + llm.NetCause(err)
}

func (p *Provider) read(ctx context.Context, b *llm.Builder, req *engine.LLMRequest, c compat, dec ssestream.Decoder) *engine.Message {
	tools := map[int]int{} // stream index -> content index
	toolsByID := map[string]int{}
	finished := false
	for dec.Next() {
		ev := dec.Event()
		data := bytes.TrimSpace(ev.Data)
		if len(data) == 0 {
			continue
		}
		if string(data) == "[DONE]" {
			break
		}
		// An error chunk ends the turn before it is seen as a chunk, as
		// the SDK throws before yielding it; the reference's catch marks
		// it aborted instead when the request was cancelled meanwhile.
		var ch chunk
		var msg string
		var isErr, decoded bool
		if topErr := json.RawMessage(nil); scanChunk(ev.Data, &ch, &topErr) {
			msg, isErr = errorMessage(ev.Type, ev.Data, topErr)
			decoded = true
		} else {
			msg, isErr = chunkError(ev.Type, ev.Data)
		}
		if isErr {
			if ctx.Err() != nil {
				return b.Fail(engine.StopAborted, msg)
			}
			return b.Fail(engine.StopError, msg)
		}
		if !decoded {
			ch = chunk{}
			if json.Unmarshal(ev.Data, &ch) != nil {
				continue
			}
		}
		if req.OnStreamEvent != nil {
			req.OnStreamEvent(ev.Data)
		}
		if b.Msg.ResponseID == "" {
			b.Msg.ResponseID = ch.ID
		}
		if ch.Model != "" && ch.Model != req.Model.ID && b.Msg.ResponseModel == "" {
			b.Msg.ResponseModel = ch.Model
		}
		if hasValue(ch.Usage) {
			b.SetUsage(parseUsage(ch.Usage))
		}
		if len(ch.Choices) == 0 {
			continue
		}
		choice := ch.Choices[0]
		if !hasValue(ch.Usage) && hasValue(choice.Usage) {
			b.SetUsage(parseUsage(choice.Usage))
		}
		if choice.FinishReason != nil && *choice.FinishReason != "" {
			b.Msg.RawStopReason = *choice.FinishReason
			reason, msg := mapStopReason(*choice.FinishReason)
			b.Msg.StopReason = reason
			if msg != "" {
				b.Msg.ErrorMessage = msg
			}
			finished = true
		}
		d := &choice.Delta
		for _, f := range [...]struct {
			name string
			raw  json.RawMessage
		}{{"reasoning_content", d.ReasoningContent}, {"reasoning", d.Reasoning}, {"reasoning_text", d.ReasoningText}} {
			if s := stringValue(f.raw); s != "" {
				b.Thinking(f.name, s)
				break
			}
		}
		if s := stringValue(d.Content); s != "" {
			b.Text(s)
		}
		if raw := d.ToolCalls; raw != nil {
			var calls []toolCallDelta
			_ = json.Unmarshal(raw, &calls)
			for _, tc := range calls {
				name, args := "", ""
				if tc.Function != nil {
					name, args = tc.Function.Name, tc.Function.Arguments
				}
				idx, found := -1, false
				if tc.Index != nil {
					idx, found = tools[*tc.Index]
				}
				if !found && tc.ID != "" {
					idx, found = toolsByID[tc.ID]
				}
				if !found {
					idx = b.StartToolCall(tc.ID, name)
					if tc.Index != nil {
						tools[*tc.Index] = idx
					}
				}
				if tc.ID != "" {
					toolsByID[tc.ID] = idx
				}
				b.SetToolCallIdentity(idx, tc.ID, name)
				b.AppendToolArgs(idx, args)
			}
		}
	}
	if ctx.Err() != nil {
		b.EndAll()
		return b.Fail(engine.StopAborted, llm.ErrAborted)
	}
	if err := dec.Err(); err != nil {
		return b.Fail(engine.StopError, streamError(err))
	}
	b.EndAll()
	if !finished && !c.SupportsFinishReason {
		if b.HasToolCalls() {
			b.Msg.StopReason = engine.StopToolUse
		} else {
			b.Msg.StopReason = engine.StopStop
		}
		finished = true
	}
	if b.Msg.StopReason == engine.StopError {
		msg := b.Msg.ErrorMessage
		if msg == "" {
			msg = llm.ErrProviderStopErr
		}
		return b.Fail(engine.StopError, msg)
	}
	if !finished || b.Msg.StopReason == engine.StopPending {
		return b.Fail(engine.StopError, llm.ErrNoFinishReason)
	}
	return b.Finish(b.Msg.StopReason)
}

// chunkError reports whether an SSE event is an error the provider sent
// mid-stream, and its message. The OpenAI SDK the reference uses throws on
// an "error" event (its payload's error field, else the payload) and on
// any chunk with a truthy top-level error; the message is the error's
// message, else the error as JSON, and a metadata.raw detail (OpenRouter)
// goes on a line of its own.
func chunkError(event string, data []byte) (string, bool) {
	var top struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(data, &top) != nil && event != "error" {
		return "", false
	}
	return errorMessage(event, data, top.Error)
}

// errorMessage is chunkError once the chunk's top-level "error" member
// (payload, nil when absent) has been read.
func errorMessage(event string, data []byte, payload json.RawMessage) (string, bool) {
	switch {
	case event == "error":
		if !hasValue(payload) {
			payload = data
		}
	case !truthy(payload):
		return "", false
	}
	var e struct {
		Message  json.RawMessage `json:"message"`
		Metadata struct {
			Raw json.RawMessage `json:"raw"`
		} `json:"metadata"`
	}
	_ = json.Unmarshal(payload, &e)
	var msg string
	switch {
	case truthy(e.Message):
		if s, ok := jsonString(e.Message); ok {
			msg = s
		} else {
			msg = stringify(e.Message)
		}
	case truthy(payload):
		msg = stringify(payload)
	default:
		msg = "(no status code or body)"
	}
	if raw := e.Metadata.Raw; truthy(raw) {
		detail, ok := jsonString(raw)
		if !ok {
			detail = stringify(raw)
		}
		if !strings.Contains(msg, detail) {
			msg += "\n" + detail
		}
	}
	return msg, true
}

// jsonString is r's value when r is a JSON string.
func jsonString(r json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(r, &s) != nil {
		return "", false
	}
	return s, true
}

// stringify re-serialises a JSON value the way JSON.stringify prints what
// JSON.parse read: compact, keys in their order.
func stringify(r json.RawMessage) string {
	v, err := jsonx.Decode(r)
	if err != nil {
		return string(r)
	}
	b, err := jsonx.Marshal(v)
	if err != nil {
		return string(r)
	}
	return string(b)
}

// streamError words a failure while reading the stream. For a connection
// cut mid-body the reference (Node's fetch) reports the text below,
// observed against the mock's disconnect_after_chunks; the retry logic
// matches "terminated".
func streamError(err error) string {
	if errors.Is(err, llm.ErrBodyTimeout) {
		return "terminated: " + llm.ErrBodyTimeout.Error()
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(err.Error(), "unexpected EOF") ||
		strings.Contains(err.Error(), "connection reset") {
		return ErrStreamCut
	}
	return err.Error()
}

func hasValue(r json.RawMessage) bool { return len(r) > 0 && string(r) != "null" }

// stringValue returns the JSON string raw holds, or "" for anything else.
// A string without escapes, the usual streamed delta, is sliced out
// directly; raw was validated when its chunk was decoded.
func stringValue(raw json.RawMessage) string {
	// An absent field (most of a delta's) or null is no string; asking
	// encoding/json to say so cost an error value per field per chunk.
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if n := len(raw); n >= 2 && raw[0] == '"' && raw[n-1] == '"' &&
		bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw[1 : n-1])
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

func mapStopReason(r string) (engine.StopReason, string) {
	switch r {
	case "stop", "end":
		return engine.StopStop, ""
	case "length":
		return engine.StopLength, ""
	case "tool_calls", "function_call":
		return engine.StopToolUse, ""
	}
	return engine.StopError, "Provider finish_reason: " + r
}

// parseUsage maps OpenAI usage to ours: cached prompt tokens are cache
// reads and are not counted as input; reasoning tokens are part of output.
func parseUsage(raw json.RawMessage) engine.Usage {
	var u struct {
		PromptTokens        int `json:"prompt_tokens"`
		CompletionTokens    int `json:"completion_tokens"`
		PromptCacheHit      int `json:"prompt_cache_hit_tokens"`
		CachedTokens        int `json:"cached_tokens"`
		CacheWriteTokens    int `json:"cache_write_tokens"`
		ReasoningTokens     int `json:"reasoning_tokens"`
		PromptTokensDetails *struct {
			CachedTokens     int `json:"cached_tokens"`
			CacheWriteTokens int `json:"cache_write_tokens"`
		} `json:"prompt_tokens_details"`
		CompletionTokensDetails *struct {
			ReasoningTokens int `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
	}
	_ = json.Unmarshal(raw, &u)
	cacheRead := u.CachedTokens
	cacheWrite := u.CacheWriteTokens
	if u.PromptTokensDetails != nil {
		if u.PromptTokensDetails.CachedTokens > 0 {
			cacheRead = u.PromptTokensDetails.CachedTokens
		}
		if u.PromptTokensDetails.CacheWriteTokens > 0 {
			cacheWrite = u.PromptTokensDetails.CacheWriteTokens
		}
	}
	if cacheRead == 0 {
		cacheRead = u.PromptCacheHit
	}
	input := max(0, u.PromptTokens-cacheRead-cacheWrite)
	reasoning := u.ReasoningTokens
	if u.CompletionTokensDetails != nil && u.CompletionTokensDetails.ReasoningTokens > 0 {
		reasoning = u.CompletionTokensDetails.ReasoningTokens
	}
	return engine.Usage{
		Input: input, Output: u.CompletionTokens, CacheRead: cacheRead, CacheWrite: cacheWrite,
		Reasoning: &reasoning, TotalTokens: input + u.CompletionTokens + cacheRead + cacheWrite,
	}
}
