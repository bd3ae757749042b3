package pi

import (
	"fmt"
	"os"
	"time"

	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/engine/llm"
)

// applyHTTPProxy applies the global httpProxy setting as the reference
// does: it becomes HTTP_PROXY and HTTPS_PROXY unless the environment
// already sets them. Every provider's HTTP client goes through Go's
// default transport, whose proxy comes from those variables (read at the
// first request, which is after this).
func applyHTTPProxy(s *config.Settings) {
	p := s.HTTPProxy()
	if p == "" {
		return
	}
	for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY"} {
		if _, set := os.LookupEnv(k); !set {
			_ = os.Setenv(k, p)
		}
	}
}

// applyHTTPIdleTimeout gives every provider request the httpIdleTimeoutMs
// setting as its headers and body idle timeout, as the reference
// configures its HTTP dispatcher at start; 0 disables it. An invalid
// value keeps the default (the settings loader has warned about it).
func applyHTTPIdleTimeout(s *config.Settings) {
	n, _ := s.HTTPIdleTimeoutMs()
	llm.SetHTTPIdleTimeout(time.Duration(n) * time.Millisecond)
}

// unbuiltSettingWarnings names the settings this build reads but does
// not apply yet, when one is set to something other than its default,
// so that a configuration is never silently ignored.
func unbuiltSettingWarnings(s *config.Settings) []string {
	var out []string
	for _, k := range []string{"retry.provider.timeoutMs", "retry.provider.maxRetries", "retry.provider.maxRetryDelayMs"} {
		if s.Raw(k) != nil {
			out = append(out, "setting "+k+" is not applied in this build: provider requests are not retried at the HTTP level")
		}
	}
	if t := s.Transport(); t != config.DefaultTransport && t != "sse" {
		out = append(out, fmt.Sprintf("setting transport %q is not applied in this build: providers stream over SSE", t))
	}
	return out
}
