package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/packages"
)

// The package commands: install, remove (uninstall), update, list and
// config, with the reference's options, usage lines, messages and exit
// codes. The work is packages.Manager's.

var packageUsage = map[string]string{
	"install": "pi install <source> [-l] [--approve|--no-approve]",
	"remove":  "pi remove <source> [-l] [--approve|--no-approve]",
	"update":  "pi update [source|self|pi] [--self|--extensions|--models|--all] [--extension <source>] [--approve|--no-approve] [--force]",
	"list":    "pi list [--approve|--no-approve]",
	"config":  "pi config [-l] [--approve|--no-approve]",
}

var packageHelp = map[string]string{
	"install": `Install a package and record it in settings.

Options:
  -l, --local       Install for this project (.pi/settings.json)
  -a, --approve     Trust the project's files for this command
  -na, --no-approve Ignore the project's files for this command

Examples:
  pi install npm:@foo/bar
  pi install git:github.com/user/repo
  pi install git:git@github.com:user/repo
  pi install https://github.com/user/repo
  pi install ssh://git@github.com/user/repo
  pi install ./local/path
`,
	"remove": `Remove a package and its entry in settings.
Alias: pi uninstall <source> [-l]

Options:
  -l, --local       Remove from the project's settings (.pi/settings.json)
  -a, --approve     Trust the project's files for this command
  -na, --no-approve Ignore the project's files for this command

Examples:
  pi remove npm:@foo/bar
  pi uninstall npm:@foo/bar
`,
	"update": `Update pi, the installed packages, or the model catalogs.

Options:
  --self                  Update pi only (the default without a target)
  --extensions            Update the installed packages only
  --models                Refresh the model catalogs only
  --all                   Update pi and the installed packages
  --extension <source>    Update one package only
  -a, --approve           Trust the project's files for this command
  -na, --no-approve       Ignore the project's files for this command
  --force                 Reinstall pi even when it is the latest version

Short forms:
  pi update                Update pi only
  pi update --all          Update pi and every package
  pi update --models       Refresh the model catalogs only
  pi update <source>       Update one package
  pi update pi             Update pi only (self is an alias of pi)
`,
	"list": `List the packages installed by the user's and the project's settings.

Options:
  -a, --approve      Trust the project's files for this command
  -na, --no-approve  Ignore the project's files for this command
`,
	"config": `Open the resource configuration screen to turn package resources on or off.
Without -l, it starts with the global settings (~/.pi/agent/settings.json).
Tab switches between global and project scope.

Options:
  -l, --local       Edit the project's overrides (.pi/settings.json)
  -a, --approve     Trust the project's files for this command with -l
  -na, --no-approve Ignore the project's files for this command with -l
`,
}

// pkgOptions is a parsed package command line.
type pkgOptions struct {
	command, source                         string
	local, force, help                      bool
	trust                                   *bool
	invalidOption, invalidArg, missingValue string
	conflict                                string
	target                                  string // update: self, extensions, models, all
	extensionsSkippedNote                   bool
}

func parsePackageArgs(command string, rest []string) pkgOptions {
	o := pkgOptions{command: command}
	var self, exts, models, all bool
	extSource := ""
	setInvalid := func(a string) {
		if o.invalidOption == "" {
			o.invalidOption = a
		}
	}
	isUpdate := command == "update"
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "-h" || a == "--help":
			o.help = true
		case a == "-l" || a == "--local":
			if command == "install" || command == "remove" {
				o.local = true
			} else {
				setInvalid(a)
			}
		case a == "--self" && isUpdate:
			self = true
		case a == "--extensions" && isUpdate:
			exts = true
		case a == "--models" && isUpdate:
			models = true
		case a == "--all" && isUpdate:
			all = true
		case a == "--force" && isUpdate:
			o.force = true
		case a == "--approve" || a == "-a":
			t := true
			o.trust = &t
		case a == "--no-approve" || a == "-na":
			f := false
			o.trust = &f
		case a == "--extension" && isUpdate:
			if i+1 >= len(rest) || rest[i+1] == "" || strings.HasPrefix(rest[i+1], "-") {
				if o.missingValue == "" {
					o.missingValue = a
				}
			} else if extSource != "" {
				if o.conflict == "" {
					o.conflict = "--extension can only be provided once"
				}
				i++
			} else {
				extSource = rest[i+1]
				i++
			}
		case strings.HasPrefix(a, "-"):
			setInvalid(a)
		case o.source == "":
			o.source = a
		default:
			if o.invalidArg == "" {
				o.invalidArg = a
			}
		}
	}
	if !isUpdate {
		return o
	}
	conflict := func(msg string) {
		if o.conflict == "" {
			o.conflict = msg
		}
	}
	if all && (self || exts || models || extSource != "") {
		conflict("--all cannot be combined with --self, --extensions, --models, or --extension")
	}
	if all && o.source != "" {
		conflict("--all cannot be combined with a positional source")
	}
	switch {
	case models:
		if self || exts || all || extSource != "" {
			conflict("--models cannot be combined with --self, --extensions, --all, or --extension")
		}
		if o.source != "" {
			conflict("--models cannot be combined with a positional source")
		}
		o.target = "models"
	case extSource != "":
		if self || exts || all {
			conflict("--extension cannot be combined with --self, --extensions, or --all")
		}
		if o.source != "" {
			conflict("--extension cannot be combined with a positional source")
		}
		o.target, o.source = "extensions", extSource
	case o.source != "":
		if o.source == "self" || o.source == "pi" {
			o.source = ""
			o.target = "self"
			if exts {
				o.target = "all"
			}
		} else {
			if exts || self || all {
				conflict("positional update targets cannot be combined with --self, --extensions, or --all")
			}
			o.target = "extensions"
		}
	case all, self && exts:
		o.target = "all"
	case self:
		o.target = "self"
	case exts:
		o.target = "extensions"
	default:
		o.target = "self"
		o.extensionsSkippedNote = true
	}
	return o
}

// runPackageCommand is `pi install|remove|uninstall|update|list`.
func runPackageCommand(word string) subcommand {
	command := word
	if word == "uninstall" {
		command = "remove"
	}
	return func(args []string, stdout, stderr io.Writer) int {
		o := parsePackageArgs(command, args)
		usage := packageUsage[command]
		if o.help {
			fmt.Fprintf(stdout, "Usage:\n  %s\n\n%s", usage, packageHelp[command])
			return 0
		}
		switch {
		case o.invalidOption != "":
			fmt.Fprintf(stderr, "Unknown option %s for %q.\nUse \"pi --help\" or %q.\n", o.invalidOption, command, usage)
			return 1
		case o.missingValue != "":
			fmt.Fprintf(stderr, "Missing value for %s.\nUsage: %s\n", o.missingValue, usage)
			return 1
		case o.invalidArg != "":
			fmt.Fprintf(stderr, "Unexpected argument %s.\nUsage: %s\n", o.invalidArg, usage)
			return 1
		case o.conflict != "":
			fmt.Fprintf(stderr, "%s\nUsage: %s\n", o.conflict, usage)
			return 1
		}
		if (command == "install" || command == "remove") && o.source == "" {
			fmt.Fprintf(stderr, "Missing %s source.\nUsage: %s\n", command, usage)
			return 1
		}
		if command == "update" && o.target == "models" {
			fmt.Fprintln(stderr, "Error: pi update --models (refreshing model catalogs) is not available in this build yet")
			return 1
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		m, err := commandManager(o, command, stdout)
		if err != nil {
			fmt.Fprintln(stderr, "Error: "+err.Error())
			return 1
		}
		if o.local && !m.Trusted {
			fmt.Fprintln(stderr, "Project is not trusted. Use --approve to modify local package config.")
			return 1
		}
		switch command {
		case "install":
			if err := m.Install(ctx, o.source, o.local); err != nil {
				fmt.Fprintln(stderr, "Error: "+err.Error())
				return 1
			}
			fmt.Fprintf(stdout, "Installed %s\n", o.source)
		case "remove":
			removed, err := m.Remove(ctx, o.source, o.local)
			if err != nil {
				fmt.Fprintln(stderr, "Error: "+err.Error())
				return 1
			}
			if !removed {
				fmt.Fprintf(stderr, "No matching package found for %s\n", o.source)
				return 1
			}
			fmt.Fprintf(stdout, "Removed %s\n", o.source)
		case "list":
			listPackages(m, stdout)
		case "update":
			return runUpdate(ctx, m, o, stdout, stderr)
		}
		return 0
	}
}

// commandManager is the Manager of this directory, with the project
// trusted as the reference decides for a command: update goes by the
// saved decision (or the flag) only, the others as a start would.
func commandManager(o pkgOptions, command string, out io.Writer) (*packages.Manager, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("The current working directory no longer exists. Change to an existing directory and try again.")
	}
	agentDir := config.AgentDir()
	s, err := config.Load(agentDir, cwd, false)
	if err != nil {
		return nil, err
	}
	var trusted bool
	switch {
	case o.trust != nil:
		trusted = *o.trust
	case command == "update":
		v, ok, err := config.NewTrust(agentDir).Get(cwd)
		if err != nil {
			return nil, err
		}
		trusted = ok && v
	default:
		if trusted, err = config.ProjectTrusted(agentDir, cwd, config.TrustFlags{}, s); err != nil {
			return nil, err
		}
	}
	if trusted {
		if s, err = config.Load(agentDir, cwd, true); err != nil {
			return nil, err
		}
	}
	for _, w := range s.Warnings() {
		fmt.Fprintf(os.Stderr, "Warning (package command): %s\n", w)
	}
	m := &packages.Manager{AgentDir: agentDir, Cwd: cwd, Trusted: trusted, Out: out}
	m.NpmCommand = toStrings(s.Raw("npmCommand"))
	return m, nil
}

func toStrings(v any) []string {
	list, ok := v.([]any)
	if !ok {
		return nil
	}
	var out []string
	for _, e := range list {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func listPackages(m *packages.Manager, stdout io.Writer) {
	all := m.List()
	if len(all) == 0 {
		fmt.Fprintln(stdout, "No packages installed.")
		return
	}
	printed := false
	for _, scope := range []string{packages.ScopeUser, packages.ScopeProject} {
		var these []packages.Configured
		for _, c := range all {
			if c.Scope == scope {
				these = append(these, c)
			}
		}
		if len(these) == 0 {
			continue
		}
		if printed {
			fmt.Fprintln(stdout)
		}
		printed = true
		if scope == packages.ScopeUser {
			fmt.Fprintln(stdout, "User packages:")
		} else {
			fmt.Fprintln(stdout, "Project packages:")
		}
		for _, c := range these {
			line := c.Source
			if c.Filtered {
				line += " (filtered)"
			}
			fmt.Fprintf(stdout, "  %s\n", line)
			if c.InstalledPath != "" {
				fmt.Fprintf(stdout, "    %s\n", c.InstalledPath)
			}
		}
	}
}

func runUpdate(ctx context.Context, m *packages.Manager, o pkgOptions, stdout, stderr io.Writer) int {
	if o.extensionsSkippedNote {
		fmt.Fprintln(stdout, "Extensions are skipped. Run pi update --extensions to update extensions.")
	}
	if o.target == "all" || o.target == "extensions" {
		updated, warnings, err := m.Update(ctx, o.source)
		for _, w := range warnings {
			fmt.Fprintln(stdout, w)
		}
		if err != nil {
			fmt.Fprintln(stderr, "Error: "+err.Error())
			return 1
		}
		switch {
		case m.Offline():
			fmt.Fprintln(stdout, "Skipped package updates (offline mode)")
		case len(updated) == 0 && len(warnings) > 0:
			if o.source != "" {
				fmt.Fprintf(stdout, "%s was not updated, see the warnings above\n", o.source)
			} else {
				fmt.Fprintln(stdout, "No packages were updated, see the warnings above")
			}
		case len(updated) == 0:
			if o.source != "" {
				fmt.Fprintf(stdout, "%s is already up to date\n", o.source)
			} else {
				fmt.Fprintln(stdout, "Packages are already up to date")
			}
		default:
			s := "s"
			if len(updated) == 1 {
				s = ""
			}
			fmt.Fprintf(stdout, "Updated %d package%s:\n", len(updated), s)
			for _, u := range updated {
				fmt.Fprintf(stdout, "  %s\n", u)
			}
		}
	}
	if o.target == "all" || o.target == "self" {
		return runSelfUpdate(ctx, o, stdout, stderr)
	}
	return 0
}

// runSelfUpdate runs PI_SELF_UPDATE_COMMAND or the selfUpdateCommand
// setting; this binary has no installer of its own to update through.
func runSelfUpdate(ctx context.Context, o pkgOptions, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "error: pi cannot self-update this installation.")
	fmt.Fprintln(stderr, "To make `pi update` run your own update command, set PI_SELF_UPDATE_COMMAND or the selfUpdateCommand setting.")
	if exe, err := os.Executable(); err == nil {
		fmt.Fprintln(stderr)
		fmt.Fprintf(stderr, "Location of pi executable: %s\n", exe)
	}
	return 1
}

// runConfigCommand is `pi config`: its options are checked as the
// reference checks them; the screen itself is not built yet.
func runConfigCommand(args []string, stdout, stderr io.Writer) int {
	usage := packageUsage["config"]
	for _, a := range args {
		if a == "-h" || a == "--help" {
			fmt.Fprintf(stdout, "Usage:\n  %s\n\n%s", usage, packageHelp["config"])
			return 0
		}
	}
	for _, a := range args {
		switch {
		case a == "-l" || a == "--local" || a == "-a" || a == "--approve" || a == "-na" || a == "--no-approve":
		case strings.HasPrefix(a, "-"):
			fmt.Fprintf(stderr, "Unknown option %s for \"config\".\nUse \"pi --help\" or %q.\n", a, usage)
			return 1
		default:
			fmt.Fprintf(stderr, "Unexpected argument %s.\nUsage: %s\n", a, usage)
			return 1
		}
	}
	fmt.Fprintln(stderr, "Error: \"pi config\" (the resource configuration screen) is not available in this build yet; edit \"packages\" in settings.json instead")
	return 1
}
