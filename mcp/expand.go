package mcp

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/pi-go/pi/engine/config"
)

// expandValue resolves an env or header value of a server as the
// reference does: "!command" (the whole value) runs in a shell and gives
// its trimmed output, ${NAME} and $NAME read the environment, and an
// unset or empty variable or a failed command is an error naming what.
func expandValue(v, what string) (string, error) {
	return config.ResolveValueErr(v, what)
}

// expandHome replaces a leading ~/ with the home directory, as the
// reference does for command, arguments and cwd.
func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}
