package mcp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// maxLogBytes is the size past which mcp.log moves to mcp.log.1.
const maxLogBytes = 5 << 20

// Log appends servers' logging notifications to mcp.log as
// "<time> [<server>] <level> <logger>: <message>" (the logger part
// only when the server names one).
type Log struct {
	mu   sync.Mutex
	path string
}

// NewLog is the log at <agentDir>/mcp.log.
func NewLog(agentDir string) *Log { return &Log{path: filepath.Join(agentDir, "mcp.log")} }

// Write appends one notification; a log that cannot be written is
// dropped, since a server's logging must never fail a session.
func (l *Log) Write(server, level, logger string, data any) {
	msg, ok := data.(string)
	if !ok {
		b, _ := json.Marshal(data)
		msg = string(b)
	}
	if level == "" {
		level = "info"
	}
	if logger != "" {
		logger = " " + logger + ":"
	}
	msg = strings.ReplaceAll(strings.ReplaceAll(msg, "\r\n", "\n"), "\n", "\n    ")
	line := fmt.Sprintf("%s [%s] %s%s %s\n", time.Now().UTC().Format("2006-01-02T15:04:05.000Z"), server, level, logger, msg)
	l.mu.Lock()
	defer l.mu.Unlock()
	if fi, err := os.Stat(l.path); err == nil && fi.Size() > maxLogBytes {
		_ = os.Rename(l.path, l.path+".1")
	}
	f, err := os.OpenFile(l.path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	_, _ = f.WriteString(line)
	_ = f.Close()
}
