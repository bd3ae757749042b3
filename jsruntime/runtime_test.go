package jsruntime

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

func TestLoadErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		want string // substring of LoadError.Error()
	}{
		{"syntax error", "export default function (pi) {\n  const x = ;\n}\n", `Failed to load extension: ParseError: Unexpected ";"` + "\n /"},
		{"factory throws", "export default function (pi) {\n  throw new Error(\"boom\");\n}\n", `Failed to load extension: boom`},
		{"async factory rejects", "export default async function (pi) {\n  await null; throw new Error(\"later boom\");\n}\n", `Failed to load extension: later boom`},
		{"no default export", "export const x = 1;\n", `Extension does not export a valid factory function: `},
		{"missing module", "import x from \"not-a-pkg\";\nexport default function (pi) { x; }\n", "Failed to load extension: Cannot find module 'not-a-pkg'\nRequire stack:\n- /"},
		{"missing host subpath", "import x from \"node:nope\";\nexport default function (pi) { x; }\n", "Cannot find module 'node:nope'"},
		{"module-level throw", "throw new TypeError(\"top\");\nexport default function (pi) {}\n", "Failed to load extension: top"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := runTS(t, map[string]string{"ext.ts": tc.src})
			if len(h.loadErrs) != 1 {
				t.Fatalf("load errors = %v, want one", h.loadErrs)
			}
			got := h.loadErrs[0].Error()
			if !strings.Contains(got, tc.want) {
				t.Errorf("error = %q, want it to contain %q", got, tc.want)
			}
			if !strings.HasPrefix(got, `Failed to load extension "`+filepath.Join(h.dir, "ext.ts")+`": `) {
				t.Errorf("error = %q lacks the path prefix", got)
			}
			if len(h.rt.Extensions()) != 0 {
				t.Errorf("a failed extension was kept")
			}
		})
	}
}

func TestSyntaxErrorPosition(t *testing.T) {
	t.Parallel()
	h := runTS(t, map[string]string{"ext.ts": "export default function (pi) {\n  const x = ;\n}\n"})
	var ce *CompileError
	if len(h.loadErrs) != 1 || !errors.As(h.loadErrs[0].Err, &ce) {
		t.Fatalf("load errors = %v, want a CompileError", h.loadErrs)
	}
	// The reference prints "/path/ext.ts:2:12" for this source.
	if want := filepath.Join(h.dir, "ext.ts") + ":2:12"; ce.Position() != want {
		t.Errorf("position = %q, want %q", ce.Position(), want)
	}
}

func TestRegistrations(t *testing.T) {
	t.Parallel()
	h := runTS(t, map[string]string{"ext.ts": `
import { Type } from "typebox";
export default function (pi: any) {
  pi.on("session_start", () => {});
  pi.on("tool_call", async () => ({ block: true }));
  pi.registerTool({ name: "greet", description: "d", parameters: Type.Object({ n: Type.String() }), execute: async () => ({ content: [] }) });
  pi.registerCommand("hi", { description: "say hi", handler: async () => {} });
  pi.registerFlag("plan", { type: "boolean", default: true });
  if (pi.getFlag("plan") !== true) throw new Error("getFlag default");
  pi.registerShortcut("ctrl+x", { handler() {} });
  pi.events.on("x", (d: any) => console.log("got", d));
  pi.events.emit("x", 42);
}`})
	if len(h.loadErrs) != 0 {
		t.Fatal(h.loadErrs)
	}
	ext := h.rt.Extensions()[0]
	var events []string
	for _, hd := range ext.Handlers {
		events = append(events, hd.Event)
	}
	if got := strings.Join(events, ","); got != "session_start,tool_call" {
		t.Errorf("handlers = %s", got)
	}
	if len(ext.Tools) != 1 || ext.Tools[0].Name != "greet" {
		t.Errorf("tools = %+v", ext.Tools)
	}
	if len(ext.Commands) != 1 || ext.Commands[0].Name != "hi" || len(ext.Flags) != 1 || ext.Flags[0].Name != "plan" {
		t.Errorf("commands = %+v flags = %+v", ext.Commands, ext.Flags)
	}
	if len(ext.Calls) != 1 || ext.Calls[0].Method != "registerShortcut" {
		t.Errorf("calls = %+v", ext.Calls)
	}
	h.settle(t)
	if !strings.Contains(h.stderr.String(), "got 42\n") {
		t.Errorf("stderr = %q", h.stderr.String())
	}
}

func TestConflicts(t *testing.T) {
	t.Parallel()
	h := runTS(t, map[string]string{
		"ext.ts": `export default function (pi) { pi.registerTool({ name: "dup" }); pi.registerFlag("f", {}); }`,
		"b.ts":   `export default function (pi) { pi.registerTool({ name: "dup" }); pi.registerFlag("f", {}); }`,
	}, func(o *LoadOptions) { o.Paths = append(o.Paths, "b.ts") })
	a, b := filepath.Join(h.dir, "ext.ts"), filepath.Join(h.dir, "b.ts")
	want := []string{
		fmt.Sprintf(`Failed to load extension %q: Tool "dup" conflicts with %s`, b, a),
		fmt.Sprintf(`Failed to load extension %q: Flag "--f" conflicts with %s`, b, a),
	}
	if len(h.loadErrs) != len(want) {
		t.Fatalf("load errors = %v", h.loadErrs)
	}
	for i, w := range want {
		if h.loadErrs[i].Error() != w {
			t.Errorf("error %d = %q, want %q", i, h.loadErrs[i].Error(), w)
		}
	}
}

func TestEventLoopOrdering(t *testing.T) {
	t.Parallel()
	h := runTS(t, map[string]string{"ext.ts": `
import { setTimeout as sleep } from "node:timers/promises";
export default async function (pi) {
  const log = (s) => console.log(s);
  // Deadlines are far apart so a loaded CI machine cannot make two
  // timers due at once; setTimeout(0) against setImmediate is left out
  // because Node itself does not fix their order.
  setTimeout(() => log("timeout 50"), 50);
  setImmediate(() => log("immediate"));
  Promise.resolve().then(() => log("micro 1"));
  queueMicrotask(() => log("micro 2"));
  process.nextTick(() => log("tick"));
  log("sync");
  await sleep(250);
  log("after sleep");
  const iv = setInterval(() => { log("interval"); clearInterval(iv); }, 1);
  const t = setTimeout(() => log("never"), 1); clearTimeout(t);
}`})
	if len(h.loadErrs) != 0 {
		t.Fatal(h.loadErrs)
	}
	h.settle(t)
	got := h.stderr.String()
	want := "sync\nmicro 1\nmicro 2\ntick\nimmediate\ntimeout 50\nafter sleep\ninterval\n"
	if got != want {
		t.Errorf("order:\n%s\nwant:\n%s", got, want)
	}
}

func TestExtensionErrorsDoNotStopTheHost(t *testing.T) {
	t.Parallel()
	h := runTS(t, map[string]string{"ext.ts": `
export default function (pi) {
  setTimeout(() => { throw new Error("timer threw"); }, 1);
  Promise.reject(new Error("nobody catches"));
  Promise.reject(new Error("caught later")).catch(() => {});
  setTimeout(() => console.log("still alive"), 20);
}`})
	if len(h.loadErrs) != 0 {
		t.Fatal(h.loadErrs)
	}
	h.settle(t)
	path := filepath.Join(h.dir, "ext.ts")
	errs := h.extErrors()
	want := []ExtensionError{
		{Path: path, Event: "unhandledRejection", Error: "nobody catches"},
		{Path: path, Event: "timer", Error: "timer threw"},
	}
	if fmt.Sprint(errs) != fmt.Sprint(want) {
		t.Errorf("errors = %+v, want %+v", errs, want)
	}
	if !strings.Contains(h.stderr.String(), "still alive") {
		t.Errorf("later timer did not run: %q", h.stderr.String())
	}
}

func TestWatchdog(t *testing.T) {
	t.Parallel()
	t.Run("in factory", func(t *testing.T) {
		t.Parallel()
		h := runTS(t, map[string]string{"ext.ts": `export default function (pi) { while (true) {} }`},
			func(o *LoadOptions) { o.Watchdog = 100 * time.Millisecond })
		if len(h.loadErrs) != 1 || !strings.Contains(h.loadErrs[0].Message, "without yielding and was interrupted") {
			t.Fatalf("load errors = %v", h.loadErrs)
		}
	})
	t.Run("in timer", func(t *testing.T) {
		t.Parallel()
		h := runTS(t, map[string]string{"ext.ts": `export default function (pi) {
  setTimeout(() => { for (;;) {} }, 1);
  setTimeout(() => console.log("next task runs"), 5);
}`}, func(o *LoadOptions) { o.Watchdog = 100 * time.Millisecond })
		h.settle(t)
		errs := h.extErrors()
		if len(errs) != 1 || !strings.Contains(errs[0].Error, "interrupted") || errs[0].Path == "" {
			t.Errorf("errors = %+v", errs)
		}
		if !strings.Contains(h.stderr.String(), "next task runs") {
			t.Errorf("loop did not recover: %q", h.stderr.String())
		}
	})
}

func TestConsoleGoesToStderrWriter(t *testing.T) {
	t.Parallel()
	h := runTS(t, map[string]string{"ext.ts": `export default function (pi) {
  console.log("log %s %d", "a", 1, { k: [1, "x"] });
  console.error("err");
  process.stdout.write("raw out\n");
  process.stderr.write("raw err\n");
}`})
	h.settle(t)
	want := "log a 1 { k: [ 1, 'x' ] }\nerr\nraw out\nraw err\n"
	if got := h.stderr.String(); got != want {
		t.Errorf("stderr = %q, want %q", got, want)
	}
}

func TestProcessExitIsReported(t *testing.T) {
	t.Parallel()
	h := runTS(t, map[string]string{"ext.ts": `export default function (pi) { process.exit(3); }`})
	if len(h.loadErrs) != 1 || !strings.Contains(h.loadErrs[0].Message, "process.exit(3)") {
		t.Fatalf("load errors = %v", h.loadErrs)
	}
}

func TestFS(t *testing.T) {
	t.Parallel()
	h := runTS(t, map[string]string{"ext.ts": `
import * as fs from "node:fs";
import { readFile, writeFile, mkdir, readdir, stat, rm } from "node:fs/promises";
import * as path from "path";
export default async function (pi) {
  const d = path.join(process.cwd(), "work", "deep");
  fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(d, "a.txt"), "hello");
  fs.appendFileSync(path.join(d, "a.txt"), " world");
  console.log(fs.readFileSync(path.join(d, "a.txt"), "utf8"), fs.existsSync(path.join(d, "nope")));
  await writeFile(path.join(d, "b.json"), JSON.stringify({ x: 1 }));
  console.log(JSON.parse(await readFile(path.join(d, "b.json"), "utf8")).x);
  const buf = await readFile(path.join(d, "a.txt"));
  console.log(Buffer.isBuffer(buf), buf.length);
  const ents = await readdir(d, { withFileTypes: true });
  console.log(ents.map((e) => e.name + ":" + e.isFile()).join(","));
  console.log((await stat(d)).isDirectory(), fs.statSync(path.join(d, "a.txt")).size);
  try { fs.readFileSync(path.join(d, "missing")); } catch (e) { console.log(e.code, e.message.startsWith("ENOENT: no such file or directory, open")); }
  await new Promise((res) => fs.readFile(path.join(d, "a.txt"), "utf8", (err, s) => { console.log("cb", err, s); res(); }));
  const lines = [];
  const rl = (await import("node:readline")).createInterface({ input: fs.createReadStream(path.join(d, "a.txt")) });
  for await (const l of rl) lines.push(l);
  console.log("lines", lines.length);
  await rm(path.join(process.cwd(), "work"), { recursive: true, force: true });
  console.log(fs.existsSync(d));
}`})
	if len(h.loadErrs) != 0 {
		t.Fatal(h.loadErrs)
	}
	h.settle(t)
	want := "hello world false\n1\ntrue 11\na.txt:true,b.json:true\ntrue 11\nENOENT true\ncb null hello world\nlines 1\nfalse\n"
	if got := h.stderr.String(); got != want {
		t.Errorf("stderr = %q, want %q", got, want)
	}
}

func TestChildProcess(t *testing.T) {
	t.Parallel()
	h := runTS(t, map[string]string{"ext.ts": `
import { spawn, exec, execSync, spawnSync, execFile } from "node:child_process";
import { promisify } from "node:util";
export default async function (pi) {
  const out = await new Promise((resolve) => {
    const p = spawn("sh", ["-c", "echo out; echo err 1>&2; exit 3"]);
    let o = "", e = "";
    p.stdout.on("data", (c) => o += c);
    p.stderr.on("data", (c) => e += c);
    p.on("close", (code) => resolve([o.trim(), e.trim(), code]));
  });
  console.log(JSON.stringify(out));
  const cat = spawn("cat");
  let got = "";
  cat.stdout.setEncoding("utf8");
  cat.stdout.on("data", (c) => got += c);
  cat.stdin.write("piped");
  cat.stdin.end();
  await new Promise((r) => cat.on("exit", r));
  await new Promise((r) => setTimeout(r, 10));
  console.log(got);
  console.log(execSync("echo sync").toString().trim(), spawnSync("sh", ["-c", "exit 2"]).status);
  const { stdout } = await promisify(exec)("echo promisified");
  console.log(stdout.trim());
  await new Promise((r) => execFile("sh", ["-c", "exit 1"], (err) => { console.log("execFile code", err.code); r(); }));
  const bad = spawn("definitely-not-a-command-xyz");
  await new Promise((r) => bad.on("error", (e) => { console.log(e.code); r(); }));
}`})
	if len(h.loadErrs) != 0 {
		t.Fatal(h.loadErrs)
	}
	h.settle(t)
	want := "[\"out\",\"err\",3]\npiped\nsync 2\npromisified\nexecFile code 1\nENOENT\n"
	if got := h.stderr.String(); got != want {
		t.Errorf("stderr = %q, want %q", got, want)
	}
}

func TestFetch(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			<-r.Context().Done()
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Echo", r.Header.Get("X-Test"))
		fmt.Fprintf(w, `{"method":%q,"path":%q}`, r.Method, r.URL.Path)
	}))
	defer srv.Close()
	h := runTS(t, map[string]string{"ext.ts": `
export default async function (pi) {
  const res = await fetch(globalThis.TEST_URL + "/hello", { method: "POST", headers: { "X-Test": "yes" }, body: "b" });
  console.log(res.status, res.ok, res.headers.get("x-echo"), JSON.stringify(await res.json()));
  const ac = new AbortController();
  const p = fetch(globalThis.TEST_URL + "/slow", { signal: ac.signal });
  setTimeout(() => ac.abort(), 10);
  try { await p; } catch (e) { console.log("aborted", e.name); }
}`}, func(o *LoadOptions) {
		o.Host.Setup = func(r *Runtime) error { return r.VM().Set("TEST_URL", srv.URL) }
	})
	if len(h.loadErrs) != 0 {
		t.Fatal(h.loadErrs)
	}
	h.settle(t)
	want := "200 true yes {\"method\":\"POST\",\"path\":\"/hello\"}\naborted AbortError\n"
	if got := h.stderr.String(); got != want {
		t.Errorf("stderr = %q, want %q", got, want)
	}
}

func TestGlobalsAndModules(t *testing.T) {
	t.Parallel()
	h := runTS(t, map[string]string{
		"ext.ts": `
import { fileURLToPath, pathToFileURL } from "node:url";
import { createHash, randomUUID, createHmac } from "node:crypto";
import { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import * as os from "node:os";
import { here, dir } from "./lib/nested";
export default function (pi) {
  console.log(fileURLToPath(import.meta.url).endsWith("/ext.ts"), here.endsWith("/lib/nested.ts"), dir.endsWith("/lib"), __filename.endsWith("/ext.ts"));
  console.log(new URL("grep.md", import.meta.url).href.endsWith("/grep.md") && new URL("grep.md", import.meta.url).href.startsWith("file:///"));
  console.log(pathToFileURL("/a b/c").href);
  console.log(createHash("sha256").update("abc").digest("hex").slice(0, 16), createHmac("sha1", "k").update("m").digest("base64").length);
  console.log(/^[0-9a-f-]{36}$/.test(randomUUID()), typeof crypto.randomUUID());
  const e = new EventEmitter(); e.once("x", (v) => console.log("ev", v)); e.emit("x", 1); e.emit("x", 2);
  console.log(typeof createRequire(import.meta.url)("node:path").join, typeof os.homedir());
  console.log(new TextDecoder().decode(new TextEncoder().encode("héllo")), atob(btoa("hi")));
  const c = structuredClone({ a: [1, { b: new Map([[1, 2]]) }] }); console.log(c.a[1].b.get(1));
  console.log(AbortSignal.timeout(5) instanceof AbortSignal, typeof performance.now());
  console.log(new Intl.NumberFormat("en-US").format(1234567.891), typeof Symbol.asyncIterator);
  console.log(Buffer.from("hi").toString("base64"), typeof Object.groupBy, typeof Promise.withResolvers);
}`,
		"lib/nested.ts": `export const here = import.meta.filename; export const dir = __dirname;`,
	})
	if len(h.loadErrs) != 0 {
		t.Fatal(h.loadErrs)
	}
	h.settle(t)
	want := "true true true true\ntrue\nfile:///a%20b/c\nba7816bf8f01cfea 28\ntrue string\nev 1\nfunction string\nhéllo hi\n2\ntrue number\n1,234,567.891 symbol\naGk= function function\n"
	if got := h.stderr.String(); got != want {
		t.Errorf("stderr = %q, want %q", got, want)
	}
}

func TestRunOnLoopAndReserve(t *testing.T) {
	t.Parallel()
	rt, err := New(LoadOptions{Stderr: &syncBuffer{}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	ctx := context.Background()
	done := make(chan string, 1)
	err = rt.Loop().Do(ctx, func(vm *goja.Runtime) error {
		p, resolve, _ := vm.NewPromise()
		_ = vm.Set("p", p)
		finish := rt.Loop().Reserve()
		go func() { finish(func(*goja.Runtime) { _ = resolve("from goroutine") }) }()
		_, err := vm.RunString(`p.then((v) => globalThis.got = v)`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.Loop().WaitIdle(ctx); err != nil {
		t.Fatal(err)
	}
	_ = rt.Loop().Do(ctx, func(vm *goja.Runtime) error { done <- vm.Get("got").String(); return nil })
	if got := <-done; got != "from goroutine" {
		t.Errorf("got %q", got)
	}
}

func TestMain(m *testing.M) {
	os.Exit(m.Run())
}

func TestLoadDiscoveredSources(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	agent := filepath.Join(dir, "agent")
	for name, src := range map[string]string{
		"agent/extensions/user.ts":       `export default function (pi) { pi.registerCommand("user", {}); }`,
		"proj/.pi/extensions/project.ts": `export default function (pi) { pi.registerCommand("project", {}); }`,
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cwd := filepath.Join(dir, "proj")
	for _, trusted := range []bool{false, true} {
		srcs := Discover(DiscoverOptions{AgentDir: agent, Cwd: cwd, Trusted: trusted})
		rt, lerrs, err := Load(context.Background(), LoadOptions{AgentDir: agent, Cwd: cwd, Sources: srcs, Paths: []string{filepath.Join(agent, "extensions/user.ts")}, Stderr: &syncBuffer{}})
		if err != nil || len(lerrs) > 0 {
			t.Fatal(err, lerrs)
		}
		var names []string
		for _, e := range rt.Extensions() {
			for _, c := range e.Commands {
				names = append(names, c.Name)
			}
		}
		rt.Close()
		want := "user"
		if trusted {
			want = "user,project"
		}
		if strings.Join(names, ",") != want {
			t.Errorf("trusted=%v: commands %v, want %s", trusted, names, want)
		}
	}
}
