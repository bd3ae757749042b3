package llm

import (
	"net/http"
	"strings"

	"github.com/pi-go/pi/engine"
)

// NotifyResponse reports an HTTP response's status and headers to the
// request's OnResponse hook, if any. Providers call it once per request,
// right after the response arrives and before reading its body, for error
// statuses too, as the reference's after_provider_response fires then.
func NotifyResponse(req *engine.LLMRequest, res *http.Response) {
	if req == nil || req.OnResponse == nil || res == nil {
		return
	}
	headers := make(map[string]string, len(res.Header))
	for k, v := range res.Header {
		headers[strings.ToLower(k)] = strings.Join(v, ", ")
	}
	// Go's client moves Transfer-Encoding out of the header map into
	// TransferEncoding; the reference's fetch lists it with the others.
	if len(res.TransferEncoding) > 0 {
		if _, ok := headers["transfer-encoding"]; !ok {
			headers["transfer-encoding"] = strings.Join(res.TransferEncoding, ", ")
		}
	}
	req.OnResponse(res.StatusCode, headers)
}
