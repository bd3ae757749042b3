package authcmd

import (
	"fmt"
	"io"
	"slices"

	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/engine/config/login"
)

// env is what a command runs against; tests replace the terminal, the
// agent directory and the sign-in endpoints.
type env struct {
	stdout, stderr io.Writer
	agentDir       string
	term           terminal
	endpoints      *login.Endpoints
	// setup adjusts each loaded registry (tests install OAuth handlers
	// whose token endpoints are local servers).
	setup func(*config.Registry)
}

// Run runs `pi auth <args…>` and returns the exit code.
func Run(args []string, stdout, stderr io.Writer) int {
	dir := config.AgentDir()
	return run(args, &env{
		stdout: stdout, stderr: stderr,
		agentDir:  dir,
		term:      newProcessTerminal(stdout),
		endpoints: &login.Endpoints{DeviceID: deviceID(dir)},
	})
}

func run(args []string, e *env) int {
	if len(args) == 0 || args[0] == "help" || slices.Contains(args, "--help") || slices.Contains(args, "-h") {
		io.WriteString(e.stdout, helpText)
		return 0
	}
	rest := slices.DeleteFunc(slices.Clone(args[1:]), func(a string) bool { return a == "--offline" })
	switch args[0] {
	case "login":
		return runLogin(rest, e)
	case "logout":
		return runLogout(rest, e)
	}
	return runCredentialCommand(args, e)
}

// loadRegistry reads models.json and auth.json as a request would, with
// the built-in OAuth refreshes on.
func loadRegistry(e *env) (*config.Registry, []error) {
	reg, errs := loadRegistryMode(e, true)
	if reg != nil {
		// A Radius provider's models are those its last login or refresh
		// kept. check reads no stored catalog (the reference's check
		// keeps its models store in memory), so this is not in
		// loadRegistryMode.
		reg.ApplyStoredRadiusCatalogs()
		// The reference's commands other than check open the file-backed
		// models store, which creates models-store.json.
		if err := reg.EnsureModelsStoreFile(); err != nil {
			errs = append(errs, err)
		}
	}
	return reg, errs
}

// loadRegistryMode is loadRegistry; writable creates auth.json when it is
// missing, as the reference's writable credential store does (a check
// with --no-refresh reads it only).
func loadRegistryMode(e *env, writable bool) (*config.Registry, []error) {
	reg, errs := config.LoadModels(e.agentDir)
	if reg == nil {
		return nil, errs
	}
	reg.EnableBuiltinOAuth()
	if e.setup != nil {
		e.setup(reg)
	}
	if writable {
		if err := reg.EnsureAuthFile(); err != nil {
			errs = append(errs, err)
		}
	}
	return reg, errs
}

func errorf(e *env, format string, a ...any) {
	fmt.Fprintf(e.stderr, format+"\n", a...)
}

// providerName is the name the reference shows for a provider.
func providerName(reg *config.Registry, id string) string {
	return reg.ProviderDisplayName(id)
}

const helpText = `Usage:
  pi auth login <provider> [--api-key] [--no-browser]
  pi auth logout <provider>
  pi auth print-api-key [--provider <provider>] [--model <model>]
  pi auth print-bearer-token [--provider <provider>] [--model <model>] [--min-expiry <duration>]
  pi auth check [--provider <provider>] [--model <model>] [--json] [--credentials] [--no-refresh]

Sign in to model providers or out of them, and print or check the credentials
that other programs need. Credentials are kept in ~/.pi/agent/auth.json.

Commands:
  login <provider>        Sign in with your account in a browser, or store an API key
  logout <provider>       Delete what login stored; environment variables and models.json are kept
  print-api-key           Print the API key the provider resolves to
  print-bearer-token      Print the provider's OAuth bearer token, refreshed when it expires
  check                   Print ready, not_ready or invalid and exit 0, 1 or 2

Options for print-api-key, print-bearer-token, and check (at least one is required):
  --provider <provider>   Resolve credentials for a provider
  --model <model>         Resolve credentials from a model

Options for login:
  --api-key               Store an API key rather than signing in with an account
  --no-browser            Do not open a browser; choose another sign-in method, such as a device code

Other options:
  --min-expiry <duration> Least remaining token lifetime for print-bearer-token, e.g. 30m or 1h
  --json                  Print the check result as JSON
  --credentials           Print the credential from check, or add it to the JSON
  --no-refresh            Do not refresh expired OAuth credentials during check
`
