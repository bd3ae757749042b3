package jsruntime

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

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
			r := NewRunner(RunnerOptions{
				AgentDir: filepath.Join(dir, "agent"), Cwd: dir, Stderr: io.Discard,
				Sources: func() []Source { return []Source{{Path: ext, Scope: ScopeCLI, Source: SourceCLI}} },
				API:     func() APIOptions { return APIOptions{Mode: "print", Cwd: dir} },
			})
			if errs, err := r.Load(context.Background()); err != nil || len(errs) > 0 {
				t.Fatalf("load: %v %v", err, errs)
			}
			api, rt := r.Current()
			if rest, bad := r.ClaimFlags([]Flag{{Name: "gen-flag", Value: "cli"}}); len(rest)+len(bad) > 0 {
				t.Fatalf("flags left %v %v", rest, bad)
			}
			if err := os.WriteFile(logPath, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			reason, discover := "new", "startup"
			if tc.reload {
				// What the agent's ctx.reload does around the runner.
				api.Emit(ctx, "session_shutdown", Field{Key: "reason", Value: "reload"})
				reason, discover = "reload", "reload"
			}
			r.NextGeneration(ctx, tc.reload)
			r.StartGeneration(ctx, nil, reason, "", nil, func() {
				cur, _ := r.Current()
				cur.DiscoverResources(ctx, dir, discover)
			})
			newAPI, _ := r.Current()
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
			_, newRT := r.Current()
			if newRT.VM() != rt.VM() {
				t.Error("the new generation has a VM of its own")
			}
			var stale []string
			err := rt.Loop().Do(context.Background(), func(vm *goja.Runtime) error {
				v, err := vm.RunString(`globalThis.__pis.map((pi) => { try { pi.getFlag("gen-flag"); return "ok"; } catch (e) { return e.message; } })`)
				if err != nil {
					return err
				}
				return vm.ExportTo(v, &stale)
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(stale) != 2 || stale[0] != StaleMessage || stale[1] != "ok" {
				t.Errorf("getFlag of the old and new pi = %q, want the stale error, then ok", stale)
			}
			rt.Close()
		})
	}
}
