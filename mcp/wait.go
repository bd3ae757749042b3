package mcp

import (
	"context"
	"strings"
	"sync"
)

// WaitForCode waits, as the reference does, for the servers a call that
// reaches tools indirectly needs while they are still connecting at
// startup: a codemode script waits for the servers it names
// (mcp__<server>), a script that calls searchTools() or reads ALL_TOOLS
// and a tool_search call (code "") wait for all of them. Each wait is
// bounded by StartupWait; servers that connected or failed already cost
// nothing.
func (m *Manager) WaitForCode(ctx context.Context, code string) {
	if code == "" || strings.Contains(code, "searchTools") || strings.Contains(code, "ALL_TOOLS") {
		m.WaitStarted(ctx)
		return
	}
	if !strings.Contains(code, "mcp__") {
		return
	}
	m.mu.Lock()
	started := m.started
	conns := append([]*Conn(nil), m.conns...)
	m.mu.Unlock()
	if !started {
		return
	}
	select {
	case <-m.done:
		// Every startup attempt has ended: nothing is connecting.
		return
	default:
	}
	ctx, cancel := context.WithTimeout(ctx, StartupWait)
	defer cancel()
	var wg sync.WaitGroup
	for _, c := range conns {
		if !c.Server.Enabled || !namesServer(code, c.Server.Name) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = c.Session(ctx)
		}()
	}
	wg.Wait()
}

// namesServer reports whether a word of code contains the server's
// namespace (mcp__<server>, with "-" as "_" or as configured): the
// reference's reachesTools takes a script's words, and a word reaches
// every namespace whose name it contains.
func namesServer(code, server string) bool {
	words := strings.FieldsFunc(code, func(r rune) bool { return r >= 0x80 || !isIdentByte(byte(r)) && r != '-' })
	for _, w := range words {
		if strings.Contains(w, Namespace(server)) || strings.Contains(w, "mcp__"+server) {
			return true
		}
	}
	return false
}

func isIdentByte(b byte) bool {
	return b == '_' || b == '$' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}
