package main

import (
	"reflect"
	"testing"

	pi "github.com/pi-go/pi"
)

func TestParseArgs(t *testing.T) {
	t.Parallel()
	str := func(s string) *string { return &s }
	tests := []struct {
		name  string
		argv  []string
		check func(t *testing.T, a *Args)
	}{
		{"no-mcp", []string{"--no-mcp"}, func(t *testing.T, a *Args) {
			if !a.NoMCP || a.HasErrors() || len(a.Diagnostics) != 0 {
				t.Fatalf("%+v", a.Diagnostics)
			}
		}},
		{"print consumes next message", []string{"-p", "hello", "world"}, func(t *testing.T, a *Args) {
			if !a.Print || !reflect.DeepEqual(a.Messages, []string{"hello", "world"}) {
				t.Fatalf("%+v", a)
			}
		}},
		{"print does not consume file or flag", []string{"-p", "@f.txt", "-c"}, func(t *testing.T, a *Args) {
			if len(a.Messages) != 0 || !reflect.DeepEqual(a.FileArgs, []string{"f.txt"}) || !a.Continue {
				t.Fatalf("%+v", a)
			}
		}},
		{"print consumes triple dash text", []string{"-p", "---x"}, func(t *testing.T, a *Args) {
			if !reflect.DeepEqual(a.Messages, []string{"---x"}) {
				t.Fatalf("%+v", a.Messages)
			}
		}},
		{"double dash ends options", []string{"--", "-x", "@a", "--mode"}, func(t *testing.T, a *Args) {
			if !reflect.DeepEqual(a.Messages, []string{"-x", "--mode"}) || !reflect.DeepEqual(a.FileArgs, []string{"a"}) || len(a.Diagnostics) != 0 {
				t.Fatalf("%+v", a)
			}
		}},
		{"repeatable extension and append", []string{"-e", "a.ts", "--extension", "b.ts", "--append-system-prompt", "x", "--append-system-prompt", "y"}, func(t *testing.T, a *Args) {
			if !reflect.DeepEqual(a.Extensions, []string{"a.ts", "b.ts"}) || !reflect.DeepEqual(a.AppendSystem, []string{"x", "y"}) {
				t.Fatalf("%+v", a)
			}
		}},
		{"model with thinking suffix kept whole", []string{"--model", "sonnet:high"}, func(t *testing.T, a *Args) {
			if a.Model != "sonnet:high" {
				t.Fatal(a.Model)
			}
		}},
		{"mode missing", []string{"--mode"}, diag(true, "--mode requires text, json, or rpc")},
		{"mode dash", []string{"--mode", "-p"}, diag(true, "--mode requires text, json, or rpc")},
		{"mode invalid", []string{"--mode", "xml"}, diag(true, `Invalid mode "xml". Valid values: text, json, rpc`)},
		{"thinking invalid is warning", []string{"--thinking", "huge"}, diag(false, `Invalid thinking level "huge". Valid values: off, minimal, low, medium, high, xhigh, max`)},
		{"unknown short", []string{"-z"}, diag(true, "Unknown option: -z")},
		{"name missing", []string{"-n"}, diag(true, "--name requires a value")},
		{"tools mixed", []string{"--tools", "read,+bash"}, diag(true, "--tools: tool names cannot be mixed with +name or -name entries")},
		{"tools pattern modifier", []string{"-t", "+ba*"}, diag(true, "-t: +name and -name entries take exact tool names, not patterns: +ba*")},
		{"use-theme missing", []string{"--use-theme"}, diag(true, "--use-theme requires a theme name")},
		{"tui-mode invalid", []string{"--tui-mode", "x"}, diag(true, `Invalid TUI mode "x". Valid values: regular, fullscreen`)},
		{"short aliases", []string{"-nt", "-nbt", "-xt", "a,b", "-ne", "-ns", "-np", "-nc", "-a", "-c", "-r"}, func(t *testing.T, a *Args) {
			if !a.NoTools || !a.NoBuiltinTools || !reflect.DeepEqual(a.ExcludeTools, []string{"a", "b"}) || !a.NoExtensions ||
				!a.NoSkills || !a.NoPromptTmpl || !a.NoContextFiles || a.Approve == nil || !*a.Approve || !a.Continue || !a.Resume {
				t.Fatalf("%+v", a)
			}
		}},
		{"list-models with search", []string{"--list-models", "mock"}, func(t *testing.T, a *Args) {
			if a.ListModels == nil || *a.ListModels != "mock" {
				t.Fatal(a.ListModels)
			}
		}},
		{"list-models without search", []string{"--list-models", "-p"}, func(t *testing.T, a *Args) {
			if a.ListModels == nil || *a.ListModels != "" || !a.Print {
				t.Fatal(a.ListModels)
			}
		}},
		{"unknown long flags", []string{"--plan", "--x=1", "--y", "v", "msg"}, func(t *testing.T, a *Args) {
			want := []pi.Flag{{Name: "plan", Bool: true}, {Name: "x", Value: "1"}, {Name: "y", Value: "v"}}
			if !reflect.DeepEqual(a.UnknownFlags, want) || !reflect.DeepEqual(a.Messages, []string{"msg"}) {
				t.Fatalf("%+v", a)
			}
		}},
		{"value flag at end becomes unknown", []string{"--model"}, func(t *testing.T, a *Args) {
			if a.Model != "" || len(a.UnknownFlags) != 1 || a.UnknownFlags[0].Name != "model" {
				t.Fatalf("%+v", a)
			}
		}},
		{"session flags", []string{"--session", "abc", "--session-id", "id1", "--fork", "f", "--session-dir", "d", "--no-session", "--name", "N"}, func(t *testing.T, a *Args) {
			if a.Session != "abc" || a.SessionID != "id1" || a.Fork != "f" || a.SessionDir != "d" || !a.NoSession || !reflect.DeepEqual(a.Name, str("N")) {
				t.Fatalf("%+v", a)
			}
		}},
		{"models list", []string{"--models", " a , ,b"}, func(t *testing.T, a *Args) {
			if !reflect.DeepEqual(a.Models, []string{"a", "b"}) {
				t.Fatal(a.Models)
			}
		}},
		{"version and help", []string{"-v", "-h"}, func(t *testing.T, a *Args) {
			if !a.Version || !a.Help {
				t.Fatal(a)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.check(t, ParseArgs(tt.argv))
		})
	}
}

func diag(isErr bool, msg string) func(t *testing.T, a *Args) {
	return func(t *testing.T, a *Args) {
		t.Helper()
		if len(a.Diagnostics) != 1 || a.Diagnostics[0].Error != isErr || a.Diagnostics[0].Message != msg {
			t.Fatalf("diagnostics %+v, want %v %q", a.Diagnostics, isErr, msg)
		}
	}
}

func TestResolveMode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		argv          []string
		stdin, stdout bool
		want          pi.Mode
	}{
		{[]string{"--mode", "rpc", "-p"}, true, true, ModeRPC},
		{[]string{"--mode", "json"}, false, false, ModeJSON},
		{[]string{"-p"}, true, true, ModePrint},
		{[]string{"--mode", "text"}, true, true, ModeInteractive},
		{nil, false, true, ModePrint},
		{nil, true, false, ModePrint},
		{nil, true, true, ModeInteractive},
	}
	for _, tt := range tests {
		if got := ResolveMode(ParseArgs(tt.argv), tt.stdin, tt.stdout); got != tt.want {
			t.Errorf("%v stdin=%v stdout=%v: got %s want %s", tt.argv, tt.stdin, tt.stdout, got, tt.want)
		}
	}
}

func TestSelectTools(t *testing.T) {
	t.Parallel()
	avail := []string{"read", "bash", "edit", "write", "grep", "find", "ls", "my_tool"}
	tests := []struct {
		argv     []string
		settings []string
		want     []string
	}{
		{nil, nil, []string{"read", "bash", "edit", "write"}},
		{[]string{"--tools", "read,grep"}, nil, []string{"read", "grep"}},
		{[]string{"--tools", "+grep,-bash"}, nil, []string{"read", "edit", "write", "grep"}},
		{[]string{"--tools", "*"}, nil, avail},
		{[]string{"--tools", "my_*,ls"}, nil, []string{"my_tool", "ls"}},
		{[]string{"-nt"}, nil, []string{}},
		{[]string{"-nbt"}, nil, []string{}},
		{[]string{"-nt", "--tools", "+ls"}, nil, []string{"ls"}},
		{[]string{"-xt", "b*,edit"}, nil, []string{"read", "write"}},
		{nil, []string{"read"}, []string{"read"}},
		{[]string{"--tools", "+ls"}, []string{"read"}, []string{"read", "ls"}},
	}
	for _, tt := range tests {
		opts := optionsFromArgs(ParseArgs(tt.argv), ModePrint)
		got := pi.SelectTools(pi.ToolSelectionInput{Options: &opts, SettingDefaults: tt.settings, Available: avail})
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%v settings=%v: got %v want %v", tt.argv, tt.settings, got, tt.want)
		}
	}
}
