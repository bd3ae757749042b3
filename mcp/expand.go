package mcp

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

var envRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`) })

// expandValue resolves an env or header value: "!command" runs the
// command in a shell and uses its trimmed output (the command must be the
// whole value), otherwise ${NAME} references read the environment
// (an unset variable is empty).
func expandValue(ctx context.Context, v string, env func(string) string) (string, error) {
	if cmd, ok := strings.CutPrefix(v, "!"); ok {
		out, err := exec.CommandContext(ctx, "sh", "-c", cmd).Output()
		if err != nil {
			return "", fmt.Errorf("command %q failed: %w", cmd, err)
		}
		return strings.TrimRight(string(out), "\r\n"), nil
	}
	return envRef().ReplaceAllStringFunc(v, func(m string) string {
		return env(m[2 : len(m)-1])
	}), nil
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
