// @earendil-works/pi-ai as extensions see it: TypeBox's Type, StringEnum,
// uuidv7, content and transcript helpers, cost and thinking-level helpers, the
// assistant event stream, and LLM calls bridged to the Go client through
// __host (complete, stream, streamSimple, completeSimple).
"use strict";

const typebox = require("typebox");
const { StringEnum } = require("pi:internal/ai-core");
const host = typeof __host === "object" && __host !== null ? __host : {};

function notSupported(name) {
  const fn = function () {
    throw new Error("@earendil-works/pi-ai: " + name + " is not supported in pi-go");
  };
  Object.defineProperty(fn, "name", { value: name });
  return fn;
}


// aiStreams are the host's request functions (hostjs/pi_internal_models.js):
// the Go providers with the registry's credentials, or the streamSimple an
// extension registered for the model's api.
function aiStreams(name) {
  if (typeof host.aiStreams !== "function") {
    throw new Error("@earendil-works/pi-ai: " + name + " is not available in this runtime");
  }
  return host.aiStreams();
}

// streamFn is one of pi-ai's top-level request functions.
function streamFn(name, method) {
  const fn = function (model, context, options) { return aiStreams(name)[method](model, context, options); };
  Object.defineProperty(fn, "name", { value: name });
  return fn;
}

// apiFactory is one wire API's built-in implementation, as pi-ai's
// <api>Api() lazy factories return it ({stream, streamSimple}): requests
// go to the Go provider of that API even when an extension registered a
// streamSimple for it, so that streamSimple can wrap the built-in one.
function apiFactory(name, api) {
  const fn = function () {
    return {
      stream: (model, context, options) => aiStreams(name).api(api).stream(model, context, options),
      streamSimple: (model, context, options) => aiStreams(name).api(api).streamSimple(model, context, options),
    };
  };
  Object.defineProperty(fn, "name", { value: name });
  return fn;
}

// apiStream is a legacy per-API alias (streamOpenAICompletions, ...).
function apiStream(name, api) {
  const fn = function (model, context, options) { return aiStreams(name).api(api).stream(model, context, options); };
  Object.defineProperty(fn, "name", { value: name });
  return fn;
}

// The wire APIs pi-ai implements, with the names of their factories and
// legacy stream aliases.
const wireApis = [
  ["anthropic-messages", "anthropicMessagesApi", "Anthropic"],
  ["azure-openai-responses", "azureOpenAIResponsesApi", "AzureOpenAIResponses"],
  ["bedrock-converse-stream", "bedrockConverseStreamApi", undefined],
  ["google-generative-ai", "googleGenerativeAIApi", "Google"],
  ["google-vertex", "googleVertexApi", "GoogleVertex"],
  ["mistral-conversations", "mistralConversationsApi", "Mistral"],
  ["openai-codex-responses", "openAICodexResponsesApi", "OpenAICodexResponses"],
  ["openai-completions", "openAICompletionsApi", "OpenAICompletions"],
  ["openai-responses", "openAIResponsesApi", "OpenAIResponses"],
  ["pi-messages", "piMessagesApi", undefined],
];

function contentText(content, separator) {
  if (separator === undefined) separator = "\n";
  if (typeof content === "string") return content;
  return (content || []).filter((b) => b && b.type === "text").map((b) => b.text).join(separator);
}

function getSystemMessageText(message) {
  const parts = [contentText(message.content)];
  const sections = message.sections || {};
  for (const key of Object.keys(sections)) if (sections[key] !== null) parts.push(sections[key]);
  return parts.filter((p) => p.length > 0).join("\n\n");
}

function renderSystemMessageUpdate(message) {
  const parts = [];
  const text = contentText(message.content);
  if (text.length > 0) parts.push(text);
  const sections = message.sections || {};
  for (const name of Object.keys(sections)) {
    const value = sections[name];
    parts.push(value === null
      ? "Removed system prompt section \"" + name + "\"."
      : "Updated system prompt section \"" + name + "\":\n\n" + value);
  }
  return parts.join("\n\n");
}

// ---------------------------------------------------------------- uuidv7

let lastTimestamp = 0;
let sequence = -1;
const MAX_TIMESTAMP = 0xffffffffffff;

function randomBytes(n) {
  if (typeof host.randomBytes === "function") {
    const b = host.randomBytes(n);
    if (b && b.length === n) return Array.from(b);
  }
  const out = [];
  for (let i = 0; i < n; i++) out.push(Math.floor(Math.random() * 256));
  return out;
}

// uuidv7 returns a time-ordered UUID: 48 bits of milliseconds, then a 42-bit
// counter seeded randomly that keeps ids from one process increasing even
// within one millisecond, then random bits.
function uuidv7(timestampMs) {
  const requested = timestampMs === undefined ? Date.now() : timestampMs;
  if (!Number.isInteger(requested) || requested < 0 || requested > MAX_TIMESTAMP) {
    throw new RangeError("UUIDv7 timestamp must be an integer between 0 and " + MAX_TIMESTAMP);
  }
  let ts = requested;
  if (timestampMs === undefined) {
    ts = Math.max(requested, lastTimestamp);
    lastTimestamp = ts;
  }
  const bytes = randomBytes(16);
  if (sequence < 0) sequence = ((bytes[1] & 0x3) * 2 ** 32) + ((bytes[2] << 24) >>> 0) + (bytes[3] << 16) + (bytes[4] << 8) + bytes[5];
  else sequence = (sequence + 1) % 2 ** 42;
  let t = ts;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = t % 256;
    t = Math.floor(t / 256);
  }
  const seqHigh = Math.floor(sequence / 2 ** 29);
  const seqLow = sequence % 2 ** 29;
  bytes[6] = 0x70 | ((seqHigh >> 8) & 0x0f);
  bytes[7] = seqHigh & 0xff;
  bytes[8] = 0x80 | ((seqLow >> 23) & 0x3f);
  bytes[9] = (seqLow >> 15) & 0xff;
  bytes[10] = (seqLow >> 7) & 0xff;
  bytes[11] = ((seqLow & 0x7f) << 1) | (bytes[11] & 1);
  const hex = bytes.map((b) => (b < 16 ? "0" : "") + b.toString(16)).join("");
  return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
}

// ---------------------------------------------------------------- models

function isModelType(model, type) {
  return (model && (model.type || "chat")) === type;
}

function getModelType(model) {
  return (model && model.type) || "chat";
}

function hasApi(model, api) {
  return isModelType(model, "chat") && model.api === api;
}

function calculateCost(model, usage) {
  const inputTokens = usage.input + usage.cacheRead + usage.cacheWrite;
  let rates = model.cost;
  let threshold = -1;
  for (const tier of model.cost.tiers || []) {
    if (inputTokens > tier.inputTokensAbove && tier.inputTokensAbove > threshold) {
      rates = tier;
      threshold = tier.inputTokensAbove;
    }
  }
  const longWrite = usage.cacheWrite1h || 0;
  const shortWrite = usage.cacheWrite - longWrite;
  usage.cost.input = (rates.input / 1000000) * usage.input;
  usage.cost.output = (rates.output / 1000000) * usage.output;
  usage.cost.cacheRead = (rates.cacheRead / 1000000) * usage.cacheRead;
  usage.cost.cacheWrite = (rates.cacheWrite * shortWrite + rates.input * 2 * longWrite) / 1000000;
  usage.cost.total = usage.cost.input + usage.cost.output + usage.cost.cacheRead + usage.cost.cacheWrite;
  usage.cost.totalFromProvider = false;
  return usage.cost;
}

const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

function getSupportedThinkingLevels(model) {
  if (!model || !model.reasoning) return ["off"];
  return THINKING_LEVELS.filter((level) => {
    const mapped = model.thinkingLevelMap ? model.thinkingLevelMap[level] : undefined;
    if (mapped === null) return false;
    if (level === "xhigh" || level === "max") return mapped !== undefined;
    return true;
  });
}

function clampThinkingLevel(model, level) {
  const available = getSupportedThinkingLevels(model);
  if (available.includes(level)) return level;
  const index = THINKING_LEVELS.indexOf(level);
  if (index === -1) return available[0] || "off";
  for (let i = index; i < THINKING_LEVELS.length; i++) if (available.includes(THINKING_LEVELS[i])) return THINKING_LEVELS[i];
  for (let i = index - 1; i >= 0; i--) if (available.includes(THINKING_LEVELS[i])) return THINKING_LEVELS[i];
  return available[0] || "off";
}

function modelsAreEqual(a, b) {
  if (!a || !b) return false;
  return a.provider === b.provider && a.id === b.id;
}

// The built-in catalog is read one provider at a time, on first use:
// providerIds lists the providers, byProvider maps a provider read so far
// to its id → model map. As in pi-ai, every call hands out the same model
// objects.
let providerIds;
const byProvider = new Map();
function catalogProviderIds() {
  if (!providerIds) {
    providerIds = typeof host.catalogProviders === "function" ? JSON.parse(host.catalogProviders()) : [];
  }
  return providerIds;
}
function catalogProvider(provider) {
  let byId = byProvider.get(provider);
  if (byId) return byId;
  if (!catalogProviderIds().includes(provider)) return undefined;
  byId = new Map();
  for (const m of JSON.parse(host.catalogModels(provider))) byId.set(m.id, m);
  byProvider.set(provider, byId);
  return byId;
}

function getModel(provider, id) {
  if (typeof host.getModel === "function") return host.getModel(provider, id);
  const byId = catalogProvider(provider);
  return byId ? byId.get(id) : undefined;
}

function getModels(provider) {
  if (typeof host.getModels === "function") return host.getModels(provider);
  const byId = catalogProvider(provider);
  return byId ? Array.from(byId.values()) : [];
}

function getProviders() {
  if (typeof host.getProviders === "function") return host.getProviders();
  return catalogProviderIds().slice();
}

// ---------------------------------------------------------------- transcript

function isSystemMessage(m) { return m && m.role === "system"; }

function createInitialSystemMessage(systemPrompt, tools) {
  const hasPrompt = systemPrompt !== undefined && systemPrompt.length > 0;
  const hasTools = tools !== undefined && tools.length > 0;
  if (!hasPrompt && !hasTools) return undefined;
  const message = { role: "system", content: systemPrompt === undefined ? "" : systemPrompt };
  if (hasTools) message.toolsAdded = tools;
  message.timestamp = 0;
  return message;
}

function normalizeContext(context) {
  const initial = createInitialSystemMessage(context.systemPrompt, context.tools);
  return { messages: initial ? [initial].concat(context.messages) : context.messages };
}

function getInitialSystemMessage(messages) {
  const first = messages[0];
  return first && isSystemMessage(first) ? first : undefined;
}

function withoutInitialSystemMessage(messages) {
  return getInitialSystemMessage(messages) ? messages.slice(1) : messages;
}

function getCurrentTools(messages) {
  const tools = new Map();
  for (const m of messages) {
    if (!isSystemMessage(m)) continue;
    for (const t of m.toolsRemoved || []) tools.delete(t.name);
    for (const t of m.toolsAdded || []) tools.set(t.name, t);
  }
  return Array.from(tools.values());
}

// getCurrentSystemMessage replays every system message into one: content is
// appended, sections are patched by name (null removes), tools accumulate.
function getCurrentSystemMessage(messages) {
  const content = [];
  const sections = new Map();
  let timestamp;
  for (const m of messages) {
    if (!isSystemMessage(m)) continue;
    if (timestamp === undefined) timestamp = m.timestamp;
    const text = contentText(m.content);
    if (text.length > 0) content.push(text);
    const s = m.sections || {};
    for (const name of Object.keys(s)) {
      if (s[name] === null) sections.delete(name);
      else sections.set(name, s[name]);
    }
  }
  const tools = getCurrentTools(messages);
  if (timestamp === undefined && tools.length === 0) return undefined;
  const out = { role: "system", content: content.join("\n\n") };
  if (sections.size > 0) {
    out.sections = {};
    for (const [k, v] of sections) out.sections[k] = v;
  }
  if (tools.length > 0) out.toolsAdded = tools;
  out.timestamp = timestamp === undefined ? 0 : timestamp;
  return out;
}

function getCurrentSystemPrompt(messages) {
  const m = getCurrentSystemMessage(messages);
  return m ? getSystemMessageText(m) : "";
}

function collapseSystemMessages(context) {
  const head = getCurrentSystemMessage(context.messages);
  const rest = context.messages.filter((m) => m.role !== "system");
  return { messages: head ? [head].concat(rest) : rest };
}

function resolveTranscript(context, supportsMidConversationSystem) {
  return supportsMidConversationSystem ? context : collapseSystemMessages(context);
}

function toToolDeclaration(tool) {
  const out = { name: tool.name, description: tool.description, parameters: JSON.parse(JSON.stringify(tool.parameters)) };
  if (tool.constrainedSampling !== undefined) out.constrainedSampling = tool.constrainedSampling;
  return out;
}

function getDeclaredTools(messages) {
  return getCurrentTools(messages).map(toToolDeclaration);
}

// ---------------------------------------------------------------- errors

// The error patterns are compiled on first use rather than as literals:
// goja compiles literals while parsing the module, which every extension
// importing pi-ai would pay for at startup.
const overflowSources = [
  "prompt is too long", "exceeds? the (?:maximum )?context (?:length|window)", "context[_ ]length[_ ]exceeded",
  "maximum context length", "too many tokens", "input (?:is )?too long", "token limit", "request too large",
  "reduce the length", "context window",
];
const nonOverflowSources = ["rate limit", "too many requests", "throttl", "quota"];
let overflowPatterns, nonOverflowPatterns, retryablePattern;
function patterns() {
  if (!overflowPatterns) {
    overflowPatterns = overflowSources.map((p) => new RegExp(p, "i"));
    nonOverflowPatterns = nonOverflowSources.map((p) => new RegExp(p, "i"));
    retryablePattern = new RegExp("overloaded|rate.?limit|too many requests|429|500|502|503|504|529|timeout|timed out|ECONNRESET|socket hang up|network|fetch failed|terminated|internal server error|service unavailable|bad gateway", "i");
  }
}

function getOverflowPatterns() { patterns(); return overflowPatterns.slice(); }

function isContextOverflow(message, contextWindow) {
  if (message.stopReason === "error" && message.errorMessage) {
    patterns();
    if (!nonOverflowPatterns.some((p) => p.test(message.errorMessage)) && overflowPatterns.some((p) => p.test(message.errorMessage))) {
      return true;
    }
  }
  if (contextWindow && message.stopReason === "stop" && message.usage) {
    const used = (message.usage.input || 0) + (message.usage.cacheRead || 0);
    if (used > contextWindow) return true;
  }
  return false;
}

function isRetryableAssistantError(message) {
  if (!message || message.stopReason !== "error" || !message.errorMessage) return false;
  if (isContextOverflow(message)) return false;
  patterns();
  return retryablePattern.test(message.errorMessage);
}

function formatThrownValue(value) {
  if (value instanceof Error) return value.message;
  if (typeof value === "string") return value;
  try { return JSON.stringify(value); } catch (e) { return String(value); }
}

// ---------------------------------------------------------------- streams

const asyncIteratorKeys = [];
if (typeof Symbol.asyncIterator === "symbol") asyncIteratorKeys.push(Symbol.asyncIterator);
if (!asyncIteratorKeys.includes(Symbol.for("Symbol.asyncIterator"))) asyncIteratorKeys.push(Symbol.for("Symbol.asyncIterator"));

// EventStream is an async-iterable queue with a final result. goja has no
// async generators, so iteration is a hand-written iterator registered under
// Symbol.asyncIterator and Symbol.for("Symbol.asyncIterator") (the key
// esbuild's for-await lowering falls back to).
class EventStream {
  constructor(isComplete, extractResult) {
    this.queue = [];
    this.waiting = [];
    this.done = false;
    this.isComplete = isComplete;
    this.extractResult = extractResult;
    this.finalResultPromise = new Promise((resolve) => { this.resolveFinalResult = resolve; });
    for (const key of asyncIteratorKeys) this[key] = () => this.iterator();
  }

  push(event) {
    if (this.done) return;
    if (this.isComplete(event)) {
      this.done = true;
      this.resolveFinalResult(this.extractResult(event));
    }
    const waiter = this.waiting.shift();
    if (waiter) waiter({ value: event, done: false });
    else this.queue.push(event);
  }

  end(result) {
    this.done = true;
    if (result !== undefined) this.resolveFinalResult(result);
    while (this.waiting.length > 0) this.waiting.shift()({ value: undefined, done: true });
  }

  iterator() {
    const self = this;
    const it = {
      next() {
        if (self.queue.length > 0) return Promise.resolve({ value: self.queue.shift(), done: false });
        if (self.done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => self.waiting.push(resolve));
      },
      return() { return Promise.resolve({ value: undefined, done: true }); },
    };
    for (const key of asyncIteratorKeys) it[key] = () => it;
    return it;
  }

  result() { return this.finalResultPromise; }
}

class AssistantMessageEventStream extends EventStream {
  constructor() {
    super((e) => e.type === "done" || e.type === "error", (e) => (e.type === "done" ? e.message : e.error));
  }
}

function createAssistantMessageEventStream() {
  return new AssistantMessageEventStream();
}

// ToolCallArgumentsStream accumulates streamed tool-call argument JSON and
// exposes the best-effort parse of what has arrived so far.
class ToolCallArgumentsStream {
  constructor() { this.text = ""; }
  push(delta) { this.text += delta; return this.current(); }
  current() { return parseStreamingJson(this.text); }
  finish() { return parseStreamingJson(this.text); }
}

function repairJson(text) {
  let out = "";
  const stack = [];
  let inString = false;
  let escaped = false;
  for (const ch of text) {
    out += ch;
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === "\"") inString = false;
      continue;
    }
    if (ch === "\"") inString = true;
    else if (ch === "{") stack.push("}");
    else if (ch === "[") stack.push("]");
    else if (ch === "}" || ch === "]") stack.pop();
  }
  if (escaped) out = out.slice(0, -1);
  if (inString) out += "\"";
  out = out.replace(/[,:]\s*$/, "");
  while (stack.length > 0) out += stack.pop();
  return out;
}

function parseStreamingJson(text) {
  if (!text || text.trim() === "") return {};
  try { return JSON.parse(text); } catch (e) { /* fall through to repair */ }
  try { return JSON.parse(repairJson(text)); } catch (e) { return {}; }
}

function parseJsonWithRepair(text) {
  try { return JSON.parse(text); } catch (e) { return JSON.parse(repairJson(text)); }
}

function parseToolCallArguments(text) { return parseStreamingJson(text); }

// ---------------------------------------------------------------- exports

const values = {
  Type: typebox.Type,
  StringEnum: StringEnum,
  uuidv7: uuidv7,
  contentText: contentText,
  getSystemMessageText: getSystemMessageText,
  renderSystemMessageUpdate: renderSystemMessageUpdate,
  calculateCost: calculateCost,
  clampThinkingLevel: clampThinkingLevel,
  getSupportedThinkingLevels: getSupportedThinkingLevels,
  hasApi: hasApi,
  isModelType: isModelType,
  getModelType: getModelType,
  modelsAreEqual: modelsAreEqual,
  getModel: getModel,
  getModels: getModels,
  getProviders: getProviders,
  createInitialSystemMessage: createInitialSystemMessage,
  normalizeContext: normalizeContext,
  getInitialSystemMessage: getInitialSystemMessage,
  withoutInitialSystemMessage: withoutInitialSystemMessage,
  getCurrentTools: getCurrentTools,
  getCurrentSystemMessage: getCurrentSystemMessage,
  getCurrentSystemPrompt: getCurrentSystemPrompt,
  collapseSystemMessages: collapseSystemMessages,
  resolveTranscript: resolveTranscript,
  toToolDeclaration: toToolDeclaration,
  getDeclaredTools: getDeclaredTools,
  isContextOverflow: isContextOverflow,
  getOverflowPatterns: getOverflowPatterns,
  isRetryableAssistantError: isRetryableAssistantError,
  formatThrownValue: formatThrownValue,
  EventStream: EventStream,
  AssistantMessageEventStream: AssistantMessageEventStream,
  createAssistantMessageEventStream: createAssistantMessageEventStream,
  ToolCallArgumentsStream: ToolCallArgumentsStream,
  repairJson: repairJson,
  parseStreamingJson: parseStreamingJson,
  parseJsonWithRepair: parseJsonWithRepair,
  parseToolCallArguments: parseToolCallArguments,
  complete: streamFn("complete", "complete"),
  completeSimple: streamFn("completeSimple", "complete"),
  stream: streamFn("stream", "stream"),
  streamSimple: streamFn("streamSimple", "stream"),
  getEnvApiKey: (provider) => (typeof host.getEnvApiKey === "function" ? host.getEnvApiKey(provider) : undefined),
  PI_AI_VERSION: "1.6.0",
  DEFAULT_MAX_AGENT_RETRY_DELAY_MS: 60000,
};

// The rest of pi-ai's value exports: constants with their reference values
// and functions/classes that pi-go does not implement, present so imports
// resolve and failing only when used.
const constants = {
  ANTHROPIC_API_KEY_ENV: "ANTHROPIC_API_KEY",
  ANTHROPIC_AUTH_TOKEN_ENV: "ANTHROPIC_AUTH_TOKEN",
  ANTHROPIC_OAUTH_TOKEN_ENV: "ANTHROPIC_OAUTH_TOKEN",
  ANTHROPIC_FEDERATION_RULE_ID_ENV: "ANTHROPIC_FEDERATION_RULE_ID",
  ANTHROPIC_IDENTITY_TOKEN_FILE_ENV: "ANTHROPIC_IDENTITY_TOKEN_FILE",
  ANTHROPIC_ORGANIZATION_ID_ENV: "ANTHROPIC_ORGANIZATION_ID",
  ANTHROPIC_SERVICE_ACCOUNT_ID_ENV: "ANTHROPIC_SERVICE_ACCOUNT_ID",
  ANTHROPIC_WORKSPACE_ID_ENV: "ANTHROPIC_WORKSPACE_ID",
  CACHE_WARMING_IDLE_CONTINUATION_PROBABILITY: 0.15,
  CACHE_WARMING_MAX_AGE_MS: 3600000,
  CACHE_WARMING_MAX_IDLE_AGE_MS: 1800000,
  CACHE_WARMING_MINIMUM_EXPECTED_SAVINGS: 0.05,
  AI_TELEMETRY_SCHEMA: { version: 1, spans: {} },
  PI_ATTRIBUTION: { name: "pi", url: "https://pi.dev", categories: ["cli-agent"] },
};

const unsupportedNames = ["InMemoryCredentialStore", "InMemoryModelsStore", "ModelsError", "StreamingJsonParser",
  "anthropicMessagesApi", "appendAssistantMessageDiagnostic", "azureOpenAIResponsesApi", "bedrockConverseStreamApi",
  "cleanupSessionResources", "createAssistantMessageDiagnostic", "createFauxCore", "createModels", "createProvider",
  "declarationsEqual", "defaultProviderAuthContext", "envApiKeyAuth", "evaluateCacheWarming", "extractDiagnosticError",
  "fauxAssistantMessage", "fauxProvider", "fauxText", "fauxThinking", "fauxToolCall", "findEnvKeys", "formatUserAgent",
  "generateImages", "generateImagesOpenRouter", "getApiProvider", "getApiProviders", "getAttributionHeaders",
  "getCacheWarmingDelayMs", "getCacheWarmingRequestOptions", "getClientVersion", "getIdentityHeaders", "getImageModel",
  "getImageModels", "getImageProviders", "getImagesApiProvider", "getOpenCodeSessionHeaders", "getPromptCacheTtlMs",
  "getToolStateChanges", "googleGenerativeAIApi", "googleVertexApi", "hasNonAdditiveToolChanges", "hasToolRedefinitions",
  "isCacheWarmingReplayable", "isRecoverableLength", "lazyApi", "lazyOAuth", "lazyStream", "mergeClientIdentity",
  "mistralConversationsApi", "openAICodexResponsesApi", "openAICompletionsApi", "openAIResponsesApi", "piMessagesApi",
  "registerApiProvider", "registerBuiltInApiProviders", "registerBuiltInImagesApiProviders", "registerFauxProvider",
  "registerImagesApiProvider", "registerSessionResourceCleanup", "resetApiProviders", "resolveTranscriptTools",
  "retryAssistantCall", "retryDelayMs", "setBedrockProviderLoader", "setBedrockProviderModule", "streamAnthropic",
  "streamAzureOpenAIResponses", "streamGoogle", "streamGoogleVertex", "streamMistral", "streamOpenAICodexResponses",
  "streamOpenAICompletions", "streamOpenAIResponses", "streamSimpleAnthropic", "streamSimpleAzureOpenAIResponses",
  "streamSimpleGoogle", "streamSimpleGoogleVertex", "streamSimpleMistral", "streamSimpleOpenAICodexResponses",
  "streamSimpleOpenAICompletions", "streamSimpleOpenAIResponses", "unregisterApiProviders", "validateToolArguments",
  "validateToolCall", "withClientIdentity"];

Object.defineProperty(exports, "__esModule", { value: true });
for (const name of unsupportedNames) exports[name] = typeof host[name] === "function" ? host[name] : notSupported(name);
for (const [api, factory, alias] of wireApis) {
  exports[factory] = apiFactory(factory, api);
  if (alias) {
    exports["stream" + alias] = apiStream("stream" + alias, api);
    exports["streamSimple" + alias] = apiStream("streamSimple" + alias, api);
  }
}
for (const name of Object.keys(constants)) exports[name] = constants[name];
for (const name of Object.keys(values)) exports[name] = values[name];
