// SessionManager of @earendil-works/pi-coding-agent for extensions that
// open sessions themselves (a session browser listing and reading past
// sessions, a sub-agent keeping its own transcript). Each manager is the
// same object as ctx.sessionManager (pi:internal/views), its calls routed
// to a session the host opened for it (host_sdk_session.go) through the
// engine/session store. Loaded on first use of the export.
"use strict";
const host = __host;
const made = new WeakSet();
const handles = new WeakMap();

function managerFor(handle) {
  const call = (name, args) => {
    const out = host.sdkSessionCall(handle, name, JSON.stringify(args === undefined ? [] : args));
    return out === "" ? undefined : JSON.parse(out);
  };
  const sm = require("pi:internal/views")({ call }).sessionManager;
  made.add(sm);
  handles.set(sm, handle);
  return sm;
}

const open = (kind, args) => managerFor(host.sdkSessionOpen(kind, JSON.stringify(args.map((a) => (a === undefined || a === null ? "" : String(a))))));

function infos(json) {
  return JSON.parse(json).map((i) => Object.assign(i, { created: new Date(i.created), modified: new Date(i.modified) }));
}

class SessionManager {
  constructor() {
    throw new TypeError("SessionManager: use SessionManager.create(), open(), continueRecent() or inMemory()");
  }
  static [Symbol.hasInstance](v) { return made.has(v); }
  static create(cwd, sessionDir, options) {
    if (options && options.id !== undefined) throw new Error("SessionManager.create: a custom session id is not supported in pi-go");
    return open("create", [cwd, sessionDir]);
  }
  static open(path, sessionDir, cwdOverride) { return open("open", [path, sessionDir, cwdOverride]); }
  static continueRecent(cwd, sessionDir) { return open("continueRecent", [cwd, sessionDir]); }
  static inMemory(cwd, options, entries) {
    if (entries !== undefined) throw new Error("SessionManager.inMemory: seed entries are not supported in pi-go");
    return open("inMemory", [cwd === undefined ? process.cwd() : cwd]);
  }
  static findById(cwd, id, sessionDir) {
    const hit = infos(host.sdkSessionList(false, cwd, sessionDir || "")).find((i) => i.id === id);
    return hit ? hit.path : undefined;
  }
  static async list(cwd, sessionDir, onProgress) {
    const out = infos(host.sdkSessionList(false, cwd, sessionDir || ""));
    if (typeof onProgress === "function") onProgress(out.length, out.length, out);
    return out;
  }
  static async listAll(dirOrProgress, progressOrSignal) {
    const dir = typeof dirOrProgress === "string" ? dirOrProgress : "";
    const onProgress = typeof dirOrProgress === "function" ? dirOrProgress : typeof progressOrSignal === "function" ? progressOrSignal : undefined;
    const out = infos(host.sdkSessionList(true, "", dir));
    if (onProgress) onProgress(out.length, out.length, out);
    return out;
  }
  static forkFrom() { throw new Error("SessionManager.forkFrom is not supported in pi-go; use ctx.fork()"); }
}

// storeOf is the host store behind a manager this module made
// (createAgentSession writes the sub-agent's session to it).
function storeOf(sm) {
  return handles.has(sm) ? host.sdkSessionStore(handles.get(sm)) : undefined;
}

module.exports = { SessionManager, storeOf };
