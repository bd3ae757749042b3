// @earendil-works/pi-coding-agent, the JavaScript half: constants, defineTool
// and the event type guards, truncation helpers, convertToLlm and
// serializeConversation, frontmatter parsing, the file mutation queue, the
// built-in tool factories (backed by Go through __host.createTool), and inert
// TUI classes. SDK entry points that only make sense inside the Node
// reference (createAgentSession, SessionManager, ...) exist so imports
// resolve, and throw a clear error when used.
"use strict";

const ai = require("@earendil-works/pi-ai");
const tui = require("@earendil-works/pi-tui");
const host = typeof __host === "object" && __host !== null ? __host : {};

function notSupported(name) {
  const fn = function () {
    throw new Error("@earendil-works/pi-coding-agent: " + name + " is not supported in pi-go");
  };
  Object.defineProperty(fn, "name", { value: name });
  return fn;
}

// unsupportedClass is constructible (so `class X extends Y` at module load and
// `instanceof` checks work) but every use of it beyond that fails clearly.
function unsupportedClass(name) {
  const message = "@earendil-works/pi-coding-agent: " + name + " is not supported in pi-go";
  const C = class {
    constructor() { throw new Error(message); }
  };
  Object.defineProperty(C, "name", { value: name });
  return new Proxy(C, {
    get(target, prop, receiver) {
      if (prop in target || typeof prop === "symbol") return Reflect.get(target, prop, receiver);
      return function () { throw new Error(message); };
    },
  });
}

const core = require("pi:internal/coding-agent-core");
const {
  CONFIG_DIR_NAME,
  VERSION,
  DEFAULT_MAX_LINES,
  DEFAULT_MAX_BYTES,
  GREP_MAX_LINE_LENGTH,
  CURRENT_SESSION_VERSION,
  getAgentDir,
  getPackageDir,
  getDocsPath,
  getExamplesPath,
  getReadmePath,
  defineTool,
  isToolCallEventType,
  toolNameIs,
  toolFactory,
  createReadTool,
  createBashTool,
  createEditTool,
  createWriteTool,
  createGrepTool,
  createFindTool,
  createLsTool,
  createPowerShellTool,
  createReadToolDefinition,
  createBashToolDefinition,
  createEditToolDefinition,
  createWriteToolDefinition,
  createGrepToolDefinition,
  createFindToolDefinition,
  createLsToolDefinition,
  createPowerShellToolDefinition,
  createCodingTools,
  createReadOnlyTools,
  createLocalBashOperations,
  getShellConfig,
  mutationQueues,
  withFileMutationQueue,
  utf8Length,
  countedLines,
  formatSize,
  truncationResult,
  limits,
  truncateHead,
  tailBytes,
  truncateTail,
  isHigh,
  isLow,
  sliceHead,
  truncateLine,
  parseLineNumber,
  formatReadLineRange,
} = core;

// ---------------------------------------------------------------- messages

// These strings reach the model, so they are the same as the engine's
// (engine/convert.go) and the reference's.
const COMPACTION_SUMMARY_PREFIX = "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
const COMPACTION_SUMMARY_SUFFIX = "\n</summary>";
const BRANCH_SUMMARY_PREFIX = "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
const BRANCH_SUMMARY_SUFFIX = "</summary>";

function bashExecutionToText(m) {
  let text = "Ran `" + m.command + "`\n";
  text += m.output ? "```\n" + m.output + "\n```" : "(no output)";
  if (m.cancelled) text += "\n\n(command cancelled)";
  else if (m.exitCode !== null && m.exitCode !== undefined && m.exitCode !== 0) text += "\n\nCommand exited with code " + m.exitCode;
  if (m.truncated && m.fullOutputPath) text += "\n\n[Output truncated. Full output: " + m.fullOutputPath + "]";
  return text;
}

function userText(text, timestamp) {
  return { role: "user", content: [{ type: "text", text: text }], timestamp: timestamp };
}

// convertToLlm maps session messages to the roles an LLM understands:
// custom messages, bash runs and summaries become user messages; the
// standard roles pass through; anything else is dropped.
function convertToLlm(messages) {
  const out = [];
  for (const m of messages) {
    switch (m.role) {
      case "bashExecution":
        if (!m.excludeFromContext) out.push(userText(bashExecutionToText(m), m.timestamp));
        break;
      case "custom":
        out.push({ role: "user", content: typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content, timestamp: m.timestamp });
        break;
      case "branchSummary":
        out.push(userText(BRANCH_SUMMARY_PREFIX + m.summary + BRANCH_SUMMARY_SUFFIX, m.timestamp));
        break;
      case "compactionSummary":
        out.push(userText(COMPACTION_SUMMARY_PREFIX + m.summary + COMPACTION_SUMMARY_SUFFIX, m.timestamp));
        break;
      case "system":
      case "user":
      case "assistant":
      case "toolResult":
        out.push(m);
        break;
      default:
        break;
    }
  }
  return out;
}

const TOOL_RESULT_MAX_CHARS = 2000;

function clipForSummary(text, maxChars) {
  if (text.length <= maxChars) return text;
  return sliceHead(text, maxChars) + "\n\n[... " + (text.length - maxChars) + " more characters truncated]";
}

// serializeConversation renders messages as labelled plain text for a
// summarisation prompt, so the model reads them as material rather than as
// a conversation to continue.
function serializeConversation(messages) {
  const parts = [];
  for (const m of messages) {
    if (m.role === "user") {
      const text = ai.contentText(m.content, "");
      if (text) parts.push("[User]: " + text);
    } else if (m.role === "assistant") {
      const calls = [];
      for (const block of m.content) {
        if (block.type !== "toolCall") continue;
        const args = Object.keys(block.arguments || {}).map((k) => k + "=" + JSON.stringify(block.arguments[k])).join(", ");
        calls.push(block.name + "(" + args + ")");
      }
      if (m.content.some((b) => b.type === "text")) parts.push("[Assistant]: " + ai.contentText(m.content));
      if (calls.length > 0) parts.push("[Assistant tool calls]: " + calls.join("; "));
    } else if (m.role === "toolResult") {
      const text = ai.contentText(m.content, "");
      if (text) parts.push("[Tool result]: " + clipForSummary(text, TOOL_RESULT_MAX_CHARS));
    }
  }
  return parts.join("\n\n");
}

function estimateTokens(message) {
  let chars = 0;
  const content = message && message.content;
  if (typeof content === "string") chars = content.length;
  else if (Array.isArray(content)) {
    for (const b of content) {
      if (b.type === "text") chars += b.text.length;
      else if (b.type === "thinking") chars += (b.thinking || "").length;
      else if (b.type === "toolCall") chars += b.name.length + JSON.stringify(b.arguments || {}).length;
      else if (b.type === "image") chars += 4800;
    }
  }
  if (message && typeof message.summary === "string") chars += message.summary.length;
  return Math.ceil(chars / 4);
}

// ---------------------------------------------------------------- frontmatter

function parseScalar(text) {
  const t = text.trim();
  if (t === "" || t === "~" || t === "null") return null;
  if (t === "true") return true;
  if (t === "false") return false;
  if (/^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/.test(t)) return Number(t);
  if (t.startsWith("\"") && t.endsWith("\"") && t.length >= 2) {
    try { return JSON.parse(t); } catch (e) { return t.slice(1, -1); }
  }
  if (t.startsWith("'") && t.endsWith("'") && t.length >= 2) return t.slice(1, -1).replace(/''/g, "'");
  if (t.startsWith("[") && t.endsWith("]")) {
    const inner = t.slice(1, -1).trim();
    return inner === "" ? [] : inner.split(",").map(parseScalar);
  }
  return t.replace(/\s+#.*$/, "");
}

// parseYaml handles the YAML that frontmatter uses in practice: key/value
// scalars, quoted strings, flow lists, block lists, and | or > blocks. The host
// may provide a complete YAML parser instead.
function parseYaml(text) {
  if (typeof host.parseYaml === "function") return host.parseYaml(text);
  const out = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*(#|$)/.test(line)) continue;
    const m = /^([A-Za-z0-9_.-]+)\s*:(.*)$/.exec(line);
    if (!m) continue;
    const key = m[1];
    const rest = m[2].trim();
    if (rest === "|" || rest === ">" || rest === "|-" || rest === ">-") {
      const block = [];
      while (i + 1 < lines.length && (/^\s+/.test(lines[i + 1]) || lines[i + 1] === "")) block.push(lines[++i].replace(/^\s+/, ""));
      while (block.length > 0 && block[block.length - 1] === "") block.pop();
      const joined = rest.startsWith("|") ? block.join("\n") : block.join(" ");
      out[key] = rest.endsWith("-") ? joined : joined + "\n";
      continue;
    }
    if (rest === "") {
      const items = [];
      while (i + 1 < lines.length && /^\s*-\s+/.test(lines[i + 1])) items.push(parseScalar(lines[++i].replace(/^\s*-\s+/, "")));
      out[key] = items.length > 0 ? items : null;
      continue;
    }
    out[key] = parseScalar(rest);
  }
  return out;
}

function splitFrontmatter(content) {
  let text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  text = text.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
  if (!text.startsWith("---")) return { yaml: null, body: text };
  const end = text.indexOf("\n---", 3);
  if (end === -1) return { yaml: null, body: text };
  return { yaml: text.slice(4, end), body: text.slice(end + 4).trim() };
}

function parseFrontmatter(content) {
  const parts = splitFrontmatter(content);
  if (!parts.yaml) return { frontmatter: {}, body: parts.body };
  const parsed = parseYaml(parts.yaml);
  return { frontmatter: parsed == null ? {} : parsed, body: parts.body };
}

function stripFrontmatter(content) { return parseFrontmatter(content).body; }

// ---------------------------------------------------------------- TUI helpers

// Headless pi-go has no key bindings or theme, so hints are the plain text.
function keyText(binding) { return String(binding); }
function keyHint(binding, description) { return keyText(binding) + " " + description; }
function rawKeyHint(key, description) { return String(key) + " " + description; }

function identityTheme() {
  const same = (a, b) => (b === undefined ? a : b);
  return new Proxy({}, {
    get(target, prop) {
      if (prop in target) return target[prop];
      if (typeof prop === "symbol") return undefined;
      return same;
    },
  });
}

function getMarkdownTheme() { return identityTheme(); }
function getSelectListTheme() { return identityTheme(); }
function getSettingsListTheme() { return identityTheme(); }
function highlightCode(code) { return String(code).split("\n"); }
function getLanguageFromPath(path) {
  const m = /\.([A-Za-z0-9]+)$/.exec(path || "");
  return m ? m[1].toLowerCase() : undefined;
}
function initTheme() {}

class Theme {
  constructor() { this.name = "pi-go"; }
  fg(color, text) { return text; }
  bg(color, text) { return text; }
  bold(text) { return text; }
  italic(text) { return text; }
  underline(text) { return text; }
  strikethrough(text) { return text; }
  inverse(text) { return text; }
  dim(text) { return text; }
}

// Inert components: extensions construct them (some subclass CustomEditor at
// module load), and headless pi-go never renders them. They extend pi-tui
// classes, so they are made on first use: an extension that imports this
// package only for helpers such as getAgentDir then never loads pi-tui.
let tuiComponents;
function components_() {
  if (tuiComponents) return tuiComponents;
  class DynamicBorder extends tui.Container {
    constructor(color) { super(); this.color = color; }
  }

  class BorderedLoader extends tui.Container {
    constructor(tuiRef, theme, message, options) {
      super();
      this.message = message;
      this.options = options;
      this.aborted = false;
      this.onAbort = undefined;
      this.controller = typeof AbortController === "function" ? new AbortController() : undefined;
      this.signal = this.controller ? this.controller.signal : undefined;
    }
    abort() {
      this.aborted = true;
      if (this.controller) this.controller.abort();
      if (typeof this.onAbort === "function") this.onAbort();
    }
    dispose() {}
  }

  class CustomEditor extends tui.Editor {
    constructor(tuiRef, theme, keybindings, options) {
      super(tuiRef, theme, options);
      this.keybindings = keybindings;
      this.actionHandlers = new Map();
      this.onEscape = undefined;
      this.onCtrlD = undefined;
      this.onPasteImage = undefined;
    }
    onAction(action, handler) { this.actionHandlers.set(action, handler); }
  }
  tuiComponents = { DynamicBorder: DynamicBorder, BorderedLoader: BorderedLoader, CustomEditor: CustomEditor };
  return tuiComponents;
}

function inertComponent(name) {
  const C = class extends tui.Container {};
  Object.defineProperty(C, "name", { value: name });
  return C;
}

// lazyExport defines exports[name] as an accessor that makes its value on
// first read and keeps it, so the value's identity is stable.
function lazyExport(name, make) {
  let made = false, value;
  Object.defineProperty(exports, name, {
    get() {
      if (!made) { value = make(); made = true; }
      return value;
    },
    set(v) { value = v; made = true; },
    enumerable: true,
    configurable: true,
  });
}

function truncateToVisualLines(text, maxLines, width) {
  const lines = tui.wrapTextWithAnsi(String(text), width || 80);
  if (lines.length <= maxLines) return { visualLines: lines, skippedCount: 0 };
  return { visualLines: lines.slice(lines.length - maxLines), skippedCount: lines.length - maxLines };
}

// ---------------------------------------------------------------- misc values

function createEventBus() {
  const handlers = new Map();
  return {
    on(channel, handler) {
      if (!handlers.has(channel)) handlers.set(channel, []);
      handlers.get(channel).push(handler);
      return () => {
        const list = handlers.get(channel) || [];
        const i = list.indexOf(handler);
        if (i >= 0) list.splice(i, 1);
      };
    },
    emit(channel, data) {
      for (const h of (handlers.get(channel) || []).slice()) h(data);
    },
    clear() { handlers.clear(); },
  };
}

function createSyntheticSourceInfo(path, options) {
  const o = options || {};
  const info = { path: path, source: o.source || "sdk", scope: o.scope || "temporary", origin: o.origin || "top-level" };
  if (o.baseDir !== undefined) info.baseDir = o.baseDir;
  return info;
}

function parseSkillBlock(text) {
  const m = /^<skill name="([^"]+)" location="([^"]+)">\n([\s\S]*?)\n<\/skill>(?:\n\n([\s\S]*))?$/.exec(text);
  if (!m) return null;
  return { name: m[1], location: m[2], content: m[3], userMessage: m[4] && m[4].trim() ? m[4].trim() : undefined };
}

function formatDimensionNote() { return undefined; }

// detectSupportedImageMimeTypeFromFile reads the first bytes of a file
// through node:fs (so errors are Node's) and asks the host's detector, the
// one the read tool and @file arguments use.
async function detectSupportedImageMimeTypeFromFile(filePath) {
  const fh = await require("fs").promises.open(filePath, "r");
  try {
    const n = 4100;
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    const mime = host.sniffImage(buf.subarray(0, bytesRead));
    return mime === "" ? null : mime;
  } finally {
    await fh.close();
  }
}

// ---------------------------------------------------------------- exports

const values = {
  CONFIG_DIR_NAME: CONFIG_DIR_NAME,
  VERSION: VERSION,
  DEFAULT_MAX_BYTES: DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES: DEFAULT_MAX_LINES,
  CURRENT_SESSION_VERSION: CURRENT_SESSION_VERSION,
  DEFAULT_COMPACTION_SETTINGS: { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 },
  VIRTUAL_MODEL_STATE_ENTRY: "pi.virtual-model-state",
  getAgentDir: getAgentDir,
  getPackageDir: getPackageDir,
  getDocsPath: getDocsPath,
  getExamplesPath: getExamplesPath,
  getReadmePath: getReadmePath,
  defineTool: defineTool,
  isToolCallEventType: isToolCallEventType,
  isBashToolResult: toolNameIs("bash"),
  isPowerShellToolResult: toolNameIs("powershell"),
  isReadToolResult: toolNameIs("read"),
  isEditToolResult: toolNameIs("edit"),
  isWriteToolResult: toolNameIs("write"),
  isGrepToolResult: toolNameIs("grep"),
  isFindToolResult: toolNameIs("find"),
  isLsToolResult: toolNameIs("ls"),
  createReadTool: createReadTool,
  createBashTool: createBashTool,
  createEditTool: createEditTool,
  createWriteTool: createWriteTool,
  createGrepTool: createGrepTool,
  createFindTool: createFindTool,
  createLsTool: createLsTool,
  createPowerShellTool: createPowerShellTool,
  createReadToolDefinition: createReadToolDefinition,
  createBashToolDefinition: createBashToolDefinition,
  createEditToolDefinition: createEditToolDefinition,
  createWriteToolDefinition: createWriteToolDefinition,
  createGrepToolDefinition: createGrepToolDefinition,
  createFindToolDefinition: createFindToolDefinition,
  createLsToolDefinition: createLsToolDefinition,
  createPowerShellToolDefinition: createPowerShellToolDefinition,
  createCodingTools: createCodingTools,
  createReadOnlyTools: createReadOnlyTools,
  createLocalBashOperations: createLocalBashOperations,
  getShellConfig: getShellConfig,
  withFileMutationQueue: withFileMutationQueue,
  formatSize: formatSize,
  truncateHead: truncateHead,
  truncateTail: truncateTail,
  truncateLine: truncateLine,
  formatReadLineRange: formatReadLineRange,
  convertToLlm: convertToLlm,
  serializeConversation: serializeConversation,
  estimateTokens: estimateTokens,
  parseFrontmatter: parseFrontmatter,
  stripFrontmatter: stripFrontmatter,
  keyHint: keyHint,
  keyText: keyText,
  rawKeyHint: rawKeyHint,
  getMarkdownTheme: getMarkdownTheme,
  getSelectListTheme: getSelectListTheme,
  getSettingsListTheme: getSettingsListTheme,
  highlightCode: highlightCode,
  getLanguageFromPath: getLanguageFromPath,
  initTheme: initTheme,
  Theme: Theme,
  get DynamicBorder() { return components_().DynamicBorder; },
  get BorderedLoader() { return components_().BorderedLoader; },
  get CustomEditor() { return components_().CustomEditor; },
  truncateToVisualLines: truncateToVisualLines,
  createEventBus: createEventBus,
  createSyntheticSourceInfo: createSyntheticSourceInfo,
  parseSkillBlock: parseSkillBlock,
  formatDimensionNote: formatDimensionNote,
  detectSupportedImageMimeTypeFromFile: detectSupportedImageMimeTypeFromFile,
};

// Interactive-mode components: constructible, never rendered headless.
const components = ["ArminComponent", "AssistantMessageComponent", "BashExecutionComponent",
  "BranchSummaryMessageComponent", "CompactionSummaryMessageComponent", "CustomMessageComponent",
  "ExtensionEditorComponent", "ExtensionInputComponent", "ExtensionSelectorComponent", "FooterComponent",
  "LoginDialogComponent", "ModelSelectorComponent", "OAuthSelectorComponent", "SessionSelectorComponent",
  "SettingsSelectorComponent", "ShowImagesSelectorComponent", "SkillInvocationMessageComponent",
  "ThemeSelectorComponent", "ThinkingSelectorComponent", "ToolExecutionComponent", "TreeSelectorComponent",
  "UserMessageComponent", "UserMessageSelectorComponent"];

// SDK classes that only exist inside the Node reference.
const classes = ["AgentSessionRuntime", "CredentialSynchronizationError", "DefaultPackageManager",
  "ExtensionRunner", "InteractiveMode", "ModelRuntime",
  "ProjectTrustStore", "RpcClient"];

// SDK classes pi-go provides, each built on first read.
const sdkClasses = {
  SettingsManager: () => require("pi:internal/sdk_settings").SettingsManager,
  SessionManager: () => require("pi:internal/sdk_session").SessionManager,
  ModelRegistry: makeModelRegistryClass,
  DefaultResourceLoader: () => require("pi:internal/sdk_agent").DefaultResourceLoader,
  AgentSession: () => require("pi:internal/sdk_agent").AgentSession,
};

// ModelRegistry is the host's registry (models.json, auth.json, the
// built-in catalog and the providers extensions registered), the one
// ctx.modelRegistry is: `new ModelRegistry()` returns it, and instanceof
// holds for it. pi-go has no ModelRuntime to build another one over.
function makeModelRegistryClass() {
  const hostRegistry = () => {
    const reg = typeof host.hostModelRegistry === "function" ? host.hostModelRegistry() : undefined;
    if (!reg) throw new Error("@earendil-works/pi-coding-agent: ModelRegistry is only available to extensions running in pi-go");
    return reg;
  };
  class ModelRegistry {
    constructor(runtime) {
      if (runtime !== undefined) throw new Error("@earendil-works/pi-coding-agent: new ModelRegistry(runtime) is not supported in pi-go; use new ModelRegistry() or ctx.modelRegistry (the host's registry)");
      return hostRegistry();
    }
    static [Symbol.hasInstance](v) {
      if (v === null || typeof v !== "object") return false;
      try { return Object.getPrototypeOf(v) === Object.getPrototypeOf(hostRegistry()); } catch (e) { return false; }
    }
  }
  return ModelRegistry;
}

// SDK functions pi-go does not provide to extensions.
const functions = ["collectEntriesForBranchSummary", "compact", "convertToPng", "copyToClipboard",
  "createAgentSessionFromServices", "createAgentSessionRuntime", "createAgentSessionServices",
  "createCodemodeExtension", "createExtensionRuntime", "createLocalPowerShellOperations", "createMcpExtension",
  "createToolSearchExtension", "discoverAndLoadExtensions",
  "generateBranchSummary", "generateDiffString", "generateSummary",
  "generateSummaryWithUsage", "generateUnifiedPatch",
  "getPowerShellConfig", "main", "migrateSessionEntries", "parseArgs", "prepareBranchEntries",
  "readStoredCredential", "renderDiff", "resizeImage", "resolveCliModel", "resolveModelScopeWithDiagnostics",
  "runPrintMode", "runRpcMode", "wrapRegisteredTool",
  "wrapRegisteredTools"];

Object.defineProperty(exports, "__esModule", { value: true });
for (const name of components) lazyExport(name, () => inertComponent(name));
// hostOr makes an SDK export from the host's module, or, where this
// package runs without the host (the vmod tests' bare runtime), the clear
// stand-in.
function hostOr(make, standIn) {
  return () => {
    try { return make(); } catch (e) {
      if (e && /Cannot find module 'pi:internal\//.test(String(e.message))) return standIn();
      throw e;
    }
  };
}
for (const name of Object.keys(sdkClasses)) lazyExport(name, hostOr(sdkClasses[name], () => unsupportedClass(name)));
// SDK functions pi-go provides (hostjs/pi_internal_sdk_functions.js).
for (const name of ["buildContextEntries", "buildSessionContext", "buildSessionProjection", "calculateContextTokens",
  "findCutPoint", "getLastAssistantUsage", "getLatestCompactionEntry", "parseSessionEntries", "shouldCompact",
  "loadProjectContextFiles", "hasTrustRequiringProjectResources", "formatSkillsForPrompt",
  "findTurnStartIndex", "loadSkills", "loadSkillsFromDir", "sessionEntryToContextMessages"]) {
  lazyExport(name, hostOr(() => require("pi:internal/sdk_functions")[name], () => notSupported(name)));
}
// Sub-agents in process (hostjs/pi_internal_sdk_agent.js).
lazyExport("createAgentSession", hostOr(() => require("pi:internal/sdk_agent").createAgentSession, () => notSupported("createAgentSession")));
for (const name of classes) exports[name] = typeof host[name] === "function" ? host[name] : unsupportedClass(name);
for (const name of functions) exports[name] = typeof host[name] === "function" ? host[name] : notSupported(name);
// Copied as descriptors, so the accessors of the tui components stay lazy.
for (const name of Object.keys(values)) Object.defineProperty(exports, name, Object.getOwnPropertyDescriptor(values, name));
