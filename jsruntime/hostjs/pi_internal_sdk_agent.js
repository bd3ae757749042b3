// DefaultResourceLoader, createAgentSession and AgentSession of
// @earendil-works/pi-coding-agent: an extension runs another agent in
// process (a sub-agent). The agent is the host's own, assembled in Go
// (api_subagent.go, and the module root's SubAgentHost): settings, models,
// the loader's extensions, tools, system prompt and session store. Values
// cross as JSON. Loaded on first use of one of the exports.
"use strict";
const host = __host;

const notSupported = (what) => new Error(what + " is not supported in pi-go");

function need(name) {
  if (typeof host[name] !== "function") {
    throw new Error("@earendil-works/pi-coding-agent: sub-agents (createAgentSession) are only available to extensions running in pi-go");
  }
  return host[name];
}

// extensionView is one entry of getExtensions().extensions: the maps the
// reference's loaded extension has, with what the extension registered.
function extensionView(p, tools, commands, flags) {
  const named = (names) => new Map((names || []).map((n) => [n, { name: n }]));
  return {
    path: p, resolvedPath: p,
    sourceInfo: { path: p, source: "local", scope: "temporary", origin: "top-level" },
    handlers: new Map(), tools: named(tools), commands: named(commands), flags: named(flags),
    shortcuts: new Map(), messageRenderers: new Map(),
  };
}

// memorySettings are the layers of a SettingsManager no settings file
// backs (inMemory, fromStorage), for the host to use instead of the
// files; a file-backed manager's files are read by the host itself.
function memorySettings(sm) {
  if (sm === undefined || sm === null) return null;
  const { SettingsManager } = require("pi:internal/sdk_settings");
  if (!(sm instanceof SettingsManager)) throw notSupported("a settingsManager not made by SettingsManager.create/inMemory");
  if (sm.settingsPaths && sm.settingsPaths.global) return null;
  return { global: sm.getGlobalSettings(), project: sm.getProjectSettings() };
}

function agentDirOf(o) {
  return o.agentDir !== undefined ? String(o.agentDir) : require("@earendil-works/pi-coding-agent").getAgentDir();
}

class DefaultResourceLoader {
  constructor(options) {
    const o = options || {};
    if (Array.isArray(o.extensionFactories) && o.extensionFactories.length > 0) {
      throw notSupported("DefaultResourceLoader: extensionFactories (inline extensions)");
    }
    for (const k of ["skillsOverride", "promptsOverride", "themesOverride", "agentsFilesOverride", "additionalThemePaths"]) {
      if (o[k] !== undefined) throw notSupported("DefaultResourceLoader: the " + k + " option");
    }
    this.options = o;
    this.cwd = o.cwd !== undefined ? String(o.cwd) : process.cwd();
    this.agentDir = agentDirOf(o);
    this.draft = undefined;
    this.extensionsResult = { extensions: [], errors: [], runtime: {} };
    this.systemPrompt = undefined;
    this.appendSystemPrompt = [];
  }

  // reload discovers and loads the extensions (the factories run now, as
  // in the reference), and settles the system prompt and its addendum.
  async reload() {
    const o = this.options;
    if (this.draft !== undefined) {
      need("sdkAgentDispose")(this.draft, true);
      this.draft = undefined;
    }
    const files = JSON.parse(need("sdkAgentSystemFiles")(this.cwd, this.agentDir));
    let system = o.systemPrompt !== undefined ? o.systemPrompt : files.system;
    if (typeof o.systemPromptOverride === "function") system = o.systemPromptOverride(system);
    let append = o.appendSystemPrompt !== undefined ? [].concat(o.appendSystemPrompt) : files.append;
    if (typeof o.appendSystemPromptOverride === "function") append = o.appendSystemPromptOverride(append);
    this.systemPrompt = system === undefined || system === null ? undefined : String(system);
    this.appendSystemPrompt = (append || []).map(String);
    const spec = {
      Cwd: this.cwd, AgentDir: this.agentDir,
      NoExtensions: !!o.noExtensions, ExtensionPaths: (o.additionalExtensionPaths || []).map(String),
      SkillPaths: (o.additionalSkillPaths || []).map(String), PromptPaths: (o.additionalPromptTemplatePaths || []).map(String),
      NoSkills: !!o.noSkills, NoPromptTemplates: !!o.noPromptTemplates, NoContextFiles: !!o.noContextFiles,
      SystemPrompt: this.systemPrompt === undefined ? null : this.systemPrompt,
      AppendSystemPrompt: this.appendSystemPrompt, AppendSet: true,
      Settings: memorySettings(o.settingsManager),
    };
    const prep = JSON.parse(await need("sdkAgentPrepare")(JSON.stringify(spec)));
    this.draft = prep.handle;
    let selected = prep.paths;
    if (typeof o.extensionsOverride === "function") {
      // The override sees the discovered extensions before they load
      // (their paths; what they register is known only once loaded).
      const base = { extensions: prep.paths.map((p) => extensionView(p)), errors: [], runtime: {} };
      const kept = o.extensionsOverride(base) || base;
      selected = (kept.extensions || []).map((e) => String(e.path));
    }
    const loaded = JSON.parse(await need("sdkAgentLoad")(this.draft, JSON.stringify(selected)));
    this.extensionsResult = { extensions: loaded.map((e) => extensionView(e.path, e.tools, e.commands, e.flags)), errors: [], runtime: {} };
  }

  getExtensions() { return this.extensionsResult; }
  getSystemPrompt() { return this.systemPrompt; }
  getAppendSystemPrompt() { return this.appendSystemPrompt; }
  getAgentsFiles() {
    if (this.options.noContextFiles) return { agentsFiles: [] };
    return { agentsFiles: require("pi:internal/sdk_functions").loadProjectContextFiles({ cwd: this.cwd, agentDir: this.agentDir }) };
  }
  getSkills() {
    if (this.options.noSkills) return { skills: [], diagnostics: [] };
    const { loadSkills } = require("pi:internal/sdk_functions");
    return loadSkills({ cwd: this.cwd, agentDir: this.agentDir, skillPaths: this.options.additionalSkillPaths || [] });
  }
  getPrompts() {
    if (this.options.noPromptTemplates) return { prompts: [], diagnostics: [] };
    throw notSupported("DefaultResourceLoader.getPrompts");
  }
  getThemes() {
    if (this.options.noThemes) return { themes: [], diagnostics: [] };
    throw notSupported("DefaultResourceLoader.getThemes");
  }
  extendResources() { throw notSupported("DefaultResourceLoader.extendResources"); }
}

function textOf(message) {
  if (!message || !Array.isArray(message.content)) return typeof (message && message.content) === "string" ? message.content : undefined;
  const parts = message.content.filter((b) => b && b.type === "text").map((b) => b.text);
  return parts.length > 0 ? parts.join("") : undefined;
}

// AgentSession is a handle on the host's agent. Reads are live: each asks
// the host for the agent's current state.
class AgentSession {
  constructor(handle, listeners, sessionManager, settingsManager, resourceLoader) {
    this.handle = handle;
    this.listeners = listeners;
    this.sessionManager = sessionManager;
    this.settingsManager = settingsManager;
    this.resourceLoader = resourceLoader;
    this.disposed = false;
  }
  snapshot() {
    if (this.disposed) throw new Error("AgentSession: the session was disposed");
    return JSON.parse(host.sdkAgentState(this.handle));
  }
  // state is the agent's state as pi-agent-core's Agent has it.
  get state() {
    const s = this.snapshot();
    return { systemPrompt: s.systemPrompt, model: s.state.model, thinkingLevel: s.state.thinkingLevel, tools: s.toolInfos,
      messages: s.messages, isStreaming: s.state.isStreaming, streamingMessage: undefined, pendingToolCalls: new Set(),
      errorMessage: undefined };
  }
  get messages() { return this.snapshot().messages; }
  get model() { return this.snapshot().state.model || undefined; }
  get thinkingLevel() { return this.snapshot().state.thinkingLevel; }
  get systemPrompt() { return this.snapshot().systemPrompt; }
  get sessionFile() { return this.snapshot().state.sessionFile || undefined; }
  get sessionId() { return this.snapshot().state.sessionId; }
  get sessionName() { return this.snapshot().state.sessionName || undefined; }
  get isStreaming() { return this.snapshot().state.isStreaming; }
  get isCompacting() { return this.snapshot().state.isCompacting; }
  get isIdle() { return this.snapshot().isIdle; }
  get steeringMode() { return this.snapshot().state.steeringMode; }
  get followUpMode() { return this.snapshot().state.followUpMode; }
  get pendingMessageCount() { return this.snapshot().state.pendingMessageCount; }
  get autoCompactionEnabled() { return this.snapshot().state.autoCompactionEnabled; }
  getActiveToolNames() { return this.snapshot().tools; }
  getLastAssistantText() {
    const msgs = this.messages;
    for (let i = msgs.length - 1; i >= 0; i--) if (msgs[i].role === "assistant") return textOf(msgs[i]);
    return undefined;
  }
  getSessionStats() { return JSON.parse(host.sdkAgentStats(this.handle)); }
  getContextUsage() { return this.getSessionStats().contextUsage; }
  // A listener gets the events that happen between its subscribe and
  // its unsubscribe (numbered by the host as they happen; they arrive
  // here a little later).
  subscribe(listener) {
    const span = { since: host.sdkAgentSeq(this.handle), until: Infinity };
    this.listeners.set(listener, span);
    return () => {
      if (span.until === Infinity) span.until = host.sdkAgentSeq(this.handle);
    };
  }
  run(op, text, options) {
    const o = options || {};
    if (Array.isArray(o.images) && o.images.length > 0) return Promise.reject(notSupported("AgentSession." + op + " with images"));
    if (this.disposed) return Promise.reject(new Error("AgentSession: the session was disposed"));
    return host.sdkAgentRun(this.handle, op, String(text)).then((v) => (v === undefined ? undefined : JSON.parse(v)));
  }
  async prompt(text, options) { await this.run("prompt", text, options); }
  steer(text, images) { return this.run("steer", text, { images }); }
  followUp(text, images) { return this.run("followUp", text, { images }); }
  async abort() { await this.run("abort", ""); }
  waitForIdle() { return this.run("waitIdle", ""); }
  async setModel(model) {
    if (!model || typeof model !== "object") throw new TypeError("AgentSession.setModel: a model is required");
    await this.run("setModel", JSON.stringify({ Provider: String(model.provider), ID: String(model.id) }));
  }
  setThinkingLevel(level) { host.sdkAgentSetThinking(this.handle, String(level)); }
  compact(customInstructions) { return this.run("compact", customInstructions === undefined ? "" : String(customInstructions)); }
  setSessionName(name) { host.sdkAgentSetName(this.handle, String(name)); }
  // bindExtensions announces the session to the agent's extensions
  // (session_start), as in the reference; until then they only loaded.
  // The bindings' UI context and callbacks have no counterpart here: a
  // sub-agent's extensions run without a UI.
  async bindExtensions() { await this.run("bind", ""); }
  dispose() {
    if (this.disposed) return;
    this.disposed = true;
    this.listeners.clear();
    host.sdkAgentDispose(this.handle, false);
  }
}

function toolOptions(o) {
  const out = { Tools: null, NoTools: false, NoBuiltinTools: false, ExcludeTools: [] };
  if (Array.isArray(o.tools)) out.Tools = o.tools.map(String);
  if (o.noTools === "all" || o.noTools === true) out.NoTools = true;
  else if (o.noTools === "builtin") out.NoBuiltinTools = true;
  if (Array.isArray(o.excludeTools)) out.ExcludeTools = o.excludeTools.map(String);
  return out;
}

async function createAgentSession(options) {
  const o = options || {};
  if (Array.isArray(o.customTools) && o.customTools.length > 0) throw notSupported("createAgentSession: customTools");
  if (o.modelRuntime !== undefined) throw notSupported("createAgentSession: modelRuntime");
  if (Array.isArray(o.scopedModels) && o.scopedModels.length > 0) throw notSupported("createAgentSession: scopedModels");
  let loader = o.resourceLoader;
  if (loader === undefined) {
    loader = new DefaultResourceLoader({ cwd: o.cwd, agentDir: o.agentDir, settingsManager: o.settingsManager });
    await loader.reload();
  }
  if (!(loader instanceof DefaultResourceLoader)) throw notSupported("createAgentSession: a custom ResourceLoader (use DefaultResourceLoader)");
  if (loader.draft === undefined) await loader.reload();
  let store;
  if (o.sessionManager !== undefined) {
    store = require("pi:internal/sdk_session").storeOf(o.sessionManager);
    if (store === undefined) throw notSupported("createAgentSession: a sessionManager not made by SessionManager.create/open/inMemory");
  }
  const m = o.model;
  const start = Object.assign({
    Provider: m && m.provider ? String(m.provider) : "", Model: m && m.id ? String(m.id) : "",
    Thinking: o.thinkingLevel ? String(o.thinkingLevel) : "",
    Settings: o.settingsManager === loader.options.settingsManager ? null : memorySettings(o.settingsManager),
  }, toolOptions(o));
  const listeners = new Map();
  const onEvent = (json, seq) => {
    const ev = JSON.parse(json);
    for (const [l, span] of [...listeners]) {
      if (seq > span.until) {
        listeners.delete(l);
        continue;
      }
      if (seq <= span.since) continue;
      try { l(ev); } catch (e) { console.error(e); }
    }
  };
  const draft = loader.draft;
  loader.draft = undefined;
  const handle = JSON.parse(await need("sdkAgentStart")(draft, JSON.stringify(start), store, onEvent));
  const session = new AgentSession(handle, listeners, o.sessionManager, o.settingsManager, loader);
  return { session, extensionsResult: loader.getExtensions(), modelFallbackMessage: undefined };
}

module.exports = { DefaultResourceLoader, AgentSession, createAgentSession };
