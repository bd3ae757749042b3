package jsruntime

import (
	"testing"
)

// TestSDKSkillsAndTurnStart compares findTurnStartIndex and
// loadSkillsFromDir with the reference's answers for the same input,
// recorded with Node 22 from the reference's package index:
//
//	[0,-1,4,-1]
//	{"skills":[{"name":"alpha",…,"sourceInfo":{…"source":"mine","scope":"temporary","origin":"top-level",…}}],"diagnostics":[]}
func TestSDKSkillsAndTurnStart(t *testing.T) {
	t.Parallel()
	h := runTS(t, map[string]string{
		"skills/alpha/SKILL.md": "---\nname: alpha\ndescription: Alpha skill\n---\nbody\n",
		"ext.ts": `
import { findTurnStartIndex, loadSkillsFromDir } from "@earendil-works/pi-coding-agent";
const e = [
  { type: "message", id: "a", message: { role: "user", content: "hi", timestamp: 1 } },
  { type: "message", id: "b", message: { role: "assistant", content: [], timestamp: 2 } },
  { type: "compaction", id: "c", summary: "s", firstKeptEntryId: "a", tokensBefore: 1 },
  { type: "message", id: "d", message: { role: "toolResult", toolCallId: "x", toolName: "t", content: [], timestamp: 3 } },
  { type: "custom_message", id: "f", customType: "k", content: "c", display: true },
];
console.log(JSON.stringify([findTurnStartIndex(e, 3, 0), findTurnStartIndex(e, 3, 1), findTurnStartIndex(e, 4, 0), findTurnStartIndex(e, 0, 1)]));
const r = loadSkillsFromDir({ dir: __dirname + "/skills", source: "mine" });
console.log(JSON.stringify(r, (k, v) => typeof v === "string" ? v.replace(__dirname, "<dir>") : v));
export default function () {}
`})
	if len(h.loadErrs) > 0 {
		t.Fatal(h.loadErrs)
	}
	h.settle(t)
	want := `[0,-1,4,-1]
{"skills":[{"name":"alpha","description":"Alpha skill","filePath":"<dir>/skills/alpha/SKILL.md","baseDir":"<dir>/skills/alpha","sourceInfo":{"path":"<dir>/skills/alpha/SKILL.md","source":"mine","scope":"temporary","origin":"top-level","baseDir":"<dir>/skills/alpha"},"disableModelInvocation":false}],"diagnostics":[]}
`
	if got := h.stderr.String(); got != want {
		t.Errorf("got:\n%s\nwant (the reference's):\n%s", got, want)
	}
}
