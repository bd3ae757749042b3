package pi_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

// The docs section sent to the model names files unpacked under the agent
// directory's cache; when that cache cannot be written (a file where its
// folder should be), the agent still starts and prompts, without the
// section and without an error.
func TestDocsSectionFollowsCache(t *testing.T) {
	t.Setenv("PI_PACKAGE_DIR", "")
	tests := []struct {
		name     string
		breakIt  bool
		wantDocs bool
	}{
		{"cache written", false, true},
		{"cache path is a file", true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			agentDir, project, srv := sdktest.Home(t, mockllm.Script{Turns: []mockllm.Turn{{Text: "ok"}}})
			if tc.breakIt {
				if err := os.WriteFile(filepath.Join(agentDir, "cache"), []byte("x"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			agent, err := pi.New(context.Background(), pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model, NoSession: true})
			if err != nil {
				t.Fatal(err)
			}
			defer agent.Close()
			if err := agent.Prompt(context.Background(), "hi", nil); err != nil {
				t.Fatal(err)
			}
			body := string(srv.Requests()[0].Body)
			cache := regexp.QuoteMeta(filepath.Join(agentDir, "cache", "docs"))
			paths := regexp.MustCompile(cache+`/[0-9a-f]+/[A-Za-z-]+\.md`).FindAllString(body, -1)
			if !tc.wantDocs {
				if regexp.MustCompile(`Documentation for pi itself`).MatchString(body) || len(paths) > 0 {
					t.Fatalf("docs section sent with a broken cache: %s", body)
				}
				return
			}
			if len(paths) < 7 {
				t.Fatalf("docs paths %v in %s", paths, body)
			}
			for _, p := range paths {
				if _, err := os.Stat(p); err != nil {
					t.Errorf("the prompt names %s: %v", p, err)
				}
			}
		})
	}
}
