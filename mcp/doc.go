// Package mcp is pi's built-in MCP support (the reference's builtin:mcp):
// the mcp.json configuration (config.go), the client side of stdio and
// streamable HTTP servers on the official Go SDK (transport.go, conn.go),
// server tools as pi tools named mcp__<server>__<tool> and the resource
// tools (tools.go, resources.go), the manager that connects every server
// of a session (manager.go), mcp.log (log.go), and OAuth: the settings
// (oauth_config.go), mcp-auth.json (oauth_store.go), discovery, client
// registration and token requests (oauth_flow.go, oauth_client.go), the
// sign-in with its loopback callback (oauth_signin.go), and the bearer
// token and refresh of each HTTP request (oauth_transport.go); servers
// whose "auth" names a pi provider, the Radius MCP server among them, use
// that provider's login (radius.go). The pi mcp shell commands are
// cli.go's (cmd/pi dispatches to them); the root package wires a Manager
// into a session.
package mcp

// Version is what pi tells servers in initialize.
const Version = "1.6.0"

// ProtocolVersion is the MCP revision pi asks for, the reference's.
const ProtocolVersion = "2025-11-25"
