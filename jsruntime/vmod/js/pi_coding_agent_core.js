// The part of @earendil-works/pi-coding-agent that extensions most often
// use while they load (paths, tool helpers and factories, the file
// mutation queue, truncation), kept apart so that those uses do not compile
// the whole package. The package re-exports these very values; the
// runtime's lazy stand-in for the package serves them from here until
// something else of the package is read.
"use strict";

const host = typeof __host === "object" && __host !== null ? __host : {};

const CONFIG_DIR_NAME = ".pi";
const VERSION = "1.6.0";
const DEFAULT_MAX_LINES = 2000;
const DEFAULT_MAX_BYTES = 50 * 1024;
const GREP_MAX_LINE_LENGTH = 500;
const CURRENT_SESSION_VERSION = 3;

// ---------------------------------------------------------------- paths

function getAgentDir() {
  if (typeof host.getAgentDir === "function") return host.getAgentDir();
  const env = typeof process === "object" && process && process.env ? process.env : {};
  if (env.PI_CODING_AGENT_DIR) {
    const dir = env.PI_CODING_AGENT_DIR;
    if (dir === "~") return env.HOME || dir;
    if (dir.startsWith("~/")) return (env.HOME || "") + dir.slice(1);
    return dir;
  }
  return (env.HOME || "") + "/" + CONFIG_DIR_NAME + "/agent";
}

function getPackageDir() {
  return typeof host.getPackageDir === "function" ? host.getPackageDir() : "";
}

function getDocsPath() { return getPackageDir() + "/docs"; }
function getExamplesPath() { return getPackageDir() + "/examples"; }
function getReadmePath() { return getPackageDir() + "/README.md"; }

// ---------------------------------------------------------------- tools

function defineTool(tool) { return tool; }

function isToolCallEventType(toolName, event) { return event.toolName === toolName; }
function toolNameIs(name) { return function (event) { return event.toolName === name; }; }

// createTool asks Go for a built-in tool bound to cwd. Without a host (tests,
// tooling) the factories fail when called rather than at import time.
function toolFactory(name, definition) {
  return function (cwd, options) {
    if (typeof host.createTool !== "function") {
      throw new Error("@earendil-works/pi-coding-agent: built-in tool \"" + name + "\" is not available in this runtime");
    }
    return host.createTool(name, cwd, options, definition === true);
  };
}

const createReadTool = toolFactory("read", false);
const createBashTool = toolFactory("bash", false);
const createEditTool = toolFactory("edit", false);
const createWriteTool = toolFactory("write", false);
const createGrepTool = toolFactory("grep", false);
const createFindTool = toolFactory("find", false);
const createLsTool = toolFactory("ls", false);
const createPowerShellTool = toolFactory("powershell", false);
const createReadToolDefinition = toolFactory("read", true);
const createBashToolDefinition = toolFactory("bash", true);
const createEditToolDefinition = toolFactory("edit", true);
const createWriteToolDefinition = toolFactory("write", true);
const createGrepToolDefinition = toolFactory("grep", true);
const createFindToolDefinition = toolFactory("find", true);
const createLsToolDefinition = toolFactory("ls", true);
const createPowerShellToolDefinition = toolFactory("powershell", true);

function createCodingTools(cwd, options) {
  return ["read", "bash", "edit", "write"].map((n) => toolFactory(n, false)(cwd, options && options[n]));
}

function createReadOnlyTools(cwd, options) {
  return ["read", "grep", "find", "ls"].map((n) => toolFactory(n, false)(cwd, options && options[n]));
}

function createLocalBashOperations() {
  if (typeof host.createLocalBashOperations === "function") return host.createLocalBashOperations();
  throw new Error("@earendil-works/pi-coding-agent: createLocalBashOperations is not available in this runtime");
}

function getShellConfig() {
  if (typeof host.getShellConfig === "function") return host.getShellConfig();
  return { shell: "/bin/bash", args: ["-c"] };
}

// ---------------------------------------------------------------- mutation queue

const mutationQueues = new Map();

// withFileMutationQueue runs fn after every earlier mutation of the same file
// has finished, so concurrent edits of one path never interleave. The host
// may provide a Go-side queue shared with the built-in tools; otherwise a
// per-path promise chain does the same within this runtime.
function withFileMutationQueue(filePath, fn) {
  if (typeof host.withFileMutationQueue === "function") return host.withFileMutationQueue(filePath, fn);
  const key = typeof host.resolvePath === "function" ? host.resolvePath(filePath) : filePath;
  const previous = mutationQueues.get(key) || Promise.resolve();
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  const chained = previous.then(() => gate);
  mutationQueues.set(key, chained);
  return previous.then(async () => {
    try {
      return await fn();
    } finally {
      release();
      if (mutationQueues.get(key) === chained) mutationQueues.delete(key);
    }
  });
}

// ---------------------------------------------------------------- truncation

function utf8Length(text) {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) { n += 4; i++; } else n += 3;
    } else n += 3;
  }
  return n;
}

function countedLines(content) {
  if (content.length === 0) return [];
  const lines = content.split("\n");
  if (content.endsWith("\n")) lines.pop();
  return lines;
}

function formatSize(bytes) {
  if (bytes < 1024) return bytes + "B";
  if (bytes < 1024 * 1024) return (bytes / 1024).toFixed(1) + "KB";
  return (bytes / (1024 * 1024)).toFixed(1) + "MB";
}

function truncationResult(content, truncated, by, totalLines, totalBytes, outLines, outBytes, partial, firstTooLong, maxLines, maxBytes) {
  return {
    content: content, truncated: truncated, truncatedBy: by, totalLines: totalLines, totalBytes: totalBytes,
    outputLines: outLines, outputBytes: outBytes, lastLinePartial: partial, firstLineExceedsLimit: firstTooLong,
    maxLines: maxLines, maxBytes: maxBytes,
  };
}

function limits(options) {
  const o = options || {};
  return [o.maxLines == null ? DEFAULT_MAX_LINES : o.maxLines, o.maxBytes == null ? DEFAULT_MAX_BYTES : o.maxBytes];
}

// truncateHead keeps whole lines from the start until either limit is hit.
function truncateHead(content, options) {
  const [maxLines, maxBytes] = limits(options);
  const totalBytes = utf8Length(content);
  const lines = countedLines(content);
  const total = lines.length;
  if (total <= maxLines && totalBytes <= maxBytes) {
    return truncationResult(content, false, null, total, totalBytes, total, totalBytes, false, false, maxLines, maxBytes);
  }
  if (utf8Length(lines[0]) > maxBytes) {
    return truncationResult("", true, "bytes", total, totalBytes, 0, 0, false, true, maxLines, maxBytes);
  }
  const kept = [];
  let used = 0;
  let by = "lines";
  for (let i = 0; i < lines.length && i < maxLines; i++) {
    const cost = utf8Length(lines[i]) + (i > 0 ? 1 : 0);
    if (used + cost > maxBytes) { by = "bytes"; break; }
    kept.push(lines[i]);
    used += cost;
  }
  if (kept.length >= maxLines && used <= maxBytes) by = "lines";
  const out = kept.join("\n");
  return truncationResult(out, true, by, total, totalBytes, kept.length, utf8Length(out), false, false, maxLines, maxBytes);
}

// tailBytes returns the longest suffix of text that fits in maxBytes of
// UTF-8 without splitting a character.
function tailBytes(text, maxBytes) {
  let used = 0;
  let start = text.length;
  while (start > 0) {
    let step = 1;
    const c = text.charCodeAt(start - 1);
    if (c >= 0xdc00 && c <= 0xdfff && start >= 2) {
      const h = text.charCodeAt(start - 2);
      if (h >= 0xd800 && h <= 0xdbff) step = 2;
    }
    const size = utf8Length(text.slice(start - step, start));
    if (used + size > maxBytes) break;
    used += size;
    start -= step;
  }
  return text.slice(start);
}

// truncateTail keeps whole lines from the end; when even the last line is too
// long it keeps that line's tail and marks it partial.
function truncateTail(content, options) {
  const [maxLines, maxBytes] = limits(options);
  const totalBytes = utf8Length(content);
  const lines = countedLines(content);
  const total = lines.length;
  if (total <= maxLines && totalBytes <= maxBytes) {
    return truncationResult(content, false, null, total, totalBytes, total, totalBytes, false, false, maxLines, maxBytes);
  }
  const kept = [];
  let used = 0;
  let by = "lines";
  let partial = false;
  for (let i = lines.length - 1; i >= 0 && kept.length < maxLines; i--) {
    const cost = utf8Length(lines[i]) + (kept.length > 0 ? 1 : 0);
    if (used + cost > maxBytes) {
      by = "bytes";
      if (kept.length === 0) {
        const piece = tailBytes(lines[i], maxBytes);
        kept.unshift(piece);
        used = utf8Length(piece);
        partial = true;
      }
      break;
    }
    kept.unshift(lines[i]);
    used += cost;
  }
  if (kept.length >= maxLines && used <= maxBytes) by = "lines";
  const out = kept.join("\n");
  return truncationResult(out, true, by, total, totalBytes, kept.length, utf8Length(out), partial, false, maxLines, maxBytes);
}

function isHigh(c) { return c >= 0xd800 && c <= 0xdbff; }
function isLow(c) { return c >= 0xdc00 && c <= 0xdfff; }

// sliceHead cuts text to maxUnits UTF-16 units without splitting a pair.
function sliceHead(text, maxUnits) {
  const end = Math.max(0, maxUnits);
  return isHigh(text.charCodeAt(end - 1)) && isLow(text.charCodeAt(end)) ? text.slice(0, end - 1) : text.slice(0, end);
}

function truncateLine(line, maxChars) {
  const max = maxChars === undefined ? GREP_MAX_LINE_LENGTH : maxChars;
  if (line.length <= max) return { text: line, wasTruncated: false };
  return { text: sliceHead(line, max) + "... [truncated]", wasTruncated: true };
}

function parseLineNumber(value) {
  if (typeof value === "string" && value.trim() !== "") value = Number(value);
  return typeof value === "number" && isFinite(value) ? value : undefined;
}

function formatReadLineRange(offset, limit) {
  if (offset == null && limit == null) return "";
  const start = offset == null ? 1 : parseLineNumber(offset);
  if (start === undefined) return "";
  if (limit == null) return ":" + start;
  const count = parseLineNumber(limit);
  if (count === undefined) return "";
  const end = start + count - 1;
  return ":" + start + (end ? "-" + end : "");
}

Object.defineProperty(exports, "__esModule", { value: true });
Object.assign(exports, {
  CONFIG_DIR_NAME: CONFIG_DIR_NAME,
  VERSION: VERSION,
  DEFAULT_MAX_LINES: DEFAULT_MAX_LINES,
  DEFAULT_MAX_BYTES: DEFAULT_MAX_BYTES,
  GREP_MAX_LINE_LENGTH: GREP_MAX_LINE_LENGTH,
  CURRENT_SESSION_VERSION: CURRENT_SESSION_VERSION,
  getAgentDir: getAgentDir,
  getPackageDir: getPackageDir,
  getDocsPath: getDocsPath,
  getExamplesPath: getExamplesPath,
  getReadmePath: getReadmePath,
  defineTool: defineTool,
  isToolCallEventType: isToolCallEventType,
  toolNameIs: toolNameIs,
  toolFactory: toolFactory,
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
  mutationQueues: mutationQueues,
  withFileMutationQueue: withFileMutationQueue,
  utf8Length: utf8Length,
  countedLines: countedLines,
  formatSize: formatSize,
  truncationResult: truncationResult,
  limits: limits,
  truncateHead: truncateHead,
  tailBytes: tailBytes,
  truncateTail: truncateTail,
  isHigh: isHigh,
  isLow: isLow,
  sliceHead: sliceHead,
  truncateLine: truncateLine,
  parseLineNumber: parseLineNumber,
  formatReadLineRange: formatReadLineRange,
});
