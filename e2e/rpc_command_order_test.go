package e2e_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRPCExtensionCommandsStartInArrivalOrder: two prompts naming an
// extension command, sent back to back, are not serialised (the second
// handler starts while the first waits, as in the reference), but they
// start in the order the lines came, as the reference's handlers do.
func TestRPCExtensionCommandsStartInArrivalOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "openai-completions", `[]`, nil)
	e.write("slow.ts", `export default function (pi) {
  pi.registerCommand("slow", { handler: async (args, ctx) => {
    ctx.ui.notify("start " + args);
    await new Promise((r) => setTimeout(r, 200));
    ctx.ui.notify("end " + args);
  } });
}`)
	in := `{"id":"1","type":"prompt","message":"/slow a"}` + "\n" + `{"id":"2","type":"prompt","message":"/slow b"}` + "\n"
	for run := 0; run < 3; run++ {
		r := e.run(in, "--mode", "rpc", "--no-session", "-e", filepath.Join(e.proj, "slow.ts"))
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		var order []string
		for _, rec := range records(t, r.stdout) {
			if m, ok := rec["message"].(string); ok && rec["method"] == "notify" {
				order = append(order, m)
			}
		}
		if got := strings.Join(order, ", "); got != "start a, start b, end a, end b" {
			t.Fatalf("run %d: notifications %q, want the handlers started in arrival order and run side by side", run, got)
		}
	}
}
