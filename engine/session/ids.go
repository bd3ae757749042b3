package session

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/google/uuid"
)

// ErrInvalidSessionID is returned for a custom session id that the
// reference would reject; the text is the reference's, word for word.
var ErrInvalidSessionID = errors.New("Session id must be non-empty, contain only alphanumeric characters, '-', '_', and '.', and start and end with an alphanumeric character")

var sessionIDPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$`) })

// ValidateSessionID reports whether id may be used as a session id.
func ValidateSessionID(id string) error {
	if !sessionIDPattern().MatchString(id) {
		return ErrInvalidSessionID
	}
	return nil
}

// NewSessionID returns a time-ordered UUIDv7, the reference's session id.
func NewSessionID() string {
	id, err := uuid.NewV7()
	if err != nil {
		// NewV7 only fails when the random source does; a v4 id is still
		// unique, merely not time-ordered.
		return uuid.NewString()
	}
	return id.String()
}

// newEntryID returns the first 8 hex digits of a random UUIDv4 that is not
// yet taken, redrawing on collision like the reference; after 100 misses it
// falls back to a full UUID.
func newEntryID(taken func(string) bool) string {
	for range 100 {
		id := uuid.NewString()[:8]
		if !taken(id) {
			return id
		}
	}
	return uuid.NewString()
}

// AgentSessionsDir returns the default session directory for cwd:
// <agentDir>/sessions/--<cwd without its leading separator, with every
// '/', '\' and ':' replaced by '-'>--.
func AgentSessionsDir(agentDir, cwd string) string {
	abs := absPath(cwd)
	enc := strings.TrimPrefix(abs, "/")
	if enc == abs {
		enc = strings.TrimPrefix(abs, `\`)
	}
	enc = strings.NewReplacer("/", "-", `\`, "-", ":", "-").Replace(enc)
	return filepath.Join(absPath(agentDir), "sessions", "--"+enc+"--")
}

// FileName returns the session file name for a header timestamp and id:
// the timestamp with ':' and '.' replaced by '-', an underscore, the id.
func FileName(timestamp, id string) string {
	ts := strings.NewReplacer(":", "-", ".", "-").Replace(timestamp)
	return ts + "_" + id + ".jsonl"
}

// absPath resolves p against the process cwd, expanding a leading "~".
func absPath(p string) string {
	p = expandHome(p)
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// expandHome replaces a leading "~" with the user's home directory, as the
// reference does for PI_CODING_AGENT_SESSION_DIR.
func expandHome(p string) string {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return p
	}
	return filepath.Join(home, strings.TrimPrefix(p, "~"))
}
