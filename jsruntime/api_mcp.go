package jsruntime

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/jsonx"
)

// MCPServer is a server an extension registered with
// pi.registerMcpServer: its name, its mcpServers entry (as validated) and
// the extension's path.
type MCPServer struct {
	Name          string
	Config        json.RawMessage
	ExtensionPath string
}

// MarshalJSON writes {name, config, extensionPath}, the shape
// pi.getMcpServers and mcp_servers_change give extensions.
func (s MCPServer) MarshalJSON() ([]byte, error) {
	return jsonx.NewBuilder().Set("name", s.Name).Set("config", s.Config).Set("extensionPath", s.ExtensionPath).Bytes()
}

// MCPServers are the servers this generation's extensions registered, in
// registration order.
func (a *API) MCPServers() []MCPServer {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]MCPServer(nil), a.mcpServers...)
}

// mcpNamespace is a server's tool namespace: names differing only in -
// and _ share one.
func mcpNamespace(name string) string { return strings.ReplaceAll(name, "-", "_") }

// mcpCall serves pi.registerMcpServer, unregisterMcpServer and
// getMcpServers.
func (a *API) mcpCall(name string, av []json.RawMessage) (any, bool, error) {
	switch name {
	case "registerMcpServer":
		path, server := argString(av, 0), argString(av, 1)
		var cfg json.RawMessage = json.RawMessage("null")
		if len(av) > 2 {
			cfg = av[2]
		}
		if a.opts.ValidateMCPServer == nil {
			return nil, true, fmt.Errorf("pi.registerMcpServer is not available in this build")
		}
		valid, err := a.opts.ValidateMCPServer(server, cfg)
		if err != nil {
			return nil, true, fmt.Errorf("Invalid MCP server registered by extension %q: %s", path, err.Error())
		}
		a.mu.Lock()
		for _, s := range a.mcpServers {
			if s.Name == server && s.ExtensionPath != path {
				a.mu.Unlock()
				return nil, true, fmt.Errorf("MCP server %q is already registered by extension %q", server, s.ExtensionPath)
			}
			if s.Name != server && mcpNamespace(s.Name) == mcpNamespace(server) {
				a.mu.Unlock()
				return nil, true, fmt.Errorf("MCP server %q conflicts with registered server %q", server, s.Name)
			}
		}
		entry := MCPServer{Name: server, Config: valid, ExtensionPath: path}
		replaced := false
		for i, s := range a.mcpServers {
			if s.Name == server {
				a.mcpServers[i], replaced = entry, true
			}
		}
		if !replaced {
			a.mcpServers = append(a.mcpServers, entry)
		}
		a.mu.Unlock()
		a.mcpChanged()
		return nil, true, nil
	case "unregisterMcpServer":
		path, server := argString(av, 0), argString(av, 1)
		a.mu.Lock()
		found := false
		for i, s := range a.mcpServers {
			if s.Name == server && s.ExtensionPath == path {
				a.mcpServers = append(a.mcpServers[:i:i], a.mcpServers[i+1:]...)
				found = true
				break
			}
		}
		a.mu.Unlock()
		if found {
			a.mcpChanged()
		}
		return nil, true, nil
	case "getMcpServers":
		return a.MCPServers(), true, nil
	}
	return nil, false, nil
}

// mcpChanged tells the MCP support and, once bound, the extensions
// (mcp_servers_change with every registered server) that the
// registrations changed. Registrations made while loading connect with
// the session instead.
func (a *API) mcpChanged() {
	a.mu.Lock()
	bound := a.sess != nil
	a.mu.Unlock()
	if !bound {
		return
	}
	if a.opts.MCPServersChanged != nil {
		go a.opts.MCPServersChanged(a.MCPServers())
	}
	_, _ = a.dispatch(context.Background(), "mcp_servers_change", mcpChangeEvent{servers: a.MCPServers()})
}

type mcpChangeEvent struct{ servers []MCPServer }

func (e mcpChangeEvent) MarshalJSON() ([]byte, error) {
	list := e.servers
	if list == nil {
		list = []MCPServer{}
	}
	return jsonx.NewBuilder().Set("type", "mcp_servers_change").Set("servers", list).Bytes()
}

// HostTool is a tool a built-in extension written in Go registered, as
// pi.getAllTools reports it.
type HostTool struct {
	Tool engine.Tool
	// Exposure is the tool's exposure ("direct", "deferred", "hidden").
	Exposure string
	// Namespace and Annotations are JSON objects, or nil.
	Namespace, Annotations json.RawMessage
	// Path is the extension's, such as "builtin:mcp".
	Path string
}

// hostTool is a direct host tool by name, for pi.setActiveTools.
func (a *API) hostTool(name string) engine.Tool {
	if a.opts.HostTools == nil {
		return nil
	}
	for _, h := range a.opts.HostTools() {
		if h.Tool.Info().Name == name && h.Exposure == "direct" {
			return h.Tool
		}
	}
	return nil
}

func (a *API) hostToolsForJS() []any {
	if a.opts.HostTools == nil {
		return nil
	}
	var out []any
	for _, h := range a.opts.HostTools() {
		info := h.Tool.Info()
		item := ordered{{"name", info.Name}, {"description", info.Description}, {"parameters", json.RawMessage(orEmptyObject(info.Parameters))},
			{"promptGuidelines", nil}, {"exposure", h.Exposure}}
		if h.Namespace != nil {
			item = append(item, Field{"namespace", h.Namespace})
		}
		if h.Annotations != nil {
			item = append(item, Field{"annotations", h.Annotations})
		}
		item = append(item, Field{"sourceInfo", ordered{{"path", h.Path}, {"source", "builtin"}, {"scope", "temporary"}, {"origin", "top-level"}, {"baseDir", nil}}})
		out = append(out, item)
	}
	return out
}
