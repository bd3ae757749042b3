package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRadiusStoredCatalog: a Radius account's model list kept in
// models-store.json by its last refresh replaces the shipped catalog at
// start, offline, as the reference's --list-models shows it.
func TestRadiusStoredCatalog(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "openai-completions", `[]`, nil)
	if err := os.WriteFile(filepath.Join(e.agentDir, "auth.json"), []byte(`{"radius":{"type":"api_key","key":"rk-123456789"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	before := e.run("", "--list-models", "radius")
	if before.code != 0 || strings.Contains(before.stdout, "team-model") || !strings.Contains(before.stdout, "radius") {
		t.Fatalf("shipped catalog: %+v", before)
	}
	store := `{"radius":{"models":[{"id":"team-model","name":"Team","api":"pi-messages","provider":"radius","baseUrl":"https://radius.test/v1","reasoning":false,"input":["text"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":1000,"maxTokens":100}],"checkedAt":1}}`
	if err := os.WriteFile(filepath.Join(e.agentDir, "models-store.json"), []byte(store), 0o600); err != nil {
		t.Fatal(err)
	}
	after := e.run("", "--list-models", "radius")
	want := "provider  model       context  max-out  thinking  images\nradius    team-model  1K       100      no        no    \n"
	if after.code != 0 || after.stdout != want {
		t.Errorf("stored catalog:\n%q\nwant\n%q", after.stdout, want)
	}
}
