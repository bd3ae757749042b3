package interactive

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

// TestEnableSkillCommands checks that the enableSkillCommands setting
// decides whether "/" completes skills, as in the reference (default on).
func TestEnableSkillCommands(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		settings string
		want     bool
	}{{`{}`, true}, {`{"enableSkillCommands": true}`, true}, {`{"enableSkillCommands": false}`, false}} {
		t.Run(tc.settings, func(t *testing.T) {
			t.Parallel()
			agentDir, project, _ := sdktest.Home(t, mockllm.Script{})
			skill := filepath.Join(agentDir, "skills", "tidy")
			if err := os.MkdirAll(skill, 0o755); err != nil {
				t.Fatal(err)
			}
			md := "---\nname: tidy\ndescription: Tidy things up\n---\nTidy.\n"
			if err := os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte(md), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(agentDir, "settings.json"), []byte(tc.settings), 0o600); err != nil {
				t.Fatal(err)
			}
			ag, err := pi.New(context.Background(), pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model,
				Mode: pi.ModeInteractive, UI: NewUI(), Stderr: &bytes.Buffer{}})
			if err != nil {
				t.Fatal(err)
			}
			defer ag.Close()
			if _, skills := ag.Resources(); len(skills) != 1 {
				t.Fatalf("skills %v, want tidy", skills)
			}
			a, err := newApp(context.Background(), ag, Options{Stdout: &bytes.Buffer{}})
			if err != nil {
				t.Fatal(err)
			}
			got := false
			for _, c := range a.commandList() {
				got = got || c.Name == "skill:tidy"
			}
			if got != tc.want {
				t.Errorf("skill:tidy offered = %v, want %v", got, tc.want)
			}
		})
	}
}
