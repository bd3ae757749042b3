package main

import (
	"fmt"
	"io"

	"github.com/pi-go/pi/internal/authcmd"
	"github.com/pi-go/pi/mcp"
)

// subcommand runs one of pi's command words (`pi auth …`, `pi install …`)
// with the arguments after it and returns the exit code.
type subcommand func(args []string, stdout, stderr io.Writer) int

// subcommands are the reserved first words: a command line starting with
// one is never a prompt. Words whose command is not built yet fail with a
// clear error instead of reaching a model.
var subcommands = map[string]subcommand{
	"install":   notYet("install", "packages"),
	"remove":    notYet("remove", "packages"),
	"uninstall": notYet("uninstall", "packages"),
	"update":    notYet("update", "packages"),
	"list":      notYet("list", "packages"),
	"config":    notYet("config", "packages"),
	"mcp":       mcp.RunCommand,
	"auth":      authcmd.Run,
}

// notYet is the stand-in for a command word this build does not serve.
func notYet(word, what string) subcommand {
	return func(_ []string, _, stderr io.Writer) int {
		fmt.Fprintf(stderr, "Error: \"pi %s\" (%s) is not available in this build yet\n", word, what)
		return 1
	}
}

// runSubcommand runs argv as a command word's command line, if it is one.
func runSubcommand(argv []string, stdout, stderr io.Writer) (code int, ok bool) {
	if len(argv) == 0 {
		return 0, false
	}
	cmd, ok := subcommands[argv[0]]
	if !ok {
		return 0, false
	}
	return cmd(argv[1:], stdout, stderr), true
}
