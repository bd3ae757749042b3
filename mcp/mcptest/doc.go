// Package mcptest holds MCP servers for tests: an OAuth-protected
// streamable HTTP server and its authorization server, both on local
// httptest listeners.
package mcptest
