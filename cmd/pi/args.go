package main

import (
	"fmt"
	"strings"

	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/engine"
)

// Diagnostic is an argument problem: errors stop the program before it
// starts, warnings are printed and ignored.
type Diagnostic struct {
	Error   bool
	Message string
}

// String is the stderr line, "Error: …" or "Warning: …".
func (d Diagnostic) String() string {
	if d.Error {
		return "Error: " + d.Message
	}
	return "Warning: " + d.Message
}

// Args is the parsed command line. Fields mirror the reference's options;
// pointers and "set" flags distinguish "absent" from "empty" where the
// program reacts differently.
type Args struct {
	Help, Version   bool
	Mode            string // "", text, json, rpc
	Print           bool
	Continue        bool
	Resume          bool
	Provider        string
	Model           string
	APIKey          string
	SystemPrompt    *string
	AppendSystem    []string
	Name            *string
	NoSession       bool
	Session         string
	SessionID       string
	Fork            string
	SessionDir      string
	Models          []string
	NoTools         bool
	NoBuiltinTools  bool
	Tools           []string // nil = not given
	ExcludeTools    []string
	Thinking        engine.ThinkingLevel
	Export          string
	Extensions      []string
	NoExtensions    bool
	NoMCP           bool
	Skills          []string
	PromptTemplates []string
	Themes          []string
	UseTheme        string
	NoSkills        bool
	NoPromptTmpl    bool
	NoThemes        bool
	NoContextFiles  bool
	ListModels      *string // nil = not given; "" = list all
	TUIMode         string
	Verbose         bool
	Approve         *bool // --approve / --no-approve
	Offline         bool

	Messages []string
	FileArgs []string
	// UnknownFlags keeps --flags nobody claimed, in order; extensions may
	// claim them, otherwise they are an error after startup.
	UnknownFlags []pi.Flag
	Diagnostics  []Diagnostic
}

// HasErrors reports whether any diagnostic is an error.
func (a *Args) HasErrors() bool {
	for _, d := range a.Diagnostics {
		if d.Error {
			return true
		}
	}
	return false
}

func (a *Args) errorf(format string, v ...any) {
	a.Diagnostics = append(a.Diagnostics, Diagnostic{Error: true, Message: fmt.Sprintf(format, v...)})
}

func (a *Args) warnf(format string, v ...any) {
	a.Diagnostics = append(a.Diagnostics, Diagnostic{Message: fmt.Sprintf(format, v...)})
}

// splitList splits a comma-separated flag value, trimming entries and
// dropping empty ones.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// toolListError validates a --tools list: either plain names/patterns, or
// only +name/-name modifiers with exact names.
func toolListError(entries []string) string {
	mods := 0
	for _, e := range entries {
		if pi.IsToolModifier(e) {
			mods++
		}
	}
	if mods == 0 {
		return ""
	}
	if mods < len(entries) {
		return "tool names cannot be mixed with +name or -name entries"
	}
	for _, e := range entries {
		if strings.Contains(e, "*") {
			return "+name and -name entries take exact tool names, not patterns: " + e
		}
	}
	return ""
}

// valueFlags are options that take the next argument, but only when there
// is one: at the end of the line they are silently ignored, as in the
// reference.
var valueFlags = map[string]bool{
	"--provider": true, "--model": true, "--api-key": true, "--system-prompt": true,
	"--append-system-prompt": true, "--session": true, "--session-id": true, "--fork": true,
	"--session-dir": true, "--models": true, "--tools": true, "-t": true, "--exclude-tools": true,
	"-xt": true, "--thinking": true, "--export": true, "--extension": true, "-e": true,
	"--skill": true, "--prompt-template": true, "--theme": true,
}

// ParseArgs parses pi's command line (without the program name). It never
// fails: problems are collected in Diagnostics.
func ParseArgs(argv []string) *Args {
	a := &Args{}
	for i := 0; i < len(argv); i++ {
		arg := argv[i]
		hasNext := i+1 < len(argv)
		next := ""
		if hasNext {
			next = argv[i+1]
		}
		// A value flag at the very end takes no value and falls through to
		// the unknown-option handling below, as in the reference.
		if valueFlags[arg] && hasNext {
			i++
			a.setValue(arg, next)
			continue
		}
		switch arg {
		case "--":
			for _, p := range argv[i+1:] {
				a.positional(p)
			}
			return a
		case "--help", "-h":
			a.Help = true
		case "--version", "-v":
			a.Version = true
		case "--mode":
			if !hasNext || strings.HasPrefix(next, "-") {
				a.errorf("--mode requires text, json, or rpc")
				continue
			}
			i++
			if next != "text" && next != "json" && next != "rpc" {
				a.errorf("Invalid mode %q. Valid values: text, json, rpc", next)
				continue
			}
			a.Mode = next
		case "--continue", "-c":
			a.Continue = true
		case "--resume", "-r":
			a.Resume = true
		case "--name", "-n":
			if !hasNext {
				a.errorf("--name requires a value")
				continue
			}
			i++
			a.Name = &next
		case "--no-session":
			a.NoSession = true
		case "--no-tools", "-nt":
			a.NoTools = true
		case "--no-builtin-tools", "-nbt":
			a.NoBuiltinTools = true
		case "--print", "-p":
			a.Print = true
			// -p takes the next argument as the prompt unless it looks like a
			// file or an option; "---…" is text, not an option.
			if hasNext && !strings.HasPrefix(next, "@") && (!strings.HasPrefix(next, "-") || strings.HasPrefix(next, "---")) {
				a.Messages = append(a.Messages, next)
				i++
			}
		case "--no-extensions", "-ne":
			a.NoExtensions = true
		case "--no-mcp":
			a.NoMCP = true
		case "--use-theme":
			if !hasNext || strings.HasPrefix(next, "-") {
				a.errorf("--use-theme requires a theme name")
				continue
			}
			i++
			a.UseTheme = next
		case "--no-skills", "-ns":
			a.NoSkills = true
		case "--no-prompt-templates", "-np":
			a.NoPromptTmpl = true
		case "--no-themes":
			a.NoThemes = true
		case "--no-context-files", "-nc":
			a.NoContextFiles = true
		case "--list-models":
			search := ""
			if hasNext && !strings.HasPrefix(next, "-") && !strings.HasPrefix(next, "@") {
				search = next
				i++
			}
			a.ListModels = &search
		case "--tui-mode":
			switch {
			case next == "regular" || next == "fullscreen":
				i++
				a.TUIMode = next
			case !hasNext || strings.HasPrefix(next, "-"):
				a.errorf("--tui-mode requires regular or fullscreen")
			default:
				i++
				a.errorf("Invalid TUI mode %q. Valid values: regular, fullscreen", next)
			}
		case "--verbose":
			a.Verbose = true
		case "--approve", "-a":
			t := true
			a.Approve = &t
		case "--no-approve", "-na":
			f := false
			a.Approve = &f
		case "--offline":
			a.Offline = true
		default:
			switch {
			case strings.HasPrefix(arg, "@"):
				a.FileArgs = append(a.FileArgs, arg[1:])
			case strings.HasPrefix(arg, "--"):
				name := arg[2:]
				if k, v, ok := strings.Cut(name, "="); ok {
					a.UnknownFlags = append(a.UnknownFlags, pi.Flag{Name: k, Value: v})
				} else if hasNext && !strings.HasPrefix(next, "-") && !strings.HasPrefix(next, "@") {
					a.UnknownFlags = append(a.UnknownFlags, pi.Flag{Name: name, Value: next})
					i++
				} else {
					a.UnknownFlags = append(a.UnknownFlags, pi.Flag{Name: name, Bool: true})
				}
			case strings.HasPrefix(arg, "-"):
				a.errorf("Unknown option: %s", arg)
			default:
				a.Messages = append(a.Messages, arg)
			}
		}
	}
	return a
}

// positional records an argument after "--": @path is still a file.
func (a *Args) positional(p string) {
	if strings.HasPrefix(p, "@") {
		a.FileArgs = append(a.FileArgs, p[1:])
		return
	}
	a.Messages = append(a.Messages, p)
}

func (a *Args) setValue(flag, v string) {
	switch flag {
	case "--provider":
		a.Provider = v
	case "--model":
		a.Model = v
	case "--api-key":
		a.APIKey = v
	case "--system-prompt":
		a.SystemPrompt = &v
	case "--append-system-prompt":
		a.AppendSystem = append(a.AppendSystem, v)
	case "--session":
		a.Session = v
	case "--session-id":
		a.SessionID = v
	case "--fork":
		a.Fork = v
	case "--session-dir":
		a.SessionDir = v
	case "--models":
		a.Models = splitList(v)
	case "--tools", "-t":
		tools := splitList(v)
		if msg := toolListError(tools); msg != "" {
			a.errorf("%s: %s", flag, msg)
			return
		}
		if tools == nil {
			tools = []string{}
		}
		a.Tools = tools
	case "--exclude-tools", "-xt":
		a.ExcludeTools = splitList(v)
	case "--thinking":
		if l, ok := engine.ParseThinkingLevel(v); ok {
			a.Thinking = l
			return
		}
		names := make([]string, len(engine.AllThinkingLevels))
		for i, l := range engine.AllThinkingLevels {
			names[i] = string(l)
		}
		a.warnf("Invalid thinking level %q. Valid values: %s", v, strings.Join(names, ", "))
	case "--export":
		a.Export = v
	case "--extension", "-e":
		a.Extensions = append(a.Extensions, v)
	case "--skill":
		a.Skills = append(a.Skills, v)
	case "--prompt-template":
		a.PromptTemplates = append(a.PromptTemplates, v)
	case "--theme":
		a.Themes = append(a.Themes, v)
	}
}

// The modes, named here as the command resolves them.
const (
	ModeRPC         = pi.ModeRPC
	ModeJSON        = pi.ModeJSON
	ModePrint       = pi.ModePrint
	ModeInteractive = pi.ModeInteractive
)

// ResolveMode picks the mode: --mode rpc/json win; -p, or stdin or stdout
// not being a terminal, means print; otherwise interactive.
func ResolveMode(a *Args, stdinTTY, stdoutTTY bool) pi.Mode {
	switch {
	case a.Mode == "rpc":
		return ModeRPC
	case a.Mode == "json":
		return ModeJSON
	case a.Print || !stdinTTY || !stdoutTTY:
		return ModePrint
	}
	return ModeInteractive
}
