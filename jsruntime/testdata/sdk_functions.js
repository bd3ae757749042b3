// The session/compaction functions script run by TestSDKFunctions in
// pi-go and by Node over the reference (sdk_record.mjs) to record
// sdk_functions.golden.
async function run(sdk, dir, fs, log) {
  const j = (v) => JSON.stringify(v);
  const usage = (input, output, total) => ({ input, output, cacheRead: 0, cacheWrite: 0, totalTokens: total, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } });
  const user = (id, parentId, text, ts) => ({ type: "message", id, parentId, timestamp: "2026-01-02T03:04:05.000Z", message: { role: "user", content: [{ type: "text", text }], timestamp: ts } });
  const asst = (id, parentId, text, u, stop, ts) => ({ type: "message", id, parentId, timestamp: "2026-01-02T03:04:05.000Z", message: { role: "assistant", content: [{ type: "text", text }], api: "openai-responses", provider: "p", model: "m", usage: u, stopReason: stop, timestamp: ts } });
  const big = "x".repeat(4000);
  const entries = [
    user("u1", null, "first " + big, 1),
    asst("a1", "u1", "answer " + big, usage(10, 20, 0), "stop", 2),
    { type: "model_change", id: "mc", parentId: "a1", timestamp: "2026-01-02T03:04:05.000Z", provider: "p2", modelId: "m2" },
    user("u2", "mc", "second " + big, 3),
    asst("a2", "u2", "answer2", usage(100, 5, 0), "error", 4),
    { type: "compaction", id: "c1", parentId: "a2", timestamp: "2026-01-02T03:04:05.000Z", summary: "the summary", firstKeptEntryId: "u2", tokensBefore: 999 },
    user("u3", "c1", "third " + big, 5),
    asst("a3", "u3", "answer3 " + big, usage(1, 1, 77), "stop", 6),
    { type: "thinking_level_change", id: "t1", parentId: "a3", timestamp: "2026-01-02T03:04:05.000Z", thinkingLevel: "low" },
    user("x1", "u1", "side branch", 7),
  ];
  const text = entries.map((e) => JSON.stringify(e)).join("\n") + "\n{ not json\n\n";
  const parsed = sdk.parseSessionEntries(text);
  log("parsed", parsed.length, j(parsed.map((e) => e.id)));
  log("latest compaction", j(sdk.getLatestCompactionEntry(parsed)), j(sdk.getLatestCompactionEntry(parsed.slice(0, 3))));
  log("calc", sdk.calculateContextTokens(usage(1, 2, 0)), sdk.calculateContextTokens(usage(1, 2, 50)));
  log("last usage", j(sdk.getLastAssistantUsage(parsed)), j(sdk.getLastAssistantUsage(parsed.slice(0, 5))), j(sdk.getLastAssistantUsage([])));
  log("should", sdk.shouldCompact(100, 200, { enabled: true, reserveTokens: 50 }), sdk.shouldCompact(151, 200, { enabled: true, reserveTokens: 50 }), sdk.shouldCompact(999, 200, { enabled: false, reserveTokens: 0 }));
  const main = parsed.slice(0, 9);
  const ctx = sdk.buildSessionContext(main);
  log("context", ctx.thinkingLevel, j(ctx.model), j(ctx.messages.map((m) => [m.role, (m.summary || (m.content && m.content[0] && m.content[0].text) || "").slice(0, 12)])));
  const side = sdk.buildSessionContext(parsed, "x1");
  log("side", side.thinkingLevel, j(side.model), j(side.messages.map((m) => m.role)));
  log("null leaf", j(sdk.buildSessionContext(parsed, null)));
  log("unknown leaf", sdk.buildSessionContext(parsed, "nope").messages.length);
  const proj = sdk.buildSessionProjection(main);
  log("projection", j(proj.entries.map((e) => [e.sourceEntry.id, e.messages.length])));
  log("context entries", j(sdk.buildContextEntries(main).map((e) => e.id)));
  for (const [s, e, k] of [[0, 9, 100], [0, 9, 1500], [0, 9, 2500], [0, 9, 100000], [6, 9, 10], [0, 0, 10]]) {
    log("cut", s, e, k, j(sdk.findCutPoint(main, s, e, k)));
  }
  log("diff", j(sdk.generateDiffString("a\nb\nc\n", "a\nB\nc\n")));
}
