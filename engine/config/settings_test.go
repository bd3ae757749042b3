package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadMerge(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		global      string
		project     string // .pi/settings.json
		alias       string // .pi/agent/settings.json
		trusted     bool
		check       func(t *testing.T, s *Settings)
		wantWarning string
	}{
		{
			name: "defaults",
			check: func(t *testing.T, s *Settings) {
				if l, set := s.DefaultThinkingLevel(); l != "medium" || set {
					t.Errorf("thinking %q %v", l, set)
				}
				if s.SteeringMode() != "one-at-a-time" || s.FollowUpMode() != "one-at-a-time" {
					t.Error("queue modes")
				}
				if got := s.Retry(); got != (RetrySettings{true, 3, 2000, 60000}) {
					t.Errorf("retry %+v", got)
				}
				if got := s.Compaction(); got != (CompactionSettings{true, 16384, 20000}) {
					t.Errorf("compaction %+v", got)
				}
				pr := s.ProviderRetry()
				if pr.TimeoutMs != nil || pr.MaxRetries != nil || pr.MaxRetryDelayMs != 60000 {
					t.Errorf("provider retry %+v", pr)
				}
				if n, err := s.HTTPIdleTimeoutMs(); n != 300000 || err != nil {
					t.Errorf("idle %d %v", n, err)
				}
				if _, ok := s.DefaultTools(); ok {
					t.Error("defaultTools set")
				}
				if s.DefaultProjectTrust() != "ask" || !s.ImagesAutoResize() || s.Transport() != "auto" {
					t.Error("misc defaults")
				}
				if b := s.ThinkingBudgets(); b[engine.ThinkingMedium] != 8192 || b[engine.ThinkingHigh] != 16384 {
					t.Errorf("budgets %v", b)
				}
			},
		},
		{
			name:    "deep merge project over global",
			global:  `{"retry":{"enabled":false,"maxRetries":7},"steeringMode":"all","enabledModels":["a","b"],"modelThinkingLevels":{"openai/gpt-4.1":"high"}}`,
			project: `{"retry":{"maxRetries":9},"enabledModels":["c"],"defaultModel":"M"}`,
			trusted: true,
			check: func(t *testing.T, s *Settings) {
				if got := s.Retry(); got.Enabled || got.MaxRetries != 9 || got.BaseDelayMs != 2000 {
					t.Errorf("retry %+v", got)
				}
				if s.SteeringMode() != "all" || s.DefaultModel() != "M" {
					t.Error("scalars")
				}
				if got := s.EnabledModels(); !reflect.DeepEqual(got, []string{"c"}) {
					t.Errorf("arrays replace: %v", got)
				}
				if l, ok := s.ModelThinkingLevel("openai", "gpt-4.1"); !ok || l != "high" {
					t.Errorf("model thinking %q", l)
				}
				if v := s.Raw("modelThinkingLevels.openai/gpt-4.1"); v != "high" {
					t.Errorf("raw dotted key %v", v)
				}
			},
		},
		{
			name:    "untrusted project ignored",
			global:  `{"defaultModel":"G"}`,
			project: `{"defaultModel":"P"}`,
			check: func(t *testing.T, s *Settings) {
				if s.DefaultModel() != "G" {
					t.Error(s.DefaultModel())
				}
			},
		},
		{
			name:    "alias folder read, .pi wins",
			alias:   `{"defaultModel":"A","defaultProvider":"pa"}`,
			project: `{"defaultModel":"P"}`,
			trusted: true,
			check: func(t *testing.T, s *Settings) {
				if s.DefaultModel() != "P" || s.DefaultProvider() != "pa" {
					t.Error(s.DefaultModel(), s.DefaultProvider())
				}
			},
		},
		{
			name:    "global-only keys",
			global:  `{"defaultProjectTrust":"never"}`,
			project: `{"defaultProjectTrust":"always","httpProxy":"http://x"}`,
			trusted: true,
			check: func(t *testing.T, s *Settings) {
				if s.DefaultProjectTrust() != "never" || s.HTTPProxy() != "" {
					t.Error(s.DefaultProjectTrust(), s.HTTPProxy())
				}
			},
		},
		{
			name:    "defaultTools modifiers append",
			global:  `{"defaultTools":["read","grep"]}`,
			project: `{"defaultTools":["+ls","-read"]}`,
			trusted: true,
			check: func(t *testing.T, s *Settings) {
				got, ok := s.DefaultTools()
				if !ok || !reflect.DeepEqual(got, []string{"grep", "ls"}) {
					t.Errorf("%v", got)
				}
			},
		},
		{
			name:   "defaultTools only modifiers over builtin default",
			global: `{"defaultTools":["+grep","-edit"]}`,
			check: func(t *testing.T, s *Settings) {
				got, _ := s.DefaultTools()
				if !reflect.DeepEqual(got, []string{"read", "bash", "write", "grep"}) {
					t.Errorf("%v", got)
				}
			},
		},
		{
			name:   "legacy queueMode and timeout string",
			global: `{"queueMode":"all","httpIdleTimeoutMs":"disabled","retry":{"provider":{"timeoutMs":5000}}}`,
			check: func(t *testing.T, s *Settings) {
				if s.SteeringMode() != "all" {
					t.Error(s.SteeringMode())
				}
				if n, err := s.HTTPIdleTimeoutMs(); n != 0 || err != nil {
					t.Error(n, err)
				}
				if pr := s.ProviderRetry(); pr.TimeoutMs == nil || *pr.TimeoutMs != 5000 {
					t.Error("provider timeout")
				}
			},
		},
		{
			name:        "malformed global is a warning",
			global:      `{"steeringMode": "all",`,
			wantWarning: "Invalid settings file ",
			check: func(t *testing.T, s *Settings) {
				if s.SteeringMode() != "one-at-a-time" {
					t.Error("defaults expected")
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			agent, cwd := t.TempDir(), t.TempDir()
			if tt.global != "" {
				writeFile(t, filepath.Join(agent, "settings.json"), tt.global)
			}
			if tt.project != "" {
				writeFile(t, filepath.Join(cwd, ".pi", "settings.json"), tt.project)
			}
			if tt.alias != "" {
				writeFile(t, filepath.Join(cwd, ".pi", "agent", "settings.json"), tt.alias)
			}
			s, err := Load(agent, cwd, tt.trusted)
			if err != nil {
				t.Fatal(err)
			}
			w := s.Warnings()
			if tt.wantWarning == "" && len(w) > 0 {
				t.Errorf("warnings %v", w)
			}
			if tt.wantWarning != "" && (len(w) != 1 || !strings.HasPrefix(w[0], tt.wantWarning)) {
				t.Errorf("warnings %v", w)
			}
			tt.check(t, s)
		})
	}
}

func TestSetGlobalPreservesFile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		initial string // "" = no file
		sets    [][2]any
		want    string
	}{
		{
			name:    "reference transcript",
			initial: "{\n  \"zeta\": 1,\n  \"retry\": {\"maxRetries\": 5},\n  \"unknownKey\": [1,2]\n}",
			sets:    [][2]any{{"steeringMode", "all"}, {"retry.enabled", false}, {"compaction.enabled", false}},
			want:    "{\n  \"zeta\": 1,\n  \"retry\": {\n    \"maxRetries\": 5,\n    \"enabled\": false\n  },\n  \"unknownKey\": [\n    1,\n    2\n  ],\n  \"steeringMode\": \"all\",\n  \"compaction\": {\n    \"enabled\": false\n  }\n}",
		},
		{
			name: "new file",
			sets: [][2]any{{"steeringMode", "all"}, {"followUpMode", "all"}, {"compaction.enabled", false}, {"retry.enabled", true}},
			want: "{\n  \"steeringMode\": \"all\",\n  \"followUpMode\": \"all\",\n  \"compaction\": {\n    \"enabled\": false\n  },\n  \"retry\": {\n    \"enabled\": true\n  }\n}",
		},
		{
			name:    "camelCase kept, existing value replaced in place",
			initial: `{"defaultProvider":"x","steeringMode":"one-at-a-time","Weird.Key":{"a":1}}`,
			sets:    [][2]any{{"steeringMode", "all"}},
			want:    "{\n  \"defaultProvider\": \"x\",\n  \"steeringMode\": \"all\",\n  \"Weird.Key\": {\n    \"a\": 1\n  }\n}",
		},
		{
			name:    "scalar in the way becomes an object",
			initial: `{"retry":true}`,
			sets:    [][2]any{{"retry.enabled", false}},
			want:    "{\n  \"retry\": {\n    \"enabled\": false\n  }\n}",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			agent := t.TempDir()
			p := filepath.Join(agent, "settings.json")
			if tt.initial != "" {
				writeFile(t, p, tt.initial)
			}
			s, err := Load(agent, "", false)
			if err != nil {
				t.Fatal(err)
			}
			for _, kv := range tt.sets {
				if err := s.SetGlobal(kv[0].(string), kv[1]); err != nil {
					t.Fatal(err)
				}
			}
			got, _ := os.ReadFile(p)
			if string(got) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			// The in-memory view follows the write.
			s2, _ := Load(agent, "", false)
			for _, kv := range tt.sets {
				if v := s2.Raw(kv[0].(string)); v != kv[1] {
					t.Errorf("reload %s = %v", kv[0], v)
				}
				if v := s.Raw(kv[0].(string)); v != kv[1] {
					t.Errorf("memory %s = %v", kv[0], v)
				}
			}
		})
	}
}

func TestSetGlobalRefusesMalformed(t *testing.T) {
	t.Parallel()
	agent := t.TempDir()
	p := filepath.Join(agent, "settings.json")
	writeFile(t, p, `{"a":`)
	s, err := Load(agent, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetGlobal("steeringMode", "all"); err == nil {
		t.Fatal("expected an error")
	}
	got, _ := os.ReadFile(p)
	if string(got) != `{"a":` {
		t.Errorf("file changed: %s", got)
	}
}

func TestSessionDirIgnoresTrust(t *testing.T) {
	t.Parallel()
	agent, cwd := t.TempDir(), t.TempDir()
	if got := SessionDir(agent, cwd, ""); got != filepath.Join(agent, "sessions") {
		t.Errorf("default %s", got)
	}
	writeFile(t, filepath.Join(cwd, ".pi", "settings.json"), `{"sessionDir":"/x/proj-sessions"}`)
	if got := SessionDir(agent, cwd, ""); got != "/x/proj-sessions" {
		t.Errorf("project setting %s", got)
	}
	if got := SessionDir(agent, cwd, "/flag"); got != "/flag" {
		t.Errorf("flag %s", got)
	}
}

func TestLoadUnreadableIsWarning(t *testing.T) {
	t.Parallel()
	agent := t.TempDir()
	if err := os.MkdirAll(filepath.Join(agent, "settings.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := Load(agent, "", false)
	if err != nil || len(s.Warnings()) != 1 || s.SteeringMode() != "one-at-a-time" {
		t.Fatalf("err %v warnings %v", err, s.Warnings())
	}
}
