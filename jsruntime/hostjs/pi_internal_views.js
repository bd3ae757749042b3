// Views of host state whose reference objects extensions read with more
// than JSON carries: ctx.sessionManager, the reference's SessionManager
// instance (its private fields as live own properties, every method), and
// the undefined keys of pi.getAllTools()/pi.getCommands() items. Loaded as
// the host module pi:internal/views on first use: api.js is compiled on
// every start, most extensions never read these.
"use strict";
module.exports = function (h) {
  const { call } = h;
  const u = (v) => (v === null ? undefined : v);
  const unsupported = (name, instead) => {
    throw new Error(`sessionManager.${name}() is not available to extensions; use ${instead}`);
  };

  // makeSessionManager builds a manager whose calls carry prefix: ""
  // for ctx.sessionManager, which stays on its generation's session once
  // a replacement retires the generation (the reference's old runner
  // keeps its own manager), "cur:" for the one ctx.newSession's setup
  // writes through, which is the new session's (api_smgr.go).
  function makeSessionManager(prefix) {
  const sm = (name, args) => call(prefix + "sm." + name, args || []);
  const write = (name, args) => call(prefix + "smw." + name, args);

  // The reference's SessionManager keeps its state in fields; here each
  // is a getter over the session store, in the reference's field order,
  // so Object.keys and direct reads see what the reference's would.
  class SessionManager {
    constructor() {
      const own = {
        sessionId: () => this.getSessionId(),
        sessionFile: () => this.getSessionFile(),
        sessionDir: () => this.getSessionDir(),
        cwd: () => this.getCwd(),
        persist: () => this.isPersisted(),
        flushed: () => !!sm("flushed"),
        fileEntries: () => {
          const header = this.getHeader();
          return header ? [header, ...this.getEntries()] : this.getEntries();
        },
        byId: () => new Map(this.getEntries().map((e) => [e.id, e])),
        labelsById: () => new Map((sm("labels") || []).map(([id, label]) => [id, label])),
        labelTimestampsById: () => new Map((sm("labels") || []).map(([id, , at]) => [id, at])),
        leafId: () => this.getLeafId(),
      };
      for (const [k, get] of Object.entries(own)) Object.defineProperty(this, k, { get, enumerable: true, configurable: true });
    }
    // Reads.
    isPersisted() { return !!sm("isPersisted"); }
    getCwd() { return sm("getCwd"); }
    getSessionDir() { return sm("getSessionDir") ?? ""; }
    usesDefaultSessionDir() { return !!sm("usesDefaultSessionDir"); }
    getSessionId() { return sm("getSessionId"); }
    getSessionFile() { return u(sm("getSessionFile")); }
    getSessionName() { return u(sm("getSessionName")); }
    getLeafId() { return sm("getLeafId") ?? null; }
    getLeafEntry() { return u(sm("getLeafEntry")); }
    getEntry(id) { return u(sm("getEntry", [id])); }
    getChildren(parentId) { return sm("getChildren", [parentId]) || []; }
    getLabel(id) { return u(sm("getLabel", [id])); }
    getBranch(fromId) { return sm("getBranch", fromId === undefined ? [] : [fromId]) || []; }
    buildContextEntries() { return sm("buildContextEntries") || []; }
    buildSessionProjection() { return sm("buildSessionProjection"); }
    buildSessionContext() { return sm("buildSessionContext"); }
    getHeader() {
      const header = sm("getHeader");
      if (header && !("parentSession" in header)) header.parentSession = undefined;
      return header ?? null;
    }
    getEntryCount() { return this.getEntries().length; }
    getEntries() { return sm("getEntries") || []; }
    getTree() { return sm("getTree") || []; }
    _hasConversation() {
      return this.getEntries().some((e) => e.type === "message" && e.message && (e.message.role === "user" || e.message.role === "assistant"));
    }
    // Writes go straight to the session's store, without events, as the
    // reference's do.
    appendMessage(message) { return write("appendMessage", [message]); }
    appendThinkingLevelChange(level) { return write("appendThinkingLevelChange", [level]); }
    appendModelChange(provider, modelId) { return write("appendModelChange", [provider, modelId]); }
    appendUsage(kind, provider, model, usage, note) { return write("appendUsage", [kind, provider, model, usage, note]); }
    appendCompaction(summary, firstKeptEntryId, tokensBefore, details, fromHook, usage) {
      return write("appendCompaction", [summary, firstKeptEntryId, tokensBefore, details, fromHook, usage]);
    }
    appendCustomEntry(customType, data) { return write("appendCustomEntry", [customType, data]); }
    appendSessionInfo(name) { return write("appendSessionInfo", [name]); }
    appendCustomMessageEntry(customType, content, display, details) {
      return write("appendCustomMessageEntry", [customType, content, display, details]);
    }
    appendContextEdit(targetId, replacement) { return write("appendContextEdit", [targetId, replacement]); }
    appendLabelChange(targetId, label) { return write("appendLabelChange", [targetId, label]); }
    branch(branchFromId) { write("branch", [branchFromId]); }
    resetLeaf() { write("resetLeaf", []); }
    branchWithSummary(branchFromId, summary, details, fromHook, usage) {
      return write("branchWithSummary", [branchFromId, summary, details, fromHook, usage]);
    }
    // The store writes and indexes entries itself: these internals have
    // nothing left to do.
    _persist() {}
    _buildIndex() {}
    _loadEntries() { return this.fileEntries; }
    _rewriteFile() {}
    // Replacing the session file from inside a session is the host's job.
    setSessionFile() { unsupported("setSessionFile", "ctx.switchSession()"); }
    _setSessionFile() { unsupported("_setSessionFile", "ctx.switchSession()"); }
    newSession() { unsupported("newSession", "ctx.newSession()"); }
    createBranchedSession() { unsupported("createBranchedSession", "ctx.fork()"); }
    _appendEntry() { unsupported("_appendEntry", "an append method"); }
  }
  return new SessionManager();
  }
  const sessionManager = makeSessionManager("");
  // Built on first use: only a setup callback needs it.
  let current;
  const currentSessionManager = () => current || (current = makeSessionManager("cur:"));

  // listed restores the undefined keys of pi.getAllTools()/getCommands()
  // items (promptGuidelines, sourceInfo.baseDir) that crossed as null.
  function listed(list) {
    if (!Array.isArray(list)) return [];
    for (const item of list) {
      if (!item || typeof item !== "object") continue;
      if (item.promptGuidelines === null) item.promptGuidelines = undefined;
      const si = item.sourceInfo;
      if (si && si.baseDir === null) si.baseDir = undefined;
    }
    return list;
  }

  return { sessionManager, currentSessionManager, listed };
};
