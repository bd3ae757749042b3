package config

import (
	"os"
	"path/filepath"
	"testing"
)

func TestProjectTrusted(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	tests := []struct {
		name      string
		resources []string // created under cwd
		saved     *bool    // saved decision for cwd
		savedUp   *bool    // saved decision for cwd's parent
		def       string   // global defaultProjectTrust
		flags     TrustFlags
		want      bool
	}{
		{name: "no resources", want: true},
		{name: "bare .pi dir needs no trust", resources: []string{".pi/"}, want: true},
		{name: "no resources but saved false", saved: &no, want: false},
		{name: "settings undecided is skipped", resources: []string{".pi/settings.json"}, want: false},
		{name: "alias folder is gated", resources: []string{".pi/agent/"}, want: false},
		{name: "agents skills is gated", resources: []string{".agents/skills/"}, want: false},
		{name: "--approve", resources: []string{".pi/extensions/"}, flags: TrustFlags{Approve: true}, want: true},
		{name: "--no-approve beats saved", resources: []string{".pi/extensions/"}, saved: &yes, flags: TrustFlags{NoApprove: true}, want: false},
		{name: "saved true", resources: []string{".pi/prompts/"}, saved: &yes, want: true},
		{name: "saved on parent", resources: []string{".pi/SYSTEM.md"}, savedUp: &yes, want: true},
		{name: "saved false beats always", resources: []string{".pi/skills/"}, saved: &no, def: "always", want: false},
		{name: "always", resources: []string{".pi/skills/"}, def: "always", want: true},
		{name: "never", resources: []string{".pi/skills/"}, def: "never", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			agent, root := t.TempDir(), t.TempDir()
			cwd := filepath.Join(root, "proj")
			if err := os.MkdirAll(cwd, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, r := range tt.resources {
				p := filepath.Join(cwd, r)
				if r[len(r)-1] == '/' {
					if err := os.MkdirAll(p, 0o755); err != nil {
						t.Fatal(err)
					}
				} else {
					writeFile(t, p, "{}")
				}
			}
			store := NewTrust(agent)
			if tt.saved != nil {
				if err := store.Set(cwd, tt.saved); err != nil {
					t.Fatal(err)
				}
			}
			if tt.savedUp != nil {
				if err := store.Set(root, tt.savedUp); err != nil {
					t.Fatal(err)
				}
			}
			var s *Settings
			if tt.def != "" {
				s = FromMaps(map[string]any{"defaultProjectTrust": tt.def}, nil)
			}
			before, _ := os.ReadFile(filepath.Join(agent, "trust.json"))
			got, err := ProjectTrusted(agent, cwd, tt.flags, s)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("trusted = %v, want %v", got, tt.want)
			}
			after, _ := os.ReadFile(filepath.Join(agent, "trust.json"))
			if string(before) != string(after) {
				t.Error("ProjectTrusted must not write trust.json")
			}
		})
	}
}

func TestTrustStoreFile(t *testing.T) {
	t.Parallel()
	agent := t.TempDir()
	store := NewTrust(agent)
	yes, no := true, false
	if err := store.Set("/b/proj", &yes); err != nil {
		t.Fatal(err)
	}
	if err := store.Set("/a/proj", &no); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(agent, "trust.json"))
	want := "{\n  \"/a/proj\": false,\n  \"/b/proj\": true\n}\n"
	if string(got) != want {
		t.Errorf("got %q want %q", got, want)
	}
	if err := store.Set("/a/proj", nil); err != nil {
		t.Fatal(err)
	}
	if v, ok, _ := store.Get("/a/proj/sub"); ok {
		t.Errorf("removed decision still found: %v", v)
	}
	if v, ok, _ := store.Get("/b/proj/sub/deeper"); !ok || !v {
		t.Error("ancestor decision not found")
	}
	writeFile(t, filepath.Join(agent, "trust.json"), `{"/x": "yes"}`)
	if _, _, err := store.Get("/x"); err == nil {
		t.Error("invalid value accepted")
	}
}
