// The SessionManager script run by TestSDKSessionManager in pi-go and by
// Node over the reference package (sdk_record.mjs) to record
// sdk_session.golden. Entry ids and times of appended entries are random,
// so only their shapes are printed.
async function run(sdk, dir, fs, log) {
  const { SessionManager } = sdk;
  const j = (v) => JSON.stringify(v);
  const cwd = dir + "/proj", sessions = dir + "/sessions";
  fs.mkdirSync(cwd, { recursive: true });
  fs.mkdirSync(sessions, { recursive: true });
  const line = (o) => JSON.stringify(o) + "\n";
  const t0 = Date.parse("2026-01-02T03:04:05.000Z");
  const file = sessions + "/2026-01-02T03-04-05-000Z_0190a000-0000-7000-8000-000000000001.jsonl";
  fs.writeFileSync(file,
    line({ type: "session", version: 3, id: "0190a000-0000-7000-8000-000000000001", timestamp: "2026-01-02T03:04:05.000Z", cwd }) +
    line({ type: "message", id: "a1", parentId: null, timestamp: "2026-01-02T03:04:06.000Z", message: { role: "user", content: [{ type: "text", text: "hello there" }], timestamp: t0 + 1000 } }) +
    line({ type: "message", id: "a2", parentId: "a1", timestamp: "2026-01-02T03:04:07.000Z", message: { role: "assistant", content: [{ type: "text", text: "hi!" }], api: "openai-responses", provider: "p", model: "m", usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: t0 + 2000 } }) +
    line({ type: "session_info", id: "a3", parentId: "a2", timestamp: "2026-01-02T03:04:08.000Z", name: "greeting" }) +
    line({ type: "message", id: "b1", parentId: "a1", timestamp: "2026-01-02T03:04:09.000Z", message: { role: "assistant", content: [{ type: "text", text: "other branch" }], api: "openai-responses", provider: "p", model: "m2", usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: t0 + 4000 } }) +
    line({ type: "thinking_level_change", id: "b2", parentId: "b1", timestamp: "2026-01-02T03:04:10.000Z", thinkingLevel: "high" }));

  const sm = SessionManager.open(file);
  log("instanceof", sm instanceof SessionManager);
  log("id", sm.getSessionId(), "cwd", sm.getCwd(), "file", sm.getSessionFile(), "dir", sm.getSessionDir());
  log("header", j(sm.getHeader()));
  log("name", sm.getSessionName(), "leaf", sm.getLeafId(), "persisted", sm.isPersisted());
  log("entries", j(sm.getEntries().map((e) => e.id)));
  log("branch", j(sm.getBranch().map((e) => e.id)), "from a3", j(sm.getBranch("a3").map((e) => e.id)));
  log("entry", j(sm.getEntry("a2")));
  log("children", j(sm.getChildren("a1").map((e) => e.id)));
  const tree = (nodes) => nodes.map((n) => [n.entry.id, tree(n.children)]);
  log("tree", j(tree(sm.getTree())));
  log("context", j(sm.buildSessionContext()));

  sm.branch("a3");
  log("after branch", sm.getLeafId(), j(sm.buildSessionContext().messages.map((m) => m.role)));
  const id = sm.appendMessage({ role: "user", content: [{ type: "text", text: "again" }], timestamp: t0 + 9000 });
  log("appended", typeof id, sm.getLeafId() === id, sm.getEntry(id).parentId);
  const cid = sm.appendCustomEntry("my-ext", { n: 1 });
  log("custom", j(Object.keys(sm.getEntry(cid))), j(sm.getEntry(cid).data));
  const lines = fs.readFileSync(file, "utf8").trim().split("\n");
  log("file lines", lines.length, JSON.parse(lines[lines.length - 1]).type);

  const reopened = SessionManager.open(file);
  log("reopened", reopened.getEntries().length, reopened.getLeafId() === cid);

  const list = await SessionManager.list(cwd, sessions);
  log("list", j(list.map((i) => [i.id, i.cwd === cwd, i.name, i.messageCount, i.firstMessage, i.allMessagesText, i.created instanceof Date, i.created.toISOString()])));
  log("findById", SessionManager.findById(cwd, "0190a000-0000-7000-8000-000000000001", sessions) === file, SessionManager.findById(cwd, "nope", sessions));
  log("listAll dir", (await SessionManager.listAll(sessions)).length);
  log("list other cwd", (await SessionManager.list(dir + "/other", sessions)).length);

  const mem = SessionManager.inMemory(cwd);
  log("mem", mem.getCwd() === cwd, mem.getSessionFile(), mem.isPersisted(), j(mem.getEntries()), mem.getLeafId(), mem.getSessionName());
  const mid = mem.appendMessage({ role: "user", content: [{ type: "text", text: "x" }], timestamp: t0 });
  log("mem append", mem.getEntries().length, mem.getBranch()[0].id === mid, j(mem.buildSessionContext().messages));
  mem.appendSessionInfo("  named\nsession ");
  log("mem name", j(mem.getSessionName()));

  const created = SessionManager.create(cwd, dir + "/new");
  log("created", created.getCwd() === cwd, created.getSessionDir(), typeof created.getSessionFile(), created.getSessionFile().startsWith(dir + "/new/"), fs.existsSync(created.getSessionFile()));
  created.appendMessage({ role: "user", content: [{ type: "text", text: "q" }], timestamp: t0 });
  log("created after user", fs.existsSync(created.getSessionFile()));

  const recent = SessionManager.continueRecent(cwd, sessions);
  log("recent", recent.getSessionFile() === file, recent.getEntries().length);
  const none = SessionManager.continueRecent(cwd, dir + "/empty");
  log("recent none", none.getEntries().length, none.getSessionDir());
  try { SessionManager.open(dir + "/proj"); log("open dir ok"); } catch (e) { log("open dir throws", e.code || "error"); }
}
