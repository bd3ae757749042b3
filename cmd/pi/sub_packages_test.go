package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/pi-go/pi/packages/npmtest"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// piBinary builds this command once for the tests that run it.
func piBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "pi-bin-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "pi")
		_, file, _, _ := runtime.Caller(0)
		cmd := exec.Command("go", "build", "-o", binPath, ".")
		cmd.Dir = filepath.Dir(file)
		if out, err := cmd.CombinedOutput(); err != nil {
			binErr = err
			t.Logf("%s", out)
		}
	})
	if binErr != nil {
		t.Fatalf("build pi: %v", binErr)
	}
	return binPath
}

// piEnv is a throwaway HOME and project whose npm registry is reg.
type piEnv struct {
	t         *testing.T
	home, cwd string
	env       []string
}

func newPiEnv(t *testing.T, reg *npmtest.Registry) *piEnv {
	home := t.TempDir()
	cwd := filepath.Join(home, "proj")
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "npm_config_registry=" + reg.URLSlash()}
	return &piEnv{t: t, home: home, cwd: cwd, env: env}
}

func (e *piEnv) run(stdin string, args ...string) (stdout, stderr string, code int) {
	e.t.Helper()
	cmd := exec.Command(piBinary(e.t), args...)
	cmd.Dir, cmd.Env = e.cwd, e.env
	cmd.Stdin = strings.NewReader(stdin)
	var o, er bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &er
	err := cmd.Run()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		e.t.Fatal(err)
	}
	return o.String(), er.String(), code
}

// commands asks `pi --mode rpc` for get_commands and returns them.
func (e *piEnv) commands() []map[string]any {
	e.t.Helper()
	out, errOut, _ := e.run(`{"type":"get_commands","id":"1"}`+"\n", "--mode", "rpc")
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var r struct {
			ID   string `json:"id"`
			Data struct {
				Commands []map[string]any `json:"commands"`
			} `json:"data"`
		}
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.ID == "1" {
			return r.Data.Commands
		}
	}
	e.t.Fatalf("no get_commands response; stdout %q stderr %q", out, errOut)
	return nil
}

func findCommand(cmds []map[string]any, name string) map[string]any {
	for _, c := range cmds {
		if c["name"] == name {
			return c
		}
	}
	return nil
}

// TestPackageLifecycle runs the binary as a user would: pi install
// npm:<pkg> against a local registry records it in settings, its
// extension, skill and template reach get_commands in RPC mode with the
// reference's package sourceInfo, pi list shows it, pi remove removes it
// and its resources are gone.
func TestPackageLifecycle(t *testing.T) {
	t.Parallel()
	reg := npmtest.New(t)
	reg.Publish(npmtest.Pkg{Name: "dep-a", Version: "1.0.0", Files: map[string]string{"index.js": "module.exports = 'dep';"}})
	reg.Publish(npmtest.Pkg{Name: "pi-hello", Version: "1.0.0", Dependencies: map[string]string{"dep-a": "^1.0.0"},
		Files: map[string]string{
			"extensions/hello.ts":   `import dep from "dep-a"; export default function (pi) { pi.registerCommand("hello", { description: "say " + dep, handler: async () => {} }); }`,
			"skills/greet/SKILL.md": "---\nname: greet\ndescription: Greets\n---\nhi\n",
			"prompts/wave.md":       "---\ndescription: wave\n---\nwave\n",
		}})
	e := newPiEnv(t, reg)
	out, errOut, code := e.run("", "install", "npm:pi-hello")
	if code != 0 || out != "Installing npm:pi-hello...\nInstalled npm:pi-hello\n" {
		t.Fatalf("install: code %d stdout %q stderr %q", code, out, errOut)
	}
	settings, _ := os.ReadFile(filepath.Join(e.home, ".pi", "agent", "settings.json"))
	if string(settings) != "{\n  \"packages\": [\n    \"npm:pi-hello\"\n  ]\n}" {
		t.Errorf("settings.json = %q", settings)
	}
	pkgRoot := filepath.Join(e.home, ".pi", "agent", "npm", "node_modules", "pi-hello")
	cmds := e.commands()
	hello := findCommand(cmds, "hello")
	if hello == nil {
		t.Fatalf("hello not in get_commands: %v", cmds)
	}
	if hello["description"] != "say dep" {
		t.Errorf("the extension's dependency did not load: %v", hello)
	}
	info, _ := hello["sourceInfo"].(map[string]any)
	want := map[string]any{"path": filepath.Join(pkgRoot, "extensions", "hello.ts"), "source": "npm:pi-hello", "scope": "user", "origin": "package", "baseDir": pkgRoot}
	for k, v := range want {
		if info[k] != v {
			t.Errorf("sourceInfo.%s = %v, want %v", k, info[k], v)
		}
	}
	for _, n := range []string{"skill:greet", "wave"} {
		c := findCommand(cmds, n)
		if c == nil {
			t.Errorf("%s not in get_commands", n)
			continue
		}
		if si, _ := c["sourceInfo"].(map[string]any); si["origin"] != "package" || si["source"] != "npm:pi-hello" {
			t.Errorf("%s sourceInfo = %v", n, si)
		}
	}
	// -ne keeps the package's skills and templates, not its extension.
	out, _, _ = e.run(`{"type":"get_commands","id":"1"}`+"\n", "--mode", "rpc", "-ne")
	if strings.Contains(out, `"name":"hello"`) || !strings.Contains(out, `"name":"skill:greet"`) {
		t.Errorf("-ne: %s", out)
	}
	out, _, code = e.run("", "list")
	if code != 0 || out != "User packages:\n  npm:pi-hello\n    "+pkgRoot+"\n" {
		t.Errorf("list: %d %q", code, out)
	}
	out, errOut, code = e.run("", "remove", "npm:pi-hello")
	if code != 0 || out != "Removing npm:pi-hello...\nRemoved npm:pi-hello\n" {
		t.Errorf("remove: %d %q %q", code, out, errOut)
	}
	if findCommand(e.commands(), "hello") != nil {
		t.Error("hello still loads after remove")
	}
	out, _, _ = e.run("", "list")
	if out != "No packages installed.\n" {
		t.Errorf("list after remove: %q", out)
	}
	_, errOut, code = e.run("", "remove", "npm:pi-hello")
	if code != 1 || errOut != "No matching package found for npm:pi-hello\n" {
		t.Errorf("second remove: %d %q", code, errOut)
	}
}

// TestLoadsReferenceInstall lays out an install exactly as the reference
// (npm 11) leaves one, hidden lockfile included, and checks that this
// binary loads it and lists it without reinstalling.
func TestLoadsReferenceInstall(t *testing.T) {
	t.Parallel()
	reg := npmtest.New(t)
	e := newPiEnv(t, reg)
	npmRoot := filepath.Join(e.home, ".pi", "agent", "npm")
	files := map[string]string{
		"../settings.json":                        "{\n  \"packages\": [\n    \"npm:pi-ref\"\n  ]\n}",
		".gitignore":                              "*\n!.gitignore\n",
		"package.json":                            "{\n  \"name\": \"pi-extensions\",\n  \"private\": true,\n  \"dependencies\": {\n    \"pi-ref\": \"^1.0.0\"\n  }\n}\n",
		"package-lock.json":                       `{"name":"pi-extensions","lockfileVersion":3,"requires":true,"packages":{"":{"name":"pi-extensions","dependencies":{"pi-ref":"^1.0.0"}},"node_modules/pi-ref":{"version":"1.0.0","resolved":"http://127.0.0.1:1/pi-ref/-/pi-ref-1.0.0.tgz","integrity":"sha512-x"}}}`,
		"node_modules/.package-lock.json":         `{"name":"pi-extensions","lockfileVersion":3,"requires":true,"packages":{"node_modules/pi-ref":{"version":"1.0.0"}}}`,
		"node_modules/pi-ref/package.json":        `{"name":"pi-ref","version":"1.0.0","pi":{"extensions":["./src/main.ts"]}}`,
		"node_modules/pi-ref/src/main.ts":         `export default function (pi) { pi.registerCommand("refcmd", { description: "from the reference", handler: async () => {} }); }`,
		"node_modules/pi-ref/extensions/other.ts": `export default function (pi) { pi.registerCommand("notme", { handler: async () => {} }); }`,
	}
	for p, body := range files {
		full := filepath.Join(npmRoot, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmds := e.commands()
	if findCommand(cmds, "refcmd") == nil {
		t.Fatalf("the reference's install did not load: %v", cmds)
	}
	if findCommand(cmds, "notme") != nil {
		t.Error("a file outside the manifest's list loaded")
	}
	if len(reg.Requests()) != 0 {
		t.Errorf("loading an installed package asked the registry: %v", reg.Requests())
	}
}

// TestPackageCommandErrors checks the usage errors and their exit codes
// against what the reference prints.
func TestPackageCommandErrors(t *testing.T) {
	t.Parallel()
	reg := npmtest.New(t)
	e := newPiEnv(t, reg)
	tests := []struct {
		args         []string
		code         int
		stdout, errs string
	}{
		{[]string{"install"}, 1, "", "Missing install source.\nUsage: pi install <source> [-l] [--approve|--no-approve]\n"},
		{[]string{"install", "--bogus", "x"}, 1, "", "Unknown option --bogus for \"install\".\nUse \"pi --help\" or \"pi install <source> [-l] [--approve|--no-approve]\".\n"},
		{[]string{"install", "a", "b"}, 1, "", "Unexpected argument b.\nUsage: pi install <source> [-l] [--approve|--no-approve]\n"},
		{[]string{"list", "-l"}, 1, "", "Unknown option -l for \"list\".\nUse \"pi --help\" or \"pi list [--approve|--no-approve]\".\n"},
		{[]string{"update", "--all", "--models"}, 1, "", "--all cannot be combined with --self, --extensions, --models, or --extension\nUsage: pi update [source|self|pi] [--self|--extensions|--models|--all] [--extension <source>] [--approve|--no-approve] [--force]\n"},
		{[]string{"update", "--extensions"}, 0, "Packages are already up to date\n", ""},
		{[]string{"uninstall", "npm:nope"}, 1, "Removing npm:nope...\n", "No matching package found for npm:nope\n"},
		{[]string{"config", "-x"}, 1, "", "Unknown option -x for \"config\".\nUse \"pi --help\" or \"pi config [-l] [--approve|--no-approve]\".\n"},
		{[]string{"install", "./missing"}, 1, "Installing ./missing...\n", "Error: Path does not exist: " + filepath.Join(e.cwd, "missing") + "\n"},
	}
	for _, tt := range tests {
		out, errOut, code := e.run("", tt.args...)
		if code != tt.code || out != tt.stdout || errOut != tt.errs {
			t.Errorf("pi %s: code %d stdout %q stderr %q; want %d %q %q", strings.Join(tt.args, " "), code, out, errOut, tt.code, tt.stdout, tt.errs)
		}
	}
	out, _, code := e.run("", "install", "--help")
	if code != 0 || !strings.HasPrefix(out, "Usage:\n  pi install <source> [-l] [--approve|--no-approve]\n") {
		t.Errorf("install --help: %d %q", code, out)
	}
}

// TestTemporaryPackages checks -e npm:<pkg> (installed under
// ~/.pi/agent/tmp/extensions/npm/<hash>/, as the reference places it, and
// not recorded in settings) and -e <package folder> (all of its
// resources load), each labelled as the reference labels them.
func TestTemporaryPackages(t *testing.T) {
	t.Parallel()
	reg := npmtest.New(t)
	reg.Publish(npmtest.Pkg{Name: "pi-tmp", Version: "1.0.0", Files: map[string]string{
		"extensions/hello.ts": `export default function (pi) { pi.registerCommand("hello", { description: "hi", handler: async () => {} }); }`,
		"prompts/wave.md":     "---\ndescription: wave\n---\nwave\n",
	}})
	e := newPiEnv(t, reg)
	out, errOut, _ := e.run(`{"type":"get_commands","id":"1"}`+"\n", "--mode", "rpc", "-e", "npm:pi-tmp")
	root := filepath.Join(e.home, ".pi", "agent", "tmp", "extensions", "npm", "f35b2129", "node_modules", "pi-tmp")
	if !strings.Contains(out, `"sourceInfo":{"path":"`+filepath.Join(root, "extensions", "hello.ts")+`","source":"cli","scope":"temporary","origin":"top-level"}`) {
		t.Errorf("-e npm: extension: %s %s", out, errOut)
	}
	if !strings.Contains(out, `"source":"npm:pi-tmp","scope":"temporary","origin":"package","baseDir":"`+root+`"`) {
		t.Errorf("-e npm: template: %s", out)
	}
	if _, err := os.Stat(filepath.Join(e.home, ".pi", "agent", "settings.json")); err == nil {
		t.Error("-e wrote settings")
	}
	dir := filepath.Join(e.cwd, "lp")
	if err := os.CopyFS(dir, os.DirFS(root)); err != nil {
		t.Fatal(err)
	}
	out, errOut, _ = e.run(`{"type":"get_commands","id":"1"}`+"\n", "--mode", "rpc", "-e", "./lp")
	if !strings.Contains(out, `"name":"hello"`) || !strings.Contains(out, `"source":"`+dir+`","scope":"temporary","origin":"package"`) {
		t.Errorf("-e <package folder>: %s %s", out, errOut)
	}
}
