package llm

import (
	"net/url"
	"runtime"
	"strings"

	"github.com/pi-go/pi/engine"
)

// Version is the pi version the adapters report in their User-Agent.
var Version = "1.6.0"

// UserAgent is pi's identity header, which configured headers override:
// "pi/<version> (<os>; go/<go version>; <arch>)". The reference names its
// Node runtime in the middle slot; we name ours, and write the
// architecture in Node's terms (x64, not amd64) so that servers which
// parse the header see the values they know.
func UserAgent() string {
	arch := runtime.GOARCH
	if arch == "amd64" {
		arch = "x64"
	}
	return "pi/" + Version + " (" + runtime.GOOS + "; go/" + strings.TrimPrefix(runtime.Version(), "go") + "; " + arch + ")"
}

// IsOpenCode reports a model served by OpenCode, by provider id or host.
func IsOpenCode(m *engine.Model) bool {
	return m.Provider == "opencode" || m.Provider == "opencode-go" || hostname(m.BaseURL) == "opencode.ai"
}

func hostname(baseURL string) string {
	if u, err := url.Parse(baseURL); err == nil {
		return u.Hostname()
	}
	return ""
}

// IdentityHeaders are the headers by which pi names itself, in the
// reference's order: User-Agent, then the attribution the gateways that
// ask for one get (OpenRouter, NVIDIA NIM, OpenCode). They go below the
// model's and the request's headers, which override them.
func IdentityHeaders(m *engine.Model) [][2]string {
	h := [][2]string{{"User-Agent", UserAgent()}}
	switch {
	case m.Provider == "openrouter" || strings.Contains(m.BaseURL, "openrouter.ai"):
		h = append(h, [2]string{"HTTP-Referer", "https://pi.dev"}, [2]string{"X-OpenRouter-Title", "pi"},
			[2]string{"X-OpenRouter-Categories", "cli-agent"})
	case m.Provider == "nvidia" || hostname(m.BaseURL) == "integrate.api.nvidia.com":
		h = append(h, [2]string{"X-BILLING-INVOKE-ORIGIN", "Pi"})
	case IsOpenCode(m):
		h = append(h, [2]string{"x-opencode-client", "pi"})
	}
	return h
}
