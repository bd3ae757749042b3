package openairesponses

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"regexp"
	"strings"
	"time"
)

// defaultCodexBaseURL is the ChatGPT backend the reference falls back to
// when the model has no baseUrl.
const defaultCodexBaseURL = "https://chatgpt.com/backend-api"

// codexJWTClaim is the access token claim that holds the ChatGPT account.
const codexJWTClaim = "https://api.openai.com/auth"

// Error texts of the Codex adapter.
const (
	errCodexAccountID   = "Failed to extract accountId from token"
	errCodexNoStop      = "Codex stream ended without a stop reason"
	errCodexFailed      = "Codex response failed"
	errCodexRequestFail = "Request failed"
)

// codexURL is the SSE endpoint under a base URL: ".../codex/responses",
// accepting bases that already end in /codex or /codex/responses.
func codexURL(base string) string {
	if strings.TrimSpace(base) == "" {
		base = defaultCodexBaseURL
	}
	base = strings.TrimRight(base, "/")
	switch {
	case strings.HasSuffix(base, "/codex/responses"):
		return base
	case strings.HasSuffix(base, "/codex"):
		return base + "/responses"
	}
	return base + "/codex/responses"
}

// codexAccountID reads chatgpt_account_id from the access token's JWT
// payload, as the reference does instead of keeping it with the
// credential.
func codexAccountID(token string) (string, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return "", errors.New(errCodexAccountID)
	}
	// atob accepts padded and unpadded standard base64; JWTs use the URL
	// alphabet, which atob rejects, so only the standard one is tried.
	payload, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return "", errors.New(errCodexAccountID)
	}
	var claims map[string]json.RawMessage
	if json.Unmarshal(payload, &claims) != nil {
		return "", errors.New(errCodexAccountID)
	}
	var auth struct {
		AccountID any `json:"chatgpt_account_id"`
	}
	if raw, ok := claims[codexJWTClaim]; !ok || json.Unmarshal(raw, &auth) != nil {
		return "", errors.New(errCodexAccountID)
	}
	switch v := auth.AccountID.(type) {
	case string:
		if v != "" {
			return v, nil
		}
	case float64:
		if v != 0 {
			return jsNumber(v), nil
		}
	case bool:
		if v {
			return "true", nil
		}
	}
	return "", errors.New(errCodexAccountID)
}

func jsNumber(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e21 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprint(v)
}

// codexUsageLimitCode matches the error codes the reference words as a
// ChatGPT usage limit.
var codexUsageLimitCode = regexp.MustCompile(`(?i)usage_limit_reached|usage_not_included|rate_limit_exceeded`)

// codexHTTPError words a non-2xx response as the reference does: a usage
// limit (or any 429 with an error object) becomes "You have hit your
// ChatGPT usage limit (<plan> plan). Try again in ~N min.", otherwise
// the error's message, the raw body, the status text or "Request failed".
func codexHTTPError(status int, statusText string, body []byte, now time.Time) string {
	msg := string(body)
	if msg == "" {
		msg = statusText
	}
	if msg == "" {
		msg = errCodexRequestFail
	}
	var parsed struct {
		Error *struct {
			Code     any      `json:"code"`
			Type     any      `json:"type"`
			Message  any      `json:"message"`
			PlanType any      `json:"plan_type"`
			ResetsAt *float64 `json:"resets_at"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &parsed) != nil || parsed.Error == nil {
		return msg
	}
	e := parsed.Error
	code := jsOr(e.Code, e.Type)
	friendly := ""
	if codexUsageLimitCode.MatchString(code) || status == http.StatusTooManyRequests {
		plan := ""
		if p, ok := e.PlanType.(string); ok && p != "" {
			plan = " (" + strings.ToLower(p) + " plan)"
		}
		when := ""
		if e.ResetsAt != nil && *e.ResetsAt != 0 {
			mins := math.Max(0, math.Floor((*e.ResetsAt*1000-float64(now.UnixMilli()))/60000+0.5))
			when = fmt.Sprintf(" Try again in ~%.0f min.", mins)
		}
		friendly = strings.TrimSpace("You have hit your ChatGPT usage limit" + plan + "." + when)
	}
	if friendly != "" {
		return friendly
	}
	if m := jsOr(e.Message, nil); m != "" {
		return m
	}
	return msg
}

// jsOr is `a || b || ""` over decoded JSON values, as text.
func jsOr(a, b any) string {
	for _, v := range []any{a, b} {
		switch x := v.(type) {
		case string:
			if x != "" {
				return x
			}
		case float64:
			if x != 0 {
				return jsNumber(x)
			}
		case bool:
			if x {
				return "true"
			}
		case map[string]any, []any:
			bs, _ := json.Marshal(x)
			return string(bs)
		}
	}
	return ""
}

// codexEventError is the message of a Codex "error" event: its message or
// code (top level first, then under "error"), or the event's JSON.
func codexEventError(data []byte) string {
	var ev struct {
		Code    any             `json:"code"`
		Message any             `json:"message"`
		Error   json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(data, &ev)
	var nested struct {
		Code    any `json:"code"`
		Message any `json:"message"`
	}
	_ = json.Unmarshal(ev.Error, &nested)
	str := func(v any) string { s, _ := v.(string); return s }
	code, msg := str(ev.Code), str(ev.Message)
	if code == "" {
		code = str(nested.Code)
	}
	if msg == "" {
		msg = str(nested.Message)
	}
	switch {
	case msg != "":
		return "Codex error: " + msg
	case code != "":
		return "Codex error: " + code
	}
	return "Codex error: " + compactJSON(data)
}

// codexFailedError is the message of a Codex response.failed event.
func codexFailedError(r *response) string {
	if r != nil && r.Error != nil && r.Error.Message != "" {
		return r.Error.Message
	}
	return errCodexFailed
}

// codexStatuses are the response statuses the reference passes through;
// any other status is dropped, which reads as a normal stop.
var codexStatuses = map[string]bool{"completed": true, "incomplete": true, "failed": true, "cancelled": true,
	"queued": true, "in_progress": true}
