package slash

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/pi-go/pi/engine/config/login"
	"github.com/pi-go/pi/engine/interactive/dialogs"
)

const (
	methodAccount = "Sign in with an account"
	methodAPIKey  = "Sign in with an API key"
)

func runLogin(ctx context.Context, h Host, args string) error {
	a := h.Agent()
	providers := a.AuthProviders()
	if args != "" {
		for _, p := range providers {
			if (strings.EqualFold(p.ID, args) || strings.EqualFold(p.Name, args)) && (p.OAuth || p.APIKey) {
				chooseMethod(ctx, h, p)
				return nil
			}
		}
		var ids []string
		for _, p := range providers {
			if p.OAuth || p.APIKey {
				ids = append(ids, p.ID)
			}
		}
		return fail(h, "Unknown provider %q. Providers: %s", args, strings.Join(ids, ", "))
	}
	showMethods(ctx, h)
	return nil
}

// showMethods is /login's first question: an account, an API key, or
// Radius directly (its last option, as the reference offers it).
func showMethods(ctx context.Context, h Host) {
	options := []string{methodAccount, methodAPIKey}
	var radius *AuthProvider
	for _, p := range h.Agent().AuthProviders() {
		if p.ID == "radius" && p.OAuth {
			radius = &p
			options = append(options, "Sign in with "+p.Name+providerState(p))
			break
		}
	}
	h.ShowDialog(dialogs.NewSelect(h.Style(), dialogs.SelectOptions{
		Title: "Select authentication method:", Options: options,
		OnCancel: h.CloseDialog,
		OnSelect: func(i int, _ string) {
			if i == 2 && radius != nil {
				startLogin(ctx, h, *radius, false, func() { showMethods(ctx, h) })
				return
			}
			pickProvider(ctx, h, i == 1)
		},
	}))
}

// providerState is the suffix telling whether a provider has credentials.
func providerState(p AuthProvider) string {
	if p.Configured {
		return " ✓ configured"
	}
	return " • not configured"
}

// pickProvider lists the providers that can sign in the chosen way.
func pickProvider(ctx context.Context, h Host, apiKey bool) {
	var list []AuthProvider
	var labels []string
	for _, p := range h.Agent().AuthProviders() {
		if (apiKey && p.APIKey) || (!apiKey && p.OAuth) {
			list = append(list, p)
			labels = append(labels, p.Name+providerState(p))
		}
	}
	h.ShowDialog(dialogs.NewSelect(h.Style(), dialogs.SelectOptions{
		Title: "Select provider to configure:", Options: labels, OnCancel: h.CloseDialog, Search: true,
		OnSelect: func(i int, _ string) {
			startLogin(ctx, h, list[i], apiKey, func() { pickProvider(ctx, h, apiKey) })
		},
	}))
}

// chooseMethod asks account or API key when the provider has both.
func chooseMethod(ctx context.Context, h Host, p AuthProvider) {
	switch {
	case p.OAuth && p.APIKey:
		h.ShowDialog(dialogs.NewSelect(h.Style(), dialogs.SelectOptions{
			Title: "Select authentication method for " + p.Name + ":", Options: []string{methodAccount, methodAPIKey},
			OnCancel: h.CloseDialog,
			OnSelect: func(i int, _ string) { startLogin(ctx, h, p, i == 1, func() { chooseMethod(ctx, h, p) }) },
		}))
	default:
		startLogin(ctx, h, p, !p.OAuth, nil)
	}
}

// startLogin runs the sign-in off the UI goroutine; its questions come
// back as dialogs, and a "waiting" dialog (Escape cancels) shows the
// sign-in URL or code meanwhile. back reopens the selector the login was
// started from when the user cancels it (nil: none).
func startLogin(ctx context.Context, h Host, p AuthProvider, apiKey bool, back func()) {
	a := h.Agent()
	ctx, cancel := context.WithCancel(ctx)
	ui := &loginUI{h: h, cancel: cancel, title: "Signing in to " + p.Name}
	if apiKey {
		ui.title = "API key for " + p.Name
	}
	ui.showWaiting()
	background(h, func() error { return a.Login(ctx, p.ID, apiKey, ui) }, func(err error) {
		switch {
		case err == nil:
			ui.notes = []string{"Refreshing model catalog…"}
			ui.device = nil
			ui.showWaiting()
			action := "Logged in to " + p.Name
			if apiKey {
				action = "Saved API key for " + p.Name
			}
			finishLogin(ctx, h, ui, p, action)
			return
		case errors.Is(err, login.ErrCancelled) || errors.Is(err, context.Canceled):
			cancel()
			ui.finished = true
			h.CloseDialog()
			h.Notify(Info, "Login cancelled.")
			if back != nil {
				back()
			}
		default:
			cancel()
			ui.finished = true
			h.CloseDialog()
			_ = fail(h, "Failed to login to %s: %w", p.Name, err)
		}
	})
}

// finishLogin refreshes the provider's model list (Radius's account list)
// and selects its default model when none is selected, then says what
// happened, as the reference's /login does; the login itself stands
// whatever the refresh does.
func finishLogin(ctx context.Context, h Host, ui *loginUI, p AuthProvider, action string) {
	a := h.Agent()
	var selected, note string
	var refreshErr error
	background(h, func() error {
		selected, note, refreshErr = a.AfterLogin(ctx, p.ID)
		return nil
	}, func(error) {
		ui.cancel()
		ui.finished = true
		h.CloseDialog()
		if selected != "" {
			h.Notify(Info, action+". Selected "+selected+". Credentials saved to "+a.AuthPath())
		} else {
			h.Notify(Info, action+". Credentials saved to "+a.AuthPath())
		}
		if note != "" {
			h.Notify(Error, action+", but "+note)
		}
		switch {
		case refreshErr == nil:
		case errors.Is(refreshErr, context.DeadlineExceeded):
			h.Notify(Warning, action+", but its model catalog refresh timed out; using cached models.")
		default:
			h.Notify(Warning, action+", but its model catalog could not be refreshed; using cached models.")
		}
	})
}

// loginUI answers a sign-in flow's questions with dialogs. Its methods run
// on the flow's goroutine and hand the dialogs to the UI through Post.
type loginUI struct {
	h        Host
	cancel   context.CancelFunc
	title    string
	notes    []string // what the flow said so far (URL, code)
	finished bool     // UI goroutine only
	// device is the device-code notice shown, whose URL the waiting
	// dialog offers to open (UI goroutine only).
	device *login.Event
}

// openBrowser opens a sign-in URL; tests replace it.
var openBrowser = login.OpenBrowser

// webURL reports whether s is an http(s) URL a browser may be given.
func webURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// showWaiting shows the flow's notices under the title with a Cancel
// choice; it runs on the UI goroutine.
func (u *loginUI) showWaiting() {
	if u.finished {
		return
	}
	msg := "Waiting for the sign-in to finish…"
	if len(u.notes) > 0 {
		msg = strings.Join(u.notes, "\n")
	}
	options := []string{"Cancel sign-in"}
	if u.device != nil {
		// Enter opens the verification page and copies the code, as
		// the reference's device-code dialog does.
		options = []string{"Open the browser and copy the code", "Cancel sign-in"}
	}
	u.h.ShowDialog(dialogs.NewSelect(u.h.Style(), dialogs.SelectOptions{
		Title: u.title, Message: msg, Options: options,
		OnSelect: func(i int, _ string) {
			if i == len(options)-1 {
				u.cancel()
				return
			}
			d := *u.device
			note := "Code copied to clipboard"
			if err := u.h.Copy(d.UserCode); err != nil {
				note = "Copy code manually"
			}
			if webURL(d.URL) {
				openBrowser(d.URL)
			}
			u.notes = append(u.notes, note)
			u.showWaiting()
		},
		OnCancel: u.cancel,
	}))
}

// Ask shows one question and waits for its answer.
func (u *loginUI) Ask(ctx context.Context, p login.Prompt) (string, error) {
	type answer struct {
		v  string
		ok bool
	}
	ch := make(chan answer, 1)
	reply := func(v string, ok bool) {
		ch <- answer{v, ok}
		u.showWaiting()
	}
	u.h.Post(func() {
		st := u.h.Style()
		if p.Kind == "select" {
			labels := make([]string, len(p.Options))
			for i, o := range p.Options {
				labels[i] = o.Label
				if o.Description != "" {
					labels[i] += " — " + o.Description
				}
			}
			u.h.ShowDialog(dialogs.NewSelect(st, dialogs.SelectOptions{
				Title: u.title, Message: p.Message, Options: labels,
				OnSelect: func(i int, _ string) { reply(p.Options[i].ID, true) },
				OnCancel: func() { reply("", false) },
			}))
			return
		}
		u.h.ShowDialog(dialogs.NewInput(st, dialogs.InputOptions{
			Title: u.title, Message: p.Message, Placeholder: p.Placeholder, Secret: p.Kind == "secret",
			OnSubmit: func(s string) { reply(s, true) },
			OnCancel: func() { reply("", false) },
		}))
	})
	select {
	case a := <-ch:
		if !a.ok {
			u.cancel()
			return "", login.ErrCancelled
		}
		return a.v, nil
	case <-ctx.Done():
		// The flow withdrew the question (the browser sign-in finished
		// while a pasted code was asked for): take its dialog down.
		u.h.Post(u.showWaiting)
		return "", login.ErrCancelled
	}
}

// Notify adds a flow notice (the URL to open, a device code) to the
// waiting dialog.
func (u *loginUI) Notify(e login.Event) {
	var line string
	switch e.Kind {
	case "auth_url":
		line = "Open this URL in a browser to sign in:\n" + e.URL
		if e.Instructions != "" {
			line += "\n" + e.Instructions
		}
		// The reference opens the browser at once; the URL stays shown
		// for a machine without one.
		if webURL(e.URL) {
			openBrowser(e.URL)
		}
	case "device_code":
		line = "Open " + e.URL + " and enter the code " + e.UserCode + "\nWaiting for authentication..."
		d := e
		u.h.Post(func() { u.device = &d })
	default:
		line = e.Message
		for _, l := range e.Links {
			line += "\n" + l.Label + ": " + l.URL
		}
	}
	if line == "" {
		return
	}
	u.h.Post(func() {
		u.notes = append(u.notes, line)
		u.showWaiting()
	})
}

func runLogout(ctx context.Context, h Host, _ string) error {
	a := h.Agent()
	var list []AuthProvider
	var labels []string
	for _, p := range a.AuthProviders() {
		if p.Stored != "" {
			list = append(list, p)
			kind := "API key"
			if p.Stored == "oauth" {
				kind = "account"
			}
			labels = append(labels, p.Name+" • "+kind)
		}
	}
	if len(list) == 0 {
		h.Notify(Info, "No stored credentials to remove ("+a.AuthPath()+" holds none).")
		return nil
	}
	h.ShowDialog(dialogs.NewSelect(h.Style(), dialogs.SelectOptions{
		Title: "Select a provider to log out of:", Options: labels, OnCancel: h.CloseDialog,
		OnSelect: func(i int, _ string) {
			h.CloseDialog()
			p := list[i]
			if err := a.Logout(ctx, p.ID); err != nil {
				_ = fail(h, "Failed to log out of %s: %w", p.Name, err)
				return
			}
			h.Notify(Info, "Logged out of "+p.Name)
		},
	}))
	return nil
}
