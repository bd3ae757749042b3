package jsruntime

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm/faux"
)

// TestAPISessionManagerView checks ctx.sessionManager against the
// reference's SessionManager instance: its fields as own keys, the
// undefined parentSession of the header, the tree reads, the writes that
// go to the store, the host-only methods refused, and the undefined keys
// of pi.getAllTools() items.
func TestAPISessionManagerView(t *testing.T) {
	t.Parallel()
	src := `export default function (pi) {
  pi.registerTool({ name: "plain", label: "P", description: "d", parameters: { type: "object", properties: {} }, async execute() { return { content: [] }; } });
  pi.registerCommand("sm", { handler: async (args, ctx) => {
    const sm = ctx.sessionManager;
    let r;
    switch (args) {
    case "keys": r = Object.keys(sm).join(","); break;
    case "header": { const h = sm.getHeader(); r = Object.keys(h).join(",") + " " + ("parentSession" in h) + " " + typeof h.parentSession; break; }
    case "fields": r = [typeof sm.sessionId, sm.persist, sm.fileEntries.length === sm.getEntries().length + 1, sm.byId.size === sm.getEntryCount(), sm.leafId === sm.getLeafId(), typeof sm.getSessionDir()].join(" "); break;
    case "tree": { const t = sm.getTree(); r = t.length + " " + t[0].children.length + " " + sm.getChildren(t[0].entry.id).length + " " + sm.getBranch(t[0].entry.id).length; break; }
    case "write": {
      const id = sm.appendThinkingLevelChange("low");
      const e = sm.getEntry(id);
      pi.setLabel(id, "mark");
      r = typeof id + " " + e.type + " " + e.thinkingLevel + " " + sm.labelsById.get(id) + " " + typeof sm.labelTimestampsById.get(id);
      break;
    }
    case "context": r = Object.keys(sm.buildSessionContext()).join(",") + " " + Object.keys(sm.buildSessionProjection()).join(","); break;
    case "refused": try { sm.newSession(); r = "no"; } catch (e) { r = e.message; } break;
    case "tools": {
      const t = pi.getAllTools().find((x) => x.name === "plain");
      r = ("promptGuidelines" in t) + " " + typeof t.promptGuidelines + " " + Object.keys(t.sourceInfo).join(",") + " " + t.sourceInfo.scope + " " + typeof t.sourceInfo.baseDir;
      break;
    }
    }
    ctx.ui.notify(args + ": " + r);
  } });
}`
	cases := []struct{ arg, want string }{
		{"keys", "sessionId,sessionFile,sessionDir,cwd,persist,flushed,fileEntries,byId,labelsById,labelTimestampsById,leafId"},
		{"header", "type,version,id,timestamp,cwd,parentSession true undefined"},
		{"fields", "string false true true true string"}, // the harness session is in memory
		{"tree", "1 1 1 1"},
		{"write", "string thinking_level_change low mark string"},
		{"context", "messages,thinkingLevel,model entries,messages,thinkingLevel,model"},
		{"refused", "sessionManager.newSession() is not available to extensions; use ctx.newSession()"},
		{"tools", "true undefined path,source,scope,origin,baseDir temporary undefined"},
	}
	for _, tc := range cases {
		t.Run(tc.arg, func(t *testing.T) {
			t.Parallel()
			ui := &scriptedUI{}
			h := newAPIHarness(t, src, ui, faux.Turn{Text: "hi"})
			h.prompt(t, "hello")
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			_, err := h.sess.Prompt(ctx, "/sm "+tc.arg, nil, engine.PromptOptions{})
			require.NoError(t, err)
			h.settle(t)
			assert.Equal(t, []string{tc.arg + ": " + tc.want}, ui.notes())
			assert.Empty(t, h.extErrors())
		})
	}
}
