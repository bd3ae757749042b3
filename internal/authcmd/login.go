package authcmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/engine/config/login"
)

const loginUsage = "pi auth login <provider> [--api-key] [--no-browser]"

type loginRequest struct {
	ref     string
	apiKey  bool
	browser bool
}

func parseLogin(args []string) (loginRequest, string) {
	r := loginRequest{browser: true}
	for _, a := range args {
		switch {
		case a == "--api-key":
			r.apiKey = true
		case a == "--no-browser":
			r.browser = false
		case strings.HasPrefix(a, "-") || r.ref != "":
			return r, "Usage: " + loginUsage
		default:
			r.ref = a
		}
	}
	if r.ref == "" {
		return r, "Usage: " + loginUsage
	}
	if r.apiKey && !r.browser {
		return r, "--no-browser only applies to account sign-in; omit it with --api-key."
	}
	return r, ""
}

func runLogin(args []string, e *env) int {
	req, msg := parseLogin(args)
	if msg != "" {
		errorf(e, "%s", msg)
		return 1
	}
	reg, _ := loadRegistry(e)
	if reg == nil {
		errorf(e, "Failed to load the model registry")
		return 1
	}
	id := matchProvider(reg, req.ref, true)
	if id == "" && slices.Contains(login.LoginProviders(), req.ref) {
		// A login provider whose models this build's catalog lacks.
		id = req.ref
	}
	// A provider of models.json (not in the catalog) logs in with a key,
	// or at its Radius gateway when it has "oauth": "radius".
	custom := id != "" && config.CatalogProviderName(id) == ""
	radiusGateway, radius := reg.RadiusGateway(id)
	customRadius := custom && radius
	if _, known := login.APIKeyName(id); id == "" || !(known || custom || login.HasOAuth(id)) {
		ids := login.LoginProviders()
		slices.Sort(ids)
		errorf(e, "Unknown provider %q.", sanitize(req.ref))
		errorf(e, "Providers: %s", strings.Join(ids, ", "))
		return 1
	}
	if !e.term.interactive() {
		errorf(e, "%q requires an interactive terminal", loginUsage)
		return 1
	}
	name := providerName(reg, id)
	_, hasKeyLogin := login.APIKeyName(id)
	hasKeyLogin = hasKeyLogin || custom
	useOAuth := false
	switch {
	case !req.apiKey && (login.HasOAuth(id) || customRadius):
		useOAuth = true
	case hasKeyLogin:
	case req.apiKey && (login.HasOAuth(id) || customRadius):
		errorf(e, "%s has no API key login. Omit --api-key to sign in.", name)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ui := &terminalUI{e: e, provider: id, browser: req.browser, choice: "ask"}
	var cred json.RawMessage
	var err error
	if useOAuth {
		ui.choice = "browser"
		if !req.browser {
			ui.choice = "other"
		}
		e.endpoints.CopilotKnownModel = func(m string) bool { return reg.Find("github-copilot", m) != nil }
		flow, ok := login.OAuthFlow(id)
		if customRadius {
			flow, ok = login.RadiusFlow(name, radiusGateway), true
		}
		if !ok {
			errorf(e, "Failed to log in to %s: account sign-in for %s is not available in this build yet; use --api-key to store an API key", name, name)
			return 1
		}
		cred, err = flow.Run(ctx, ui, e.endpoints)
	} else if customRadius {
		// Its key login is the Radius one ("Enter Radius API key").
		cred, err = login.APIKeyLogin(ctx, "radius", ui)
	} else if custom {
		cred, err = login.NamedAPIKeyLogin(ctx, "API key", ui)
	} else {
		cred, err = login.APIKeyLogin(ctx, id, ui)
	}
	if err == nil {
		err = reg.SaveCredential(ctx, id, cred)
	}
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, login.ErrCancelled) {
			errorf(e, "Login cancelled.")
		} else {
			errorf(e, "Failed to log in to %s: %s", name, err)
		}
		return 1
	}
	what := "Saved API key for " + name
	if useOAuth {
		what = "Logged in to " + name
	}
	fmt.Fprintf(e.stdout, "%s. Credentials saved to %s\n", what, reg.AuthPath())
	refreshCatalog(ctx, e, reg, id, name, radius)
	return 0
}

// refreshCatalog loads the account's own model list (Radius's, or what a
// registered refresher serves), which replaces the shipped one and is
// kept in models-store.json for offline starts. The login is saved by
// now, so a failure (or Ctrl+C, or 15 seconds without an answer) only
// leaves the list to the next start, as the reference's messages say.
func refreshCatalog(ctx context.Context, e *env, reg *config.Registry, id, name string, radius bool) {
	rctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	var err error
	if radius {
		gateway := ""
		if id == "radius" {
			gateway = e.endpoints.RadiusGateway
		}
		now := time.Now
		if e.endpoints.Now != nil {
			now = e.endpoints.Now
		}
		err = reg.RefreshRadiusCatalog(rctx, e.endpoints.Client, id, gateway, now())
	} else {
		_, err = reg.RefreshProviderCatalog(rctx, e.endpoints.Client, id)
	}
	switch {
	case err == nil:
	case ctx.Err() != nil:
		fmt.Fprintf(e.stdout, "Skipped the %s model catalog refresh; pi refreshes it on next start.\n", name)
	case rctx.Err() != nil:
		fmt.Fprintf(e.stdout, "The %s model catalog refresh timed out; pi refreshes it on next start.\n", name)
	default:
		fmt.Fprintf(e.stdout, "The %s model catalog could not be refreshed; pi retries on next start.\n", name)
	}
}

// terminalUI answers a flow's prompts on the terminal. choice is how a
// sign-in method is picked: "browser" takes the first (the browser
// sign-in), "other" the alternative, "ask" lists them.
type terminalUI struct {
	e        *env
	provider string
	browser  bool
	choice   string
	skipped  []string
}

func (u *terminalUI) say(line string) { fmt.Fprintln(u.e.stdout, line) }

func (u *terminalUI) Ask(ctx context.Context, p login.Prompt) (string, error) {
	if p.Kind == "select" {
		return u.selectMethod(ctx, p)
	}
	msg := p.Message
	if p.Placeholder != "" {
		msg += " (" + p.Placeholder + ")"
	}
	msg += ": "
	if p.Kind == "secret" {
		return u.e.term.secret(ctx, msg)
	}
	return u.e.term.question(ctx, msg)
}

func (u *terminalUI) selectMethod(ctx context.Context, p login.Prompt) (string, error) {
	if len(p.Options) == 0 {
		return "", errors.New("no sign-in methods offered")
	}
	first, others := p.Options[0], p.Options[1:]
	switch {
	case u.choice == "ask":
		return u.pick(ctx, p.Message, p.Options)
	case u.choice == "browser":
		for _, o := range others {
			u.skipped = append(u.skipped, o.Label)
		}
		return first.ID, nil
	case len(others) == 0:
		// The browser sign-in is the only method: it runs, without
		// opening the browser.
		return first.ID, nil
	case len(others) > 1:
		return u.pick(ctx, p.Message, others)
	}
	u.say(p.Message + " " + others[0].Label)
	return others[0].ID, nil
}

func (u *terminalUI) pick(ctx context.Context, message string, opts []login.Option) (string, error) {
	u.say(message)
	for i, o := range opts {
		line := fmt.Sprintf("  %d. %s", i+1, o.Label)
		if o.Description != "" {
			line += " - " + o.Description
		}
		u.say(line)
	}
	for {
		a, err := u.e.term.question(ctx, fmt.Sprintf("Select 1-%d: ", len(opts)))
		if err != nil {
			return "", err
		}
		a = strings.TrimSpace(a)
		n := 0
		if _, err := fmt.Sscanf(a, "%d", &n); err == nil && fmt.Sprint(n) == a && n >= 1 && n <= len(opts) {
			return opts[n-1].ID, nil
		}
		u.say(fmt.Sprintf("Enter a number from 1 to %d.", len(opts)))
	}
}

// webURL is the URL when it is an http(s) one a browser may open.
func webURL(s string) (string, bool) {
	p, err := url.Parse(s)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return sanitize(s), false
	}
	return p.String(), true
}

func (u *terminalUI) Notify(ev login.Event) {
	switch ev.Kind {
	case "auth_url":
		shown, web := webURL(ev.URL)
		u.say("Open this URL to sign in:\n  " + shown)
		if ev.Instructions != "" {
			u.say(ev.Instructions)
		}
		if web && u.browser {
			u.e.term.openURL(shown)
		}
		rerun := fmt.Sprintf("%q", "pi auth login "+u.provider+" --no-browser")
		switch len(u.skipped) {
		case 0:
		case 1:
			u.say(fmt.Sprintf("To use %q instead, run %s", u.skipped[0], rerun))
		default:
			quoted := make([]string, len(u.skipped))
			for i, l := range u.skipped {
				quoted[i] = fmt.Sprintf("%q", l)
			}
			u.say(fmt.Sprintf("Other sign-in methods: %s. Run %s to choose one.", strings.Join(quoted, ", "), rerun))
		}
	case "device_code":
		shown, web := webURL(ev.URL)
		u.say("Open " + shown + " and enter code: " + ev.UserCode)
		if web && u.browser {
			u.e.term.openURL(shown)
		}
		u.say("Waiting for authentication...")
	case "info":
		u.say(ev.Message)
		for _, l := range ev.Links {
			shown, _ := webURL(l.URL)
			if l.Label != "" {
				shown = l.Label + ": " + shown
			}
			u.say("  " + shown)
		}
	default:
		u.say(ev.Message)
	}
}
