package config

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"
)

// commandTimeout bounds a "!command" value, as the reference does.
const commandTimeout = 10 * time.Second

// commandCache remembers the output of "!command" values for the life of the
// process: the reference runs each command once, and a password manager
// prompt on every request would be unbearable.
var commandCache sync.Map // string -> cachedValue

type cachedValue struct {
	value string
	ok    bool
}

// ResolveValue resolves an apiKey or header value from models.json or
// auth.json. A value starting with "!" is a shell command whose trimmed
// stdout is the value. Otherwise "$NAME" and "${NAME}" are replaced by
// environment variables ("$$" and "$!" are a literal "$" and "!"); a missing
// or empty variable leaves the whole value unresolved. ok is false when the
// value cannot be resolved or resolves to an empty command output.
func ResolveValue(v string) (string, bool) {
	if strings.HasPrefix(v, "!") {
		return runValueCommand(v)
	}
	return expandTemplate(v, os.Getenv)
}

// runValueCommand runs "!command" through sh, caching the result.
func runValueCommand(v string) (string, bool) {
	if c, ok := commandCache.Load(v); ok {
		cv := c.(cachedValue)
		return cv.value, cv.ok
	}
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", v[1:])
	cmd.Stdin = nil
	cmd.Stderr = nil
	out, err := cmd.Output()
	cv := cachedValue{}
	if err == nil {
		cv.value = strings.TrimSpace(string(out))
		cv.ok = cv.value != ""
	}
	commandCache.Store(v, cv)
	return cv.value, cv.ok
}

func isNameStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isNameChar(c byte) bool { return isNameStart(c) || (c >= '0' && c <= '9') }

func validName(s string) bool {
	if s == "" || !isNameStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isNameChar(s[i]) {
			return false
		}
	}
	return true
}

// expandTemplate interpolates environment variables the way the reference's
// config values do. Malformed references ("${", "${1x}", a lone "$") stay
// literal text.
func expandTemplate(v string, getenv func(string) string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(v); {
		d := strings.IndexByte(v[i:], '$')
		if d < 0 {
			b.WriteString(v[i:])
			break
		}
		d += i
		b.WriteString(v[i:d])
		if d+1 >= len(v) {
			b.WriteByte('$')
			break
		}
		switch next := v[d+1]; {
		case next == '$' || next == '!':
			b.WriteByte(next)
			i = d + 2
		case next == '{':
			end := strings.IndexByte(v[d+2:], '}')
			if end < 0 {
				b.WriteByte('$')
				i = d + 1
				continue
			}
			end += d + 2
			name := v[d+2 : end]
			if validName(name) {
				val := getenv(name)
				if val == "" {
					return "", false
				}
				b.WriteString(val)
			} else {
				b.WriteString(v[d : end+1])
			}
			i = end + 1
		case isNameStart(next):
			j := d + 1
			for j < len(v) && isNameChar(v[j]) {
				j++
			}
			val := getenv(v[d+1 : j])
			if val == "" {
				return "", false
			}
			b.WriteString(val)
			i = j
		default:
			b.WriteByte('$')
			i = d + 1
		}
	}
	return b.String(), true
}

// ResolveValueErr resolves v as ResolveValue does but runs a "!command"
// every time (the reference caches only apiKey commands), and when v
// cannot be resolved says why in the reference's words, what naming the
// value: `Failed to resolve <what> from environment variable: NAME`
// (or "variables: A, B"), `... from shell command: CMD`. MCP server env
// and header values are resolved so.
func ResolveValueErr(v, what string) (string, error) {
	if cmd, ok := strings.CutPrefix(v, "!"); ok {
		commandCache.Delete(v)
		if out, ok := runValueCommand(v); ok {
			return out, nil
		}
		commandCache.Delete(v)
		return "", fmt.Errorf("Failed to resolve %s from shell command: %s", what, cmd)
	}
	if out, ok := expandTemplate(v, os.Getenv); ok {
		return out, nil
	}
	var missing []string
	expandTemplate(v, func(name string) string {
		if val := os.Getenv(name); val != "" {
			return val
		}
		if !slices.Contains(missing, name) {
			missing = append(missing, name)
		}
		return "-"
	})
	switch len(missing) {
	case 0:
		return "", fmt.Errorf("Failed to resolve %s", what)
	case 1:
		return "", fmt.Errorf("Failed to resolve %s from environment variable: %s", what, missing[0])
	}
	return "", fmt.Errorf("Failed to resolve %s from environment variables: %s", what, strings.Join(missing, ", "))
}
