package slash

import (
	"context"
	"fmt"
	"strings"
)

// Run runs the built-in command name with its argument text. handled is
// false when name is not a built-in, or when text follows a command that
// takes no argument (the reference then treats the line as something
// else: an extension command or a prompt).
//
// Run reports every outcome to the user itself (a notice, a dialog, a
// transcript block); a non-nil err repeats a failure already shown, for
// the caller's logs. Commands that take long return at once and finish
// through Host.Go and Host.Post, still using ctx: pass the interactive
// mode's own context, not one that ends when Run returns.
func Run(ctx context.Context, h Host, name, args string) (handled bool, err error) {
	c, ok := lookup(name)
	if !ok {
		return false, nil
	}
	args = strings.TrimSpace(args)
	if args != "" && !c.args {
		return false, nil
	}
	return true, commands[name](ctx, h, args)
}

type runner func(ctx context.Context, h Host, args string) error

var commands map[string]runner

func init() {
	// Assigned here rather than in the declaration because the runners
	// reach commands themselves (/tree reopens, /login chains dialogs).
	commands = map[string]runner{
		"settings": runSettings, "model": runModel, "tree": runTree, "thinking": runThinking,
		"scoped-models": runScopedModels, "export": runExport, "import": runImport, "copy": runCopy,
		"name": runName, "session": runSession, "changelog": runChangelog, "hotkeys": runHotkeys,
		"fork": runFork, "clone": runClone, "trust": runTrust, "login": runLogin, "logout": runLogout,
		"new": runNew, "compact": runCompact, "resume": runResume, "reload": runReload, "quit": runQuit,
		"share": runShare, "bug": runBug,
	}
}

// fail shows an error notice and returns it.
func fail(h Host, format string, a ...any) error {
	err := fmt.Errorf(format, a...)
	h.Notify(Error, err.Error())
	return err
}

// background runs work off the UI goroutine and then done on it.
func background(h Host, work func() error, done func(err error)) {
	h.Go(func() {
		err := work()
		h.Post(func() { done(err) })
	})
}

// pathArgument is the first argument: a quoted string ('…' or "…") or the
// text up to the first space.
func pathArgument(args string) string {
	args = strings.TrimSpace(args)
	if args == "" {
		return ""
	}
	if q := args[0]; q == '"' || q == '\'' {
		if end := strings.IndexByte(args[1:], q); end >= 0 {
			return args[1 : 1+end]
		}
		return ""
	}
	if i := strings.IndexAny(args, " \t"); i >= 0 {
		return args[:i]
	}
	return args
}

func runQuit(_ context.Context, h Host, _ string) error {
	h.Quit()
	return nil
}
