// Package mcp is pi's built-in MCP support (the reference's builtin:mcp):
// the mcp.json configuration (config.go), the client side of stdio and
// streamable HTTP servers on the official Go SDK (transport.go, conn.go),
// server tools as pi tools named mcp__<server>__<tool> and the resource
// tools (tools.go, resources.go), the manager that connects every server
// of a session (manager.go), and mcp.log (log.go). The pi mcp shell
// commands are cmd/pi's; the root package wires a Manager into a session.
package mcp

// Version is what pi tells servers in initialize.
const Version = "1.6.0"

// ProtocolVersion is the MCP revision pi asks for, the reference's.
const ProtocolVersion = "2025-11-25"
