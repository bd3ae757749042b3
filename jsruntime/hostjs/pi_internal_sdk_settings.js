// SettingsManager of @earendil-works/pi-coding-agent for extensions that
// build their own (SettingsManager.create(cwd, agentDir) to read a user's
// settings, inMemory() in tests). Layering, migration, defaults and the
// write protocol are the reference's: global <agentDir>/settings.json under
// a trusted project's <cwd>/.pi/settings.json, setters change the global
// (or project) layer and persist only the fields they touched, merged into
// the file's current contents under the file's lock (host.settingsEdit, the
// engine/config writer). Loaded on first use of the export.
"use strict";
const pathMod = require("path");
const os = require("os");

const host = __host;
const CONFIG_DIR_NAME = ".pi";
const CACHE_WARMING_MODES = ["off", "streaming", "idle"];
const DEFAULT_TOOL_NAMES = ["read", "bash", "edit", "write"];
const DEFAULT_HTTP_IDLE_TIMEOUT_MS = 300000;

// Defaults a getter falls back to, by dotted setting path.
const D = {
  transport: "auto", sessionShareDestination: "auto", steeringMode: "one-at-a-time", followUpMode: "one-at-a-time",
  "compaction.enabled": true, "compaction.reserveTokens": 16384, "compaction.keepRecentTokens": 20000,
  "branchSummary.reserveTokens": 16384, "branchSummary.skipPrompt": false,
  "retry.enabled": true, "retry.maxRetries": 3, "retry.baseDelayMs": 2000, "retry.maxAgentDelayMs": 60000,
  "retry.provider.maxRetryDelayMs": 60000,
  hideThinkingBlock: false, showCacheMissNotices: false, quietStartup: false, defaultProjectTrust: "ask",
  collapseChangelog: false, enableInstallTelemetry: true, enableAnalytics: false, enableSkillCommands: true,
  "terminal.showImages": true, "terminal.imageWidthCells": 60, "terminal.clearOnShrink": false,
  "terminal.showTerminalProgress": false, "images.autoResize": true, "images.blockImages": false,
  doubleEscapeAction: "tree", treeFilterMode: "default", editorPaddingX: 0, outputPad: 1, autocompleteMaxVisible: 5,
  "markdown.codeBlockIndent": "  ", "markdown.mermaid": "streaming", cacheWarming: "idle", tuiMode: "fullscreen",
  fullscreenExitOutput: "transcript", fullscreenScrollbar: "auto", fullscreenCopyOnSelect: true,
  fullscreenWheelScrollLines: "auto",
};

const isObj = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const clone = (v) => (v === undefined ? v : structuredClone(v));
const stripBom = (s) => (s.charCodeAt(0) === 0xfeff ? s.slice(1) : s);

function mergeObjects(base, over) {
  const out = Object.assign({}, base);
  for (const k of Object.keys(over)) {
    const v = over[k];
    if (v === undefined) continue;
    out[k] = isObj(base[k]) && isObj(v) ? mergeObjects(base[k], v) : v;
  }
  return out;
}

const isModifier = (e) => typeof e === "string" && (e[0] === "+" || e[0] === "-");

// A layer's defaultTools made only of +name/-name entries extends the
// inherited list; any other list replaces it.
function mergeLayers(base, over) {
  const out = mergeObjects(base, over);
  const b = base.defaultTools, o = over.defaultTools;
  if (o === undefined) return b === undefined ? out : Object.assign(out, { defaultTools: b });
  if (Array.isArray(b) && Array.isArray(o) && o.every(isModifier)) return Object.assign(out, { defaultTools: b.concat(o) });
  return Object.assign(out, { defaultTools: o });
}

function resolveTools(entries) {
  const plain = entries.filter((e) => !isModifier(e));
  const tools = (plain.length > 0 || entries.length === 0 ? plain : DEFAULT_TOOL_NAMES).slice();
  for (const e of entries) {
    if (!isModifier(e)) continue;
    const name = e.slice(1), i = tools.indexOf(name);
    if (e[0] === "+" && i === -1 && name) tools.push(name);
    else if (e[0] === "-" && i !== -1) tools.splice(i, 1);
  }
  return tools;
}

// migrate rewrites the settings shapes older versions wrote.
function migrate(s) {
  if ("queueMode" in s && !("steeringMode" in s)) { s.steeringMode = s.queueMode; delete s.queueMode; }
  if (!("transport" in s) && typeof s.websockets === "boolean") { s.transport = s.websockets ? "websocket" : "sse"; delete s.websockets; }
  if ("skills" in s && isObj(s.skills)) {
    const old = s.skills;
    if (old.enableSkillCommands !== undefined && s.enableSkillCommands === undefined) s.enableSkillCommands = old.enableSkillCommands;
    if (Array.isArray(old.customDirectories) && old.customDirectories.length > 0) s.skills = old.customDirectories;
    else delete s.skills;
  }
  if ("retry" in s && isObj(s.retry)) {
    const r = s.retry;
    const p = typeof r.provider === "object" && r.provider !== null ? r.provider : undefined;
    if (typeof r.maxDelayMs === "number" && (p === undefined || p.maxRetryDelayMs == null)) {
      r.provider = Object.assign({}, p || {}, { maxRetryDelayMs: r.maxDelayMs });
    }
    delete r.maxDelayMs;
  }
  return s;
}

function parseTimeout(v) {
  if (typeof v === "string") {
    const t = v.trim();
    if (t.toLowerCase() === "disabled") return 0;
    if (t === "") return undefined;
    return parseTimeout(Number(t));
  }
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.floor(v) : undefined;
}

function timeoutSetting(v, name) {
  const ms = parseTimeout(v);
  if (ms !== undefined) return ms;
  if (v !== undefined) throw new Error(`Invalid ${name} setting: ${String(v)}`);
  return undefined;
}

function expandPath(p) {
  if (p === "~") return os.homedir();
  if (p.startsWith("~/")) return pathMod.join(os.homedir(), p.slice(2));
  if (/^file:\/\//.test(p)) return require("url").fileURLToPath(p);
  return p;
}
const resolvePath = (p) => pathMod.resolve(expandPath(p));

// Storages: withLock(scope, fn) hands fn the file's text (undefined when
// there is none) and writes what fn returns unless that is undefined.
class FileSettingsStorage {
  constructor(cwd, agentDir) {
    this.globalSettingsPath = pathMod.join(resolvePath(agentDir), "settings.json");
    this.projectSettingsPath = pathMod.join(resolvePath(cwd), CONFIG_DIR_NAME, "settings.json");
  }
  withLock(scope, fn) {
    host.settingsEdit(scope === "global" ? this.globalSettingsPath : this.projectSettingsPath, fn);
  }
}

class InMemorySettingsStorage {
  withLock(scope, fn) {
    const next = fn(scope === "global" ? this.global : this.project);
    if (next === undefined) return;
    if (scope === "global") this.global = next;
    else this.project = next;
  }
}

function loadScope(storage, scope, trusted) {
  if (scope === "project" && !trusted) return { settings: {}, error: null };
  try {
    let text;
    storage.withLock(scope, (cur) => { text = cur; return undefined; });
    return { settings: text ? migrate(JSON.parse(stripBom(text))) : {}, error: null };
  } catch (error) {
    return { settings: {}, error };
  }
}

function settingsError(scope, error, path) {
  const e = { scope };
  if (path) e.path = path;
  e.error = error instanceof Error ? error : new Error(String(error));
  return e;
}

const SECRET = Symbol("SettingsManager.construct");

class SettingsManager {
  constructor(token, storage, global, project, globalErr, projectErr, errors, trusted, paths) {
    if (token !== SECRET) throw new TypeError("SettingsManager: use SettingsManager.create() or SettingsManager.inMemory()");
    this.storage = storage;
    this.globalSettings = global;
    this.projectSettings = project;
    this.settings = mergeLayers(global, project);
    this.projectTrusted = trusted;
    this.modifiedFields = new Set();
    this.modifiedNestedFields = new Map();
    this.modifiedProjectFields = new Set();
    this.modifiedProjectNestedFields = new Map();
    this.globalSettingsLoadError = globalErr;
    this.projectSettingsLoadError = projectErr;
    this.writeQueue = Promise.resolve();
    this.errors = errors.slice();
    this.settingsPaths = paths;
  }

  static create(cwd, agentDir, options) {
    const dir = agentDir === undefined ? require("@earendil-works/pi-coding-agent").getAgentDir() : agentDir;
    const storage = new FileSettingsStorage(cwd, dir);
    return SettingsManager._open(storage, options || {}, { global: storage.globalSettingsPath, project: storage.projectSettingsPath });
  }

  static fromStorage(storage, options) { return SettingsManager._open(storage, options || {}, {}); }

  static inMemory(settings, options) {
    const storage = new InMemorySettingsStorage();
    const initial = migrate(clone(settings || {}));
    storage.withLock("global", () => JSON.stringify(initial, null, 2));
    return SettingsManager.fromStorage(storage, options);
  }

  static _open(storage, options, paths) {
    const trusted = options.projectTrusted ?? true;
    const g = loadScope(storage, "global", true);
    const p = loadScope(storage, "project", trusted);
    const errors = [];
    if (g.error) errors.push(settingsError("global", g.error, paths.global));
    if (p.error) errors.push(settingsError("project", p.error, paths.project));
    return new SettingsManager(SECRET, storage, g.settings, p.settings, g.error, p.error, errors, trusted, paths);
  }

  getSettings() { return clone(this.settings); }
  getGlobalSettings() { return clone(this.globalSettings); }
  getProjectSettings() { return clone(this.projectSettings); }
  isProjectTrusted() { return this.projectTrusted; }

  setProjectTrusted(trusted) {
    if (this.projectTrusted === trusted) return;
    this.projectTrusted = trusted;
    this._clearModified("project");
    if (!trusted) {
      this.projectSettings = {};
      this.projectSettingsLoadError = null;
    } else {
      const p = loadScope(this.storage, "project", true);
      this.projectSettings = p.settings;
      this.projectSettingsLoadError = p.error;
      if (p.error) this._recordError("project", p.error);
    }
    this.settings = mergeLayers(this.globalSettings, this.projectSettings);
  }

  async reload() {
    await this.writeQueue;
    const g = loadScope(this.storage, "global", true);
    if (g.error) this._recordError("global", g.error);
    else this.globalSettings = g.settings;
    this.globalSettingsLoadError = g.error;
    this._clearModified("global");
    this._clearModified("project");
    const p = loadScope(this.storage, "project", this.projectTrusted);
    if (p.error) this._recordError("project", p.error);
    else this.projectSettings = p.settings;
    this.projectSettingsLoadError = p.error;
    this.settings = mergeLayers(this.globalSettings, this.projectSettings);
  }

  applyOverrides(overrides) { this.settings = mergeLayers(this.settings, overrides); }

  async flush() { await this.writeQueue; }

  drainErrors() {
    const out = this.errors;
    this.errors = [];
    return out;
  }

  _recordError(scope, error) { this.errors.push(settingsError(scope, error, this.settingsPaths[scope])); }

  _clearModified(scope) {
    if (scope === "global") { this.modifiedFields.clear(); this.modifiedNestedFields.clear(); }
    else { this.modifiedProjectFields.clear(); this.modifiedProjectNestedFields.clear(); }
  }

  _mark(project, field, nested) {
    (project ? this.modifiedProjectFields : this.modifiedFields).add(field);
    if (!nested) return;
    const m = project ? this.modifiedProjectNestedFields : this.modifiedNestedFields;
    if (!m.has(field)) m.set(field, new Set());
    m.get(field).add(nested);
  }

  _assertTrusted() {
    if (!this.projectTrusted) throw new Error("Project is not trusted; refusing to write project settings");
  }

  // _persist queues the write of scope: the modified fields of the
  // snapshot replace the file's, nested ones key by key, the rest of the
  // file stays as it is.
  _persist(scope) {
    const project = scope === "project";
    if (project ? this.projectSettingsLoadError : this.globalSettingsLoadError) return;
    const snap = clone(project ? this.projectSettings : this.globalSettings);
    const fields = new Set(project ? this.modifiedProjectFields : this.modifiedFields);
    const nested = new Map();
    for (const [k, v] of (project ? this.modifiedProjectNestedFields : this.modifiedNestedFields)) nested.set(k, new Set(v));
    this.writeQueue = this.writeQueue.then(() => {
      if (project) this._assertTrusted();
      this.storage.withLock(scope, (cur) => {
        const file = cur ? migrate(JSON.parse(stripBom(cur))) : {};
        const out = Object.assign({}, file);
        for (const f of fields) {
          const v = snap[f];
          if (nested.has(f) && typeof v === "object" && v !== null) {
            const merged = Object.assign({}, file[f] ?? {});
            for (const k of nested.get(f)) merged[k] = v[k];
            out[f] = merged;
          } else {
            out[f] = v;
          }
        }
        return JSON.stringify(out, null, 2);
      });
      this._clearModified(scope);
    }).catch((e) => this._recordError(scope, e));
  }

  _save() {
    this.settings = mergeLayers(this.globalSettings, this.projectSettings);
    this._persist("global");
  }

  _setGlobal(field, value) {
    this.globalSettings[field] = value;
    this._mark(false, field);
    this._save();
  }

  _setNested(field, key, value) {
    if (!this.globalSettings[field]) this.globalSettings[field] = {};
    this.globalSettings[field][key] = value;
    this._mark(false, field, key);
    this._save();
  }

  _setProject(field, value) {
    this._assertTrusted();
    const next = clone(this.projectSettings);
    next[field] = value;
    this._mark(true, field);
    this.projectSettings = clone(next);
    this.settings = mergeLayers(this.globalSettings, this.projectSettings);
    this._persist("project");
  }

  _get(path) {
    let v = this.settings;
    for (const k of path.split(".")) v = v == null ? undefined : v[k];
    return v;
  }

  _or(path) { return this._get(path) ?? D[path]; }

  _oneOf(path, allowed) {
    const v = this._get(path);
    return allowed.includes(v) ? v : D[path];
  }

  getLastChangelogVersion() { return this.settings.lastChangelogVersion; }
  setLastChangelogVersion(v) { this._setGlobal("lastChangelogVersion", v); }
  getExtensionChangelogVersion(key) { return this.settings.extensionChangelogVersions?.[key]; }
  setExtensionChangelogVersion(key, version) {
    this.globalSettings.extensionChangelogVersions = Object.assign({}, this.globalSettings.extensionChangelogVersions ?? {}, { [key]: version });
    this._mark(false, "extensionChangelogVersions", key);
    this._save();
  }
  getSessionDir() { const d = this.settings.sessionDir; return d ? expandPath(d) : d; }
  getDefaultProvider() { return this.settings.defaultProvider; }
  getDefaultModel() { return this.settings.defaultModel; }
  setDefaultProvider(p) { this._setGlobal("defaultProvider", p); }
  setDefaultModel(m) { this._setGlobal("defaultModel", m); }
  setDefaultModelAndProvider(provider, modelId) {
    this.globalSettings.defaultProvider = provider;
    this.globalSettings.defaultModel = modelId;
    this._mark(false, "defaultProvider");
    this._mark(false, "defaultModel");
    this._save();
  }
  getSteeringMode() { return this.settings.steeringMode || D.steeringMode; }
  getFollowUpMode() { return this.settings.followUpMode || D.followUpMode; }
  getThemeSetting() { const t = this.settings.theme; return typeof t === "string" ? t : undefined; }
  getTheme() { const t = this.getThemeSetting(); return t !== undefined && t.includes("/") ? undefined : t; }
  getDefaultThinkingLevel() { return this.settings.defaultThinkingLevel; }
  getModelThinkingLevel(provider, modelId) { return this.settings.modelThinkingLevels?.[provider + "/" + modelId]; }
  getAllModelThinkingLevels() { return Object.assign({}, this.settings.modelThinkingLevels ?? {}); }
  setModelThinkingLevel(provider, modelId, level) {
    if (!this.globalSettings.modelThinkingLevels) this.globalSettings.modelThinkingLevels = {};
    this.globalSettings.modelThinkingLevels[provider + "/" + modelId] = level;
    this._mark(false, "modelThinkingLevels");
    this._save();
  }
  removeModelThinkingLevel(provider, modelId) {
    const m = this.globalSettings.modelThinkingLevels;
    if (!m) return;
    delete m[provider + "/" + modelId];
    if (Object.keys(m).length === 0) delete this.globalSettings.modelThinkingLevels;
    this._mark(false, "modelThinkingLevels");
    this._save();
  }
  getTransport() { return this._or("transport"); }
  getSessionShareDestination() { return this._oneOf("sessionShareDestination", ["gist", "radius"]); }
  getCompactionEnabled() { return this._or("compaction.enabled"); }

  _compactionTokens(field, model) {
    const c = this.settings.compaction;
    const plain = c?.[field];
    const bad = (v) => v !== undefined && (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0);
    if (bad(plain)) throw new Error(`Invalid compaction.${field} setting: ${String(plain)}. Expected a non-negative safe integer.`);
    const key = model ? model.provider + "/" + model.id : undefined;
    const entry = key !== undefined ? c?.modelOverrides?.[key] : undefined;
    if (entry !== undefined && !isObj(entry)) throw new Error(`Invalid compaction.modelOverrides["${key}"] setting: ${String(entry)}. Expected an object.`);
    const o = entry?.[field];
    if (bad(o)) throw new Error(`Invalid compaction.modelOverrides["${key}"].${field} setting: ${String(o)}. Expected a non-negative safe integer.`);
    return o ?? plain ?? D["compaction." + field];
  }
  getCompactionReserveTokens(model) { return this._compactionTokens("reserveTokens", model); }
  getCompactionKeepRecentTokens(model) { return this._compactionTokens("keepRecentTokens", model); }
  getCompactionSettings(model) {
    return { enabled: this.getCompactionEnabled(), reserveTokens: this.getCompactionReserveTokens(model), keepRecentTokens: this.getCompactionKeepRecentTokens(model) };
  }
  getBranchSummarySettings() { return { reserveTokens: this._or("branchSummary.reserveTokens"), skipPrompt: this._or("branchSummary.skipPrompt") }; }
  getBranchSummarySkipPrompt() { return this._or("branchSummary.skipPrompt"); }
  getRetryEnabled() { return this._or("retry.enabled"); }
  getRetrySettings() {
    return { enabled: this.getRetryEnabled(), maxRetries: this._or("retry.maxRetries"), baseDelayMs: this._or("retry.baseDelayMs"), maxAgentDelayMs: this._or("retry.maxAgentDelayMs") };
  }
  getHttpIdleTimeoutMs() { return timeoutSetting(this.settings.httpIdleTimeoutMs, "httpIdleTimeoutMs") ?? DEFAULT_HTTP_IDLE_TIMEOUT_MS; }
  setHttpIdleTimeoutMs(ms) {
    if (!Number.isFinite(ms) || ms < 0) throw new Error(`Invalid httpIdleTimeoutMs setting: ${String(ms)}`);
    this._setGlobal("httpIdleTimeoutMs", Math.floor(ms));
  }
  // Read from the global layer only: warming costs money.
  getCacheWarmingMode() { const m = this.globalSettings.cacheWarming; return CACHE_WARMING_MODES.includes(m) ? m : D.cacheWarming; }
  getProviderRetrySettings() {
    const p = this.settings.retry?.provider;
    return { timeoutMs: p?.timeoutMs, maxRetries: p?.maxRetries, maxRetryDelayMs: this._or("retry.provider.maxRetryDelayMs") };
  }
  getWebSocketConnectTimeoutMs() { return timeoutSetting(this.settings.websocketConnectTimeoutMs, "websocketConnectTimeoutMs"); }
  getHideThinkingBlock() { return this._or("hideThinkingBlock"); }
  getShowCacheMissNotices() { return this._or("showCacheMissNotices"); }
  getExternalEditorCommand() {
    const e = this.settings.externalEditor;
    if (typeof e === "string" && e.trim() !== "") return e;
    return process.env.VISUAL || process.env.EDITOR || (process.platform === "win32" ? "notepad" : "nano");
  }
  getShellPath() { const p = this.settings.shellPath; return p ? expandPath(p) : p; }
  getQuietStartup() { const v = this.settings.quietStartup; return v === true || v === "header" ? v : D.quietStartup; }
  getDefaultProjectTrust() { const v = this.globalSettings.defaultProjectTrust; return v === "always" || v === "never" ? v : D.defaultProjectTrust; }
  getShellCommandPrefix() { return this.settings.shellCommandPrefix; }
  getNpmCommand() { return this.settings.npmCommand ? this.settings.npmCommand.slice() : undefined; }
  setNpmCommand(cmd) { this._setGlobal("npmCommand", cmd ? cmd.slice() : undefined); }
  getCollapseChangelog() { return this._or("collapseChangelog"); }
  getEnableInstallTelemetry() { return this._or("enableInstallTelemetry"); }
  getEnableAnalytics() { return this._or("enableAnalytics"); }
  getTrackingId() { return this.settings.trackingId; }
  setEnableAnalytics(enabled) {
    this.globalSettings.enableAnalytics = enabled;
    this._mark(false, "enableAnalytics");
    if (enabled && !this.globalSettings.trackingId) {
      this.globalSettings.trackingId = require("crypto").randomUUID();
      this._mark(false, "trackingId");
    }
    this._save();
  }
  // The project layer is ignored, so a committed project file cannot give
  // every clone the same id.
  getOrCreateDeviceId() {
    if (!this.globalSettings.deviceId) this._setGlobal("deviceId", require("crypto").randomUUID());
    return this.globalSettings.deviceId;
  }
  getPackages() { return (this.settings.packages ?? []).slice(); }
  getExtensionPaths() { return (this.settings.extensions ?? []).slice(); }
  getSkillPaths() { return (this.settings.skills ?? []).slice(); }
  getPromptTemplatePaths() { return (this.settings.prompts ?? []).slice(); }
  getThemePaths() { return (this.settings.themes ?? []).slice(); }
  getEnableSkillCommands() { return this._or("enableSkillCommands"); }
  getThinkingBudgets() { return this.settings.thinkingBudgets; }
  getTerminalCapabilityOverrides() {
    const t = this.settings.terminal, out = {};
    const images = t?.images;
    if (images === "kitty" || images === "iterm2") out.images = images;
    else if (images === false) out.images = null;
    if (typeof t?.trueColor === "boolean") out.trueColor = t.trueColor;
    if (typeof t?.hyperlinks === "boolean") out.hyperlinks = t.hyperlinks;
    return out;
  }
  getShowImages() { return this._or("terminal.showImages"); }
  getImageWidthCells() {
    const w = this.settings.terminal?.imageWidthCells;
    return typeof w === "number" && Number.isFinite(w) ? Math.max(1, Math.floor(w)) : D["terminal.imageWidthCells"];
  }
  setImageWidthCells(w) { this._setNested("terminal", "imageWidthCells", Math.max(1, Math.floor(w))); }
  getClearOnShrink() {
    const v = this.settings.terminal?.clearOnShrink;
    if (v !== undefined) return v;
    return process.env.PI_CLEAR_ON_SHRINK === "1" ? true : D["terminal.clearOnShrink"];
  }
  getShowTerminalProgress() { return this._or("terminal.showTerminalProgress"); }
  getTuiMode() { return this.settings.tuiMode === "regular" ? "regular" : D.tuiMode; }
  getFullscreenExitOutput() { return this.settings.fullscreenExitOutput === "resume-hint" ? "resume-hint" : D.fullscreenExitOutput; }
  getFullscreenScrollbar() { return this._oneOf("fullscreenScrollbar", ["always", "hidden"]); }
  getFullscreenCopyOnSelect() { return this._or("fullscreenCopyOnSelect"); }
  getFullscreenWheelScrollLines() {
    const n = this.settings.fullscreenWheelScrollLines;
    return typeof n === "number" && Number.isFinite(n) ? Math.max(1, Math.min(100, Math.floor(n))) : D.fullscreenWheelScrollLines;
  }
  setFullscreenWheelScrollLines(n) { this._setGlobal("fullscreenWheelScrollLines", n === "auto" ? n : Math.max(1, Math.min(100, Math.floor(n)))); }
  getImageAutoResize() { return this._or("images.autoResize"); }
  getBlockImages() { return this._or("images.blockImages"); }
  getEnabledModels() { return this.settings.enabledModels; }
  getDefaultTools() {
    const t = this.settings.defaultTools;
    if (t === undefined) return undefined;
    return resolveTools(Array.isArray(t) ? t.filter((x) => typeof x === "string") : []);
  }
  getDoubleEscapeAction() { return this._or("doubleEscapeAction"); }
  getTreeFilterMode() { return this._oneOf("treeFilterMode", ["default", "no-tools", "user-only", "labeled-only", "all"]); }
  getShowHardwareCursor() { return this.settings.showHardwareCursor ?? process.env.PI_HARDWARE_CURSOR === "1"; }
  getEditorPaddingX() { return this._or("editorPaddingX"); }
  setEditorPaddingX(n) { this._setGlobal("editorPaddingX", Math.max(0, Math.min(3, Math.floor(n)))); }
  getOutputPad() { return this.settings.outputPad === 0 ? 0 : D.outputPad; }
  getAutocompleteMaxVisible() { return this._or("autocompleteMaxVisible"); }
  setAutocompleteMaxVisible(n) { this._setGlobal("autocompleteMaxVisible", Math.max(3, Math.min(20, Math.floor(n)))); }
  getCodeBlockIndent() { return this._or("markdown.codeBlockIndent"); }
  getMermaidRenderingMode() { return this._oneOf("markdown.mermaid", ["off", "final"]); }
  getWarnings() { return Object.assign({}, this.settings.warnings ?? {}); }
  setWarnings(w) { this._setGlobal("warnings", Object.assign({}, w)); }
}

// Setters that store their argument as it is: method name → top-level
// field of the global layer.
const plainSetters = {
  setSteeringMode: "steeringMode", setFollowUpMode: "followUpMode", setTheme: "theme",
  setDefaultThinkingLevel: "defaultThinkingLevel", setTransport: "transport",
  setSessionShareDestination: "sessionShareDestination", setCacheWarmingMode: "cacheWarming",
  setHideThinkingBlock: "hideThinkingBlock", setShowCacheMissNotices: "showCacheMissNotices", setShellPath: "shellPath",
  setQuietStartup: "quietStartup", setDefaultProjectTrust: "defaultProjectTrust", setShellCommandPrefix: "shellCommandPrefix",
  setCollapseChangelog: "collapseChangelog", setEnableInstallTelemetry: "enableInstallTelemetry", setPackages: "packages",
  setExtensionPaths: "extensions", setSkillPaths: "skills", setPromptTemplatePaths: "prompts", setThemePaths: "themes",
  setEnableSkillCommands: "enableSkillCommands", setTuiMode: "tuiMode", setFullscreenExitOutput: "fullscreenExitOutput",
  setFullscreenScrollbar: "fullscreenScrollbar", setFullscreenCopyOnSelect: "fullscreenCopyOnSelect",
  setEnabledModels: "enabledModels", setDoubleEscapeAction: "doubleEscapeAction", setTreeFilterMode: "treeFilterMode",
  setShowHardwareCursor: "showHardwareCursor", setOutputPad: "outputPad",
};
// Setters of one key inside an object setting: name → [field, key].
const nestedSetters = {
  setCompactionEnabled: ["compaction", "enabled"], setRetryEnabled: ["retry", "enabled"],
  setShowImages: ["terminal", "showImages"], setClearOnShrink: ["terminal", "clearOnShrink"],
  setShowTerminalProgress: ["terminal", "showTerminalProgress"], setImageAutoResize: ["images", "autoResize"],
  setBlockImages: ["images", "blockImages"], setMermaidRenderingMode: ["markdown", "mermaid"],
};
// Setters of the project layer: name → top-level field.
const projectSetters = {
  setProjectPackages: "packages", setProjectExtensionPaths: "extensions", setProjectSkillPaths: "skills",
  setProjectPromptTemplatePaths: "prompts", setProjectThemePaths: "themes",
};
const define = (name, fn) => Object.defineProperty(SettingsManager.prototype, name, { value: fn, writable: true, configurable: true });
for (const [name, field] of Object.entries(plainSetters)) define(name, function (v) { this._setGlobal(field, v); });
for (const [name, [field, key]] of Object.entries(nestedSetters)) define(name, function (v) { this._setNested(field, key, v); });
for (const [name, field] of Object.entries(projectSetters)) define(name, function (v) { this._setProject(field, v); });

module.exports = { SettingsManager, FileSettingsStorage, InMemorySettingsStorage };
