package authcmd

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// kind is one of the credential commands.
type kind int

const (
	kindCheck kind = iota
	kindAPIKey
	kindBearer
)

func (k kind) name() string {
	switch k {
	case kindCheck:
		return "auth check"
	case kindAPIKey:
		return "auth print-api-key"
	}
	return "auth print-bearer-token"
}

// usage is the command line the reference suggests after an unknown option.
func (k kind) usage() string {
	switch k {
	case kindCheck:
		return "pi auth check --provider <provider> [--json] [--credentials] [--no-refresh]"
	case kindAPIKey:
		return "pi auth print-api-key --provider <provider> [--model <model>]"
	}
	return "pi auth print-bearer-token --provider <provider> [--model <model>] [--min-expiry <duration>]"
}

// request is a parsed credential command.
type request struct {
	kind                         kind
	provider, model              string
	json, credentials, noRefresh bool
	minExpiry                    time.Duration
	hasMinExpiry                 bool
	// unknown is the first option neither the command nor pi knows;
	// extra is set by anything else that is not --provider or --model.
	unknown string
	extra   bool
}

// cmdError is a message the reference prints as "Error: <msg>".
type cmdError struct{ msg string }

func (e *cmdError) Error() string { return e.msg }

func fail(msg string) error { return &cmdError{msg} }

var durationPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(\d+)(ms|s|m|h)$`) })

// valueFlags are pi's options that take a value: as on pi's own command
// line, a missing value makes them unknown options.
var valueFlags = map[string]bool{"--provider": true, "--model": true, "--api-key": true}

func parseRequest(args []string) (*request, error) {
	r := &request{}
	switch args[0] {
	case "check":
		r.kind = kindCheck
	case "print-api-key":
		r.kind = kindAPIKey
	case "print-bearer-token":
		r.kind = kindBearer
	default:
		return nil, fail(`Unknown auth command "` + args[0] + `". Use "pi auth login", "pi auth logout", "pi auth print-api-key", "pi auth print-bearer-token", or "pi auth check".`)
	}
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch a {
		case "--min-expiry":
			if r.kind != kindBearer {
				return nil, fail("--min-expiry is only supported by print-bearer-token")
			}
			i++
			v := ""
			if i < len(rest) {
				v = rest[i]
			}
			m := durationPattern().FindStringSubmatch(v)
			if m == nil {
				return nil, fail("--min-expiry must use a duration such as 30m or 1h")
			}
			n, err := strconv.ParseInt(m[1], 10, 64)
			if err != nil {
				return nil, fail("--min-expiry must use a duration such as 30m or 1h")
			}
			unit := map[string]time.Duration{"ms": time.Millisecond, "s": time.Second, "m": time.Minute, "h": time.Hour}[strings.ToLower(m[2])]
			r.minExpiry, r.hasMinExpiry = time.Duration(n)*unit, true
			continue
		case "--json", "--credentials", "--no-refresh":
			if r.kind != kindCheck {
				return nil, fail(a + " is only supported by auth check")
			}
			switch a {
			case "--json":
				r.json = true
			case "--credentials":
				r.credentials = true
			default:
				r.noRefresh = true
			}
			continue
		}
		if valueFlags[a] {
			if i+1 >= len(rest) || strings.HasPrefix(rest[i+1], "-") {
				r.setUnknown(strings.TrimPrefix(a, "--"))
				continue
			}
			i++
			switch a {
			case "--provider":
				r.provider = rest[i]
			case "--model":
				r.model = rest[i]
			default:
				r.extra = true
			}
			continue
		}
		if strings.HasPrefix(a, "--") && len(a) > 2 {
			name, _, _ := strings.Cut(a[2:], "=")
			r.setUnknown(name)
			continue
		}
		r.extra = true
	}
	return r, nil
}

func (r *request) setUnknown(name string) {
	if r.unknown == "" {
		r.unknown = name
	}
}

// validate is the reference's check of the selection options.
func (r *request) validate() error {
	r.provider, r.model = strings.TrimSpace(r.provider), strings.TrimSpace(r.model)
	if r.extra {
		return fail("Auth commands only accept --provider and --model")
	}
	if r.provider == "" && r.model == "" {
		if r.kind == kindCheck {
			return fail("Auth checks require --provider <provider> or --model <model>")
		}
		return fail("Credential printing requires --provider <provider> or --model <model>")
	}
	return nil
}

var errResolve = errors.New("Failed to resolve credential")
