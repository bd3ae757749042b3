package oahttp

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/webhooks"

	"github.com/pi-go/pi/engine/llm"
)

// responseHeaderTimeout bounds the wait for response headers, as openai-go's
// own default client does; it never limits a long stream's body.
const responseHeaderTimeout = 10 * time.Minute

// client is shared by every request so that connections are reused, as one
// openai-go client per process would reuse them.
var client = sync.OnceValue(func() *http.Client {
	if t, ok := http.DefaultTransport.(*http.Transport); ok {
		t = t.Clone()
		t.ResponseHeaderTimeout = responseHeaderTimeout
		return &http.Client{Transport: llm.IdleTransport(t)}
	}
	return &http.Client{Transport: llm.IdleTransport(http.DefaultTransport)}
})

// envOptions returns the options openai-go's NewClient reads from the
// environment and that still matter once pi has set the base URL and key.
func envOptions() []option.RequestOption {
	var opts []option.RequestOption
	if v, ok := os.LookupEnv("OPENAI_ORG_ID"); ok {
		opts = append(opts, option.WithOrganization(v))
	}
	if v, ok := os.LookupEnv("OPENAI_PROJECT_ID"); ok {
		opts = append(opts, option.WithProject(v))
	}
	if v, ok := os.LookupEnv("OPENAI_CUSTOM_HEADERS"); ok {
		for _, line := range strings.Split(v, "\n") {
			if k, val, found := strings.Cut(line, ":"); found {
				opts = append(opts, option.WithHeader(strings.TrimSpace(k), strings.TrimSpace(val)))
			}
		}
	}
	return opts
}

// Post sends a POST to baseURL joined with path (baseURL ends in "/") with
// the given options, which carry the body, key and headers, and returns the
// HTTP response. On an HTTP error status both the response (its body still
// readable) and an error are returned, as openai-go's Client.Post does.
//
// openai-go exposes its generic request executor only on the root package's
// Client, so the request goes out through the light webhooks service, whose
// POST runs the same executor; a middleware then points it at path. The
// middleware runs inside the executor, after the origin check, and keeps the
// base URL's scheme and host, so retries, headers and errors are unchanged.
func Post(ctx context.Context, baseURL, path string, opts ...option.RequestOption) (*http.Response, error) {
	target, err := url.Parse(baseURL + path)
	if err != nil {
		return nil, err
	}
	var res *http.Response
	all := append([]option.RequestOption{option.WithHTTPClient(client())}, envOptions()...)
	all = append(all, option.WithBaseURL(baseURL))
	all = append(all, opts...)
	all = append(all,
		// The body target is the response itself, so the executor hands
		// the stream over unread instead of decoding a webhook from it.
		option.WithResponseBodyInto(&res),
		option.WithMiddleware(func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
			u := *target
			req.URL = &u
			req.Host = ""
			return next(req)
		}))
	svc := webhooks.NewWebhookService()
	_, err = svc.New(ctx, webhooks.WebhookNewParams{}, all...)
	return res, err
}

// DropHeaders removes the named headers from the outgoing request once
// everything else has set its headers (openai-go's own defaults, the
// key, extra headers), as an extension's before_provider_headers handler
// that sets a header to null removes it whoever added it.
func DropHeaders(names []string) option.RequestOption {
	return option.WithMiddleware(func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		for _, n := range names {
			req.Header.Del(n)
		}
		return next(req)
	})
}
