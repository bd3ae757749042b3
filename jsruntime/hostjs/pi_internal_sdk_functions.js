// The session and compaction functions of @earendil-works/pi-coding-agent
// (parseSessionEntries, buildSessionContext, findCutPoint, ...). The small
// ones are plain JavaScript; context building and cut points run the
// engine's Go code (host_sdk_functions.go). Loaded on first use.
"use strict";
const host = __host;

function parseSessionEntries(content) {
  const out = [];
  for (const line of String(content).trim().split("\n")) {
    if (!line.trim()) continue;
    try { out.push(JSON.parse(line)); } catch (e) { /* a malformed line is skipped */ }
  }
  return out;
}

function getLatestCompactionEntry(entries) {
  for (let i = entries.length - 1; i >= 0; i--) if (entries[i].type === "compaction") return entries[i];
  return null;
}

function calculateContextTokens(usage) {
  return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

function getLastAssistantUsage(entries) {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e.type !== "message") continue;
    const m = e.message;
    if (m && m.role === "assistant" && "usage" in m && m.stopReason !== "aborted" && m.stopReason !== "error" &&
      m.usage && calculateContextTokens(m.usage) > 0) return m.usage;
  }
  return undefined;
}

function shouldCompact(contextTokens, contextWindow, settings) {
  return !!settings.enabled && contextTokens > contextWindow - settings.reserveTokens;
}

// branchOf is the path from the root to leafId (the last entry when
// leafId is undefined or unknown; nothing when it is null).
function branchOf(entries, leafId, byId) {
  if (leafId === null) return [];
  const index = byId || new Map(entries.map((e) => [e.id, e]));
  let leaf = leafId ? index.get(leafId) : undefined;
  if (!leaf) leaf = entries[entries.length - 1];
  const path = [];
  for (let cur = leaf; cur; cur = cur.parentId ? index.get(cur.parentId) : undefined) path.push(cur);
  return path.reverse();
}

const contextOf = (kind, entries, leafId, byId) => JSON.parse(host.sdkSessionContext(kind, JSON.stringify(branchOf(entries, leafId, byId))));

function buildSessionContext(entries, leafId, byId) { return contextOf("context", entries, leafId, byId); }
function buildSessionProjection(entries, leafId, byId) { return contextOf("projection", entries, leafId, byId); }
function buildContextEntries(entries, leafId, byId) { return contextOf("entries", entries, leafId, byId); }

function findCutPoint(entries, startIndex, endIndex, keepRecentTokens) {
  return JSON.parse(host.sdkFindCutPoint(JSON.stringify(entries), startIndex, endIndex, keepRecentTokens));
}

function loadProjectContextFiles(options) {
  const o = options || {};
  return JSON.parse(host.sdkProjectContextFiles(String(o.cwd), o.agentDir === undefined ? "" : String(o.agentDir)));
}

function hasTrustRequiringProjectResources(cwd) { return host.hasTrustRequiringProjectResources(String(cwd)); }

// formatSkillsForPrompt is the skills section of the host's own system
// prompt (prompts.FormatSkills): the same XML listing as the reference,
// with pi-go's wording around it.
function formatSkillsForPrompt(skills, fileReadTool) {
  return host.sdkFormatSkills(JSON.stringify(skills || []), fileReadTool === undefined ? "read" : String(fileReadTool));
}

function sessionEntryToContextMessages(entry) {
  return JSON.parse(host.sdkEntryMessages(JSON.stringify([entry])))[0];
}

const TURN_START_ROLES = new Set(["user", "bashExecution", "custom", "branchSummary", "compactionSummary"]);

// findTurnStartIndex is the entry, from entryIndex back to startIndex,
// whose context messages open a turn; -1 when none does.
function findTurnStartIndex(entries, entryIndex, startIndex) {
  if (entryIndex < startIndex) return -1;
  const span = entries.slice(Math.max(0, startIndex), entryIndex + 1);
  const msgs = JSON.parse(host.sdkEntryMessages(JSON.stringify(span)));
  for (let i = msgs.length - 1; i >= 0; i--) {
    if (span[i] && span[i].type !== "compaction" && msgs[i].some((m) => TURN_START_ROLES.has(m.role))) return i + Math.max(0, startIndex);
  }
  return -1;
}

function loadSkills(options) {
  const o = options || {};
  return JSON.parse(host.sdkLoadSkills(String(o.cwd === undefined ? process.cwd() : o.cwd), o.agentDir === undefined ? "" : String(o.agentDir),
    JSON.stringify((o.skillPaths || []).map(String)), o.includeDefaults === undefined ? true : !!o.includeDefaults, ""));
}

function loadSkillsFromDir(options) {
  const o = options || {};
  return JSON.parse(host.sdkLoadSkills(process.cwd(), "", JSON.stringify([String(o.dir)]), false, o.source === undefined ? "" : String(o.source)));
}

module.exports = {
  sessionEntryToContextMessages, findTurnStartIndex, loadSkills, loadSkillsFromDir,
  formatSkillsForPrompt, loadProjectContextFiles, hasTrustRequiringProjectResources,
  parseSessionEntries, getLatestCompactionEntry, calculateContextTokens, getLastAssistantUsage, shouldCompact,
  buildSessionContext, buildSessionProjection, buildContextEntries, findCutPoint,
};
