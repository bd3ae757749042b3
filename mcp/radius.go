package mcp

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/internal/jsonx"
)

// RadiusMCPURL is the MCP endpoint of the gateway the built-in Radius
// provider signs in to (the default gateway, as the reference has it).
var RadiusMCPURL = strings.TrimRight(config.RadiusDefaultGateway, "/") + "/mcp"

// RadiusPlan is the global mcp.json entry that makes the Radius MCP
// server use a provider's login.
type RadiusPlan struct {
	Path, Name string
	Config     jsonx.Object
}

// PlanRadiusServer is the entry to write after signing in to provider:
// the global server at the Radius MCP URL, given "auth": {"provider"}
// (its "oauth" dropped: the login replaces the MCP sign-in), or a new
// "radius" server (or "radius-mcp", "radius-mcp-2", … when the name is
// taken). ok is false when a global server already uses that login.
func PlanRadiusServer(provider, agentDir, cwd string) (plan RadiusPlan, ok bool) {
	trim := func(u string) string { return strings.TrimRight(u, "/") }
	cfg := Load(agentDir, cwd, false)
	var existing *Server
	for _, s := range cfg.Servers {
		if s.IsHTTP() && trim(s.URL) == trim(RadiusMCPURL) {
			existing = s
			break
		}
	}
	auth := jsonx.Object{}.Set("provider", provider)
	if existing != nil {
		if existing.AuthProvider() == provider {
			return RadiusPlan{}, false
		}
		c := slices.Clone(existing.Config).Put("auth", auth).Delete("oauth")
		return RadiusPlan{Path: GlobalPath(agentDir), Name: existing.Name, Config: c}, true
	}
	taken := map[string]bool{}
	for _, s := range cfg.Servers {
		taken[Namespace(s.Name)] = true
	}
	name := "radius"
	for suffix := 1; taken[Namespace(name)]; suffix++ {
		name = "radius-mcp"
		if suffix > 1 {
			name = fmt.Sprintf("radius-mcp-%d", suffix)
		}
	}
	return RadiusPlan{Path: GlobalPath(agentDir), Name: name, Config: jsonx.Object{}.Set("url", RadiusMCPURL).Set("auth", auth)}, true
}

// ConfigureRadiusServer writes the plan of PlanRadiusServer and returns
// what pi auth login prints ("" when nothing changed), or the error
// line for stderr.
func ConfigureRadiusServer(provider, providerName, agentDir, cwd string) (message string, err error) {
	plan, ok := PlanRadiusServer(provider, agentDir, cwd)
	if !ok {
		return "", nil
	}
	replaced, err := AddServer(plan.Path, plan.Name, plan.Config)
	if err != nil {
		return "", fmt.Errorf("Could not update %s: %w", plan.Path, err)
	}
	verb := "Added"
	if replaced {
		verb = "Updated"
	}
	return fmt.Sprintf("%s MCP server %q in %s to use the %s login.", verb, plan.Name, plan.Path, providerName), nil
}

// ProviderTokenReader reads pi providers' credentials from an agent
// directory's auth.json (refreshing expiring OAuth logins, as a session
// does), for pi mcp commands run outside a session. The registry loads
// on the first request, so servers without "auth" never load it.
func ProviderTokenReader(agentDir string) func(ctx context.Context, provider string) string {
	var reg *config.Registry
	return func(ctx context.Context, provider string) string {
		if reg == nil {
			reg, _ = config.LoadModels(agentDir)
			reg.EnableBuiltinOAuth()
		}
		return RegistryToken(ctx, reg, provider)
	}
}

// RegistryToken is a provider's request key: its OAuth login's key
// (refreshed when it expires soon), else its API key; "" when it has
// neither, and the server's 401 then says a sign-in is needed.
func RegistryToken(ctx context.Context, reg *config.Registry, provider string) string {
	if reg == nil {
		return ""
	}
	if key, ok, err := reg.ResolveOAuthKey(ctx, provider); ok {
		if err != nil {
			return ""
		}
		return key
	}
	key, _ := reg.APIKey(provider)
	return key
}
