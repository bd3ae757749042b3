package jsruntime

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

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
