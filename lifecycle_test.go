package pi

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/jsruntime"
)

// TestLifecycleHooksInterfaces checks that the forwarding hooks every
// session gets implement each optional hooks interface that the
// extension runtime's own hooks implement: one missing would silently
// turn those events off.
func TestLifecycleHooksInterfaces(t *testing.T) {
	t.Parallel()
	var real engine.Hooks = jsruntime.NewAPI(jsruntime.APIOptions{}).Hooks()
	var fwd engine.Hooks = lifecycleHooks{}
	tests := []struct {
		name string
		is   func(engine.Hooks) bool
	}{
		{"SessionHooks", func(h engine.Hooks) bool { _, ok := h.(engine.SessionHooks); return ok }},
		{"SettleHooks", func(h engine.Hooks) bool { _, ok := h.(engine.SettleHooks); return ok }},
		{"ProviderHooks", func(h engine.Hooks) bool { _, ok := h.(engine.ProviderHooks); return ok }},
		{"ModelSelectHooks", func(h engine.Hooks) bool { _, ok := h.(engine.ModelSelectHooks); return ok }},
		{"SystemContextHooks", func(h engine.Hooks) bool { _, ok := h.(engine.SystemContextHooks); return ok }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.is(real) && !tc.is(fwd) {
				t.Errorf("jsruntime hooks implement %s, lifecycleHooks does not", tc.name)
			}
		})
	}
}

// generationExt registers a command named after a generation number kept
// in a file, and a string flag, and logs session_start and
// resources_discover with the flag's value.
// A module-level counter shows whether the module was evaluated again,
// and every pi object is kept on globalThis for the stale checks.
const generationExt = `import * as fs from "node:fs";
let runs = 0;
export default function (pi) {
	runs++;
	(globalThis.__pis ||= []).push(pi);
	const file = %q, log = %q;
	const gen = (fs.existsSync(file) ? Number(fs.readFileSync(file, "utf8")) : 0) + 1;
	fs.writeFileSync(file, String(gen));
	pi.registerFlag("gen-flag", { type: "string", default: "unset" });
	pi.registerCommand("gen_" + gen, { handler: async () => {} });
	for (const ev of ["session_start", "resources_discover", "session_shutdown"]) {
		pi.on(ev, (e) => fs.appendFileSync(log, ev + " " + e.reason + " gen " + gen + " module " + runs + " flag " + pi.getFlag("gen-flag") + "\n"));
	}
}
`

// TestGenerations replaces the extension generation the way a session
// replacement and a reload do, and checks that the factory ran again
// (new command), module state carried over a replacement but not a
// reload, the CLI flag value carried over, the events reached the new
// generation in order, the old pi throws the stale error while the new
// one works, and both share one VM that stays open.
func TestGenerations(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		reload bool
		want   []string
	}{
		{"replacement", false, []string{"session_start new gen 2 module 2 flag cli", "resources_discover startup gen 2 module 2 flag cli"}},
		{"reload", true, []string{"session_shutdown reload gen 1 module 1 flag cli", "session_start reload gen 2 module 1 flag cli", "resources_discover reload gen 2 module 1 flag cli"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			logPath := filepath.Join(dir, "events.log")
			ext := filepath.Join(dir, "gen.ts")
			src := fmt.Sprintf(generationExt, filepath.Join(dir, "gen.txt"), logPath)
			if err := os.WriteFile(ext, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			app := &Agent{cwd: dir, agentDir: filepath.Join(dir, "agent"), stderr: io.Discard, opts: &Options{}}
			h := &extHost{stderr: io.Discard}
			app.ext = h
			h.load = func(ctx context.Context, reload bool) (*jsruntime.API, *jsruntime.Runtime, []jsruntime.LoadError, error) {
				api := jsruntime.NewAPI(jsruntime.APIOptions{Mode: "print", Cwd: dir})
				if _, prev := h.cur(); prev != nil {
					rt, errs, err := prev.NextGeneration(ctx, api.Host(), reload)
					return api, rt, errs, err
				}
				rt, errs, err := jsruntime.Load(ctx, jsruntime.LoadOptions{AgentDir: app.agentDir, Cwd: dir,
					Sources: []jsruntime.Source{{Path: ext, Scope: jsruntime.ScopeCLI, Source: jsruntime.SourceCLI}},
					Stderr:  io.Discard, Host: api.Host()})
				return api, rt, errs, err
			}
			api, rt, errs, err := h.load(context.Background(), false)
			if err != nil || len(errs) > 0 {
				t.Fatalf("load: %v %v", err, errs)
			}
			h.api, h.rt = api, rt
			h.setFlag(flagSet{name: "gen-flag", value: "cli"})
			if err := os.WriteFile(logPath, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.reload {
				if err := app.reloadExtensions(context.Background()); err != nil {
					t.Fatal(err)
				}
			} else {
				app.nextGeneration(context.Background(), false)
				app.startGeneration(context.Background(), nil, "new", "", "startup")
			}
			newAPI, _ := h.cur()
			if newAPI == api {
				t.Fatal("no new generation")
			}
			var names []string
			for _, c := range newAPI.Commands(context.Background()) {
				names = append(names, c.Name)
			}
			if strings.Join(names, ",") != "gen_2" {
				t.Errorf("commands = %v, want [gen_2]", names)
			}
			b, _ := os.ReadFile(logPath)
			if got := strings.Split(strings.TrimSpace(string(b)), "\n"); strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("events:\n got %q\nwant %q", got, tc.want)
			}
			_, newRT := h.cur()
			if newRT.VM() != rt.VM() {
				t.Error("the new generation has a VM of its own")
			}
			var stale []string
			err = rt.Loop().Do(context.Background(), func(vm *goja.Runtime) error {
				v, err := vm.RunString(`globalThis.__pis.map((pi) => { try { pi.getFlag("gen-flag"); return "ok"; } catch (e) { return e.message; } })`)
				if err != nil {
					return err
				}
				return vm.ExportTo(v, &stale)
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(stale) != 2 || stale[0] != jsruntime.StaleMessage || stale[1] != "ok" {
				t.Errorf("getFlag of the old and new pi = %q, want the stale error, then ok", stale)
			}
			rt.Close()
		})
	}
}
