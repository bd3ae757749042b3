// Event payloads cross from Go as JSON, which cannot carry a key whose
// value is undefined; the reference builds these objects in JS, where such
// keys exist (Object.keys, "key" in obj and key order show them). This
// module puts them back for the events where the reference has them.
// Loaded as the host module pi:internal/shapes on the first such event:
// api.js is compiled on every start, these events come later or never.
"use strict";
module.exports = function () {
  // fill returns o with the template's keys first, in its order: a plain
  // key is always present (undefined when missing), a key ending in "?"
  // only when it has a value. Keys the template does not name follow.
  function fill(o, keys) {
    if (!o || typeof o !== "object" || Array.isArray(o)) return o;
    const out = {};
    for (const k of keys) {
      if (k.endsWith("?")) {
        const name = k.slice(0, -1);
        if (o[name] !== undefined) out[name] = o[name];
      } else {
        out[k] = o[k];
      }
    }
    for (const k of Object.keys(o)) if (!(k in out)) out[k] = o[k];
    return out;
  }
  const TOOL_RESULT_MESSAGE = ["role", "toolCallId", "toolName", "content", "details", "usage", "isError", "durationMs?", "timestamp"];
  const message = (m) => (m && m.role === "toolResult" ? fill(m, TOOL_RESULT_MESSAGE) : m);
  const messages = (list) => (Array.isArray(list) ? list.map(message) : list);
  // The compaction's file lists are Sets in the reference.
  const toSet = (v) => (Array.isArray(v) ? new Set(v) : v);

  const shapers = {
    message_start: (ev) => { ev.message = message(ev.message); return ev; },
    message_end: (ev) => { ev.message = message(ev.message); return ev; },
    turn_end: (ev) => { ev.toolResults = messages(ev.toolResults); return ev; },
    agent_end: (ev) => { ev.messages = messages(ev.messages); return ev; },
    tool_execution_update: (ev) => {
      const r = fill(ev.partialResult, ["content", "details"]);
      // The bash tool's progress details name both fields, undefined
      // until the output is truncated.
      if (ev.toolName === "bash" && r && r.details && typeof r.details === "object") r.details = fill(r.details, ["truncation", "fullOutputPath"]);
      ev.partialResult = r;
      return ev;
    },
    tool_execution_end: (ev) => { ev.result = fill(ev.result, ["content", "details"]); return ev; },
    session_before_switch: (ev) => fill(ev, ["type", "reason", "targetSessionFile"]),
    session_before_compact: (ev) => {
      const out = fill(ev, ["type", "preparation", "branchEntries", "customInstructions", "reason", "willRetry"]);
      const p = fill(out.preparation, ["firstKeptEntryId", "messagesToSummarize", "turnPrefixMessages", "isSplitTurn", "tokensBefore",
        "previousSummary", "fileOps", "settings"]);
      if (p && p.fileOps && typeof p.fileOps === "object") {
        p.fileOps = { read: toSet(p.fileOps.read), written: toSet(p.fileOps.written), edited: toSet(p.fileOps.edited) };
      }
      out.preparation = p;
      return out;
    },
  };
  return (type, ev) => (shapers[type] ? shapers[type](ev) : ev);
};
