package builtins

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
)

func TestPowerShellOutsideWindows(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("runs PowerShell for real on Windows")
	}
	tool := NewPowerShell(t.TempDir())
	if info := tool.Info(); info.Name != "powershell" || info.Label != "powershell" {
		t.Fatalf("info = %+v", info)
	}
	res, err := tool.Execute(context.Background(), engine.ToolCall{Name: "powershell", Args: json.RawMessage(`{"command":"Get-ChildItem"}`)}, func(engine.ToolResult) {})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || len(res.Content) != 1 || res.Content[0].Text != "The powershell tool is only available on Windows." {
		t.Fatalf("result = %+v", res)
	}
}

func TestPowerShellCommand(t *testing.T) {
	t.Parallel()
	cases := []struct {
		shell, command string
		suffixed       bool
	}{
		{`C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`, "git status", true},
		{`C:\Windows\System32\WindowsPowerShell\v1.0\PowerShell.EXE`, "git status", true},
		{`C:\Program Files\PowerShell\7\pwsh.exe`, "git status", false},
		{`C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`, "Get-Item a `", false},
	}
	for _, c := range cases {
		got := powerShellCommand(shellCmd{path: c.shell}, c.command)
		if !strings.HasPrefix(got, c.command) {
			t.Errorf("%s: command lost: %q", c.shell, got)
		}
		if suffixed := got != c.command; suffixed != c.suffixed {
			t.Errorf("%s %q: suffixed = %v, want %v", c.shell, c.command, suffixed, c.suffixed)
		}
		if c.suffixed && !strings.HasSuffix(got, "exit 1") {
			t.Errorf("suffix should end by failing: %q", got)
		}
	}
}
