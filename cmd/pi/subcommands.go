package main

import (
	"io"

	"github.com/pi-go/pi/internal/authcmd"
	"github.com/pi-go/pi/mcp"
)

// subcommand runs one of pi's command words (`pi auth …`, `pi install …`)
// with the arguments after it and returns the exit code.
type subcommand func(args []string, stdout, stderr io.Writer) int

// subcommands are the reserved first words: a command line starting with
// one is never a prompt.
var subcommands = map[string]subcommand{
	"install":   runPackageCommand("install"),
	"remove":    runPackageCommand("remove"),
	"uninstall": runPackageCommand("uninstall"),
	"update":    runPackageCommand("update"),
	"list":      runPackageCommand("list"),
	"config":    runConfigCommand,
	"mcp":       mcp.RunCommand,
	"auth":      authcmd.Run,
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
