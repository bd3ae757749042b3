package jsruntime

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm/faux"
)

// TestThemeMatchesReference checks ctx.ui.theme against what the
// reference's headless "system" theme returns (recorded from pi 1.6.0
// with TERM=dumb and no truecolor hints).
func TestThemeMatchesReference(t *testing.T) {
	t.Parallel()
	src := `export default function (pi) {
  pi.on("agent_end", (_e, ctx) => {
    const t = ctx.ui.theme;
    const tryc = (f) => { try { return f(); } catch (e) { return "THROW " + e.message; } };
    pi.appendEntry("theme", {
      fg: t.fg("accent", "x"), fgDim: t.fg("muted", "x"), fgBad: tryc(() => t.fg("nope", "x")),
      bg: t.bg("selectedBg", "x"), bgBad: tryc(() => t.bg("accent", "x")),
      bold: t.bold("x"), strike: t.strikethrough("x"),
      fgAnsi: t.getFgAnsi("thinkingXhigh"), fgAnsiDim: t.getFgAnsi("dim"), bgAnsi: t.getBgAnsi("toolErrorBg"),
      name: t.name, appearance: t.appearance, keys: Object.keys(t), json: JSON.stringify(t),
      ctor: t.constructor.name, thinking: t.getThinkingBorderColor("max")("x"), bash: t.getBashModeBorderColor()("x"),
      style: t.style("x", { fg: "accent", bg: "selectedBg", bold: true, italic: true }),
      styleDim: t.style("x", { fg: "muted" }),
    });
  });
}`
	h := newAPIHarness(t, src, nil, faux.Turn{Text: "ok"})
	h.prompt(t, "hi")
	var data json.RawMessage
	for _, e := range h.store.Entries() {
		if e.Type == engine.EntryCustom && e.CustomType == "theme" {
			data = e.Data
		}
	}
	require.NotNil(t, data, "errors: %v", h.extErrors())
	want := `{"fg":"\u001b[38;5;5mx\u001b[39m","fgDim":"\u001b[39m\u001b[2mx\u001b[22;39m","fgBad":"THROW Unknown theme color: nope",` +
		`"bg":"\u001b[49mx\u001b[49m","bgBad":"THROW Unknown theme color: accent","bold":"x","strike":"x",` +
		`"fgAnsi":"\u001b[38;5;13m","fgAnsiDim":"\u001b[39m\u001b[2m","bgAnsi":"\u001b[49m",` +
		`"name":"system","appearance":"dark","keys":[],"json":"{}","ctor":"Theme",` +
		`"thinking":"\u001b[38;5;1mx\u001b[39m","bash":"\u001b[38;5;2mx\u001b[39m",` +
		`"style":"\u001b[38;5;5m\u001b[49m\u001b[1m\u001b[3mx\u001b[23m\u001b[22m\u001b[49m\u001b[39m",` +
		`"styleDim":"\u001b[39m\u001b[2mx\u001b[22m\u001b[39m"}`
	assert.JSONEq(t, want, string(data))
}
