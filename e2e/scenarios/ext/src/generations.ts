// What survives a session replacement and a reload: module state (kept
// across replacements, reset by a reload), globalThis (always kept), timers
// of an older generation (they keep running), and what a captured ctx or pi
// does once it is stale. It also shows which resources a reload and a
// replacement read again (AGENTS.md, a project skill).
import * as fs from "node:fs";

let moduleRuns = 0;

// probe lists which members of a stale ctx and pi still answer.
// Without replace, it leaves out the members that would replace the session.
function probe(ctx: any, pi: any, replace = true): string {
  let checks: [string, () => unknown][] = [
    ["ctx.cwd", () => ctx.cwd],
    ["ctx.ui", () => ctx.ui],
    ["ctx.hasUI", () => ctx.hasUI],
    ["ctx.sessionManager", () => ctx.sessionManager],
    ["ctx.model", () => ctx.model],
    ["ctx.isIdle", () => ctx.isIdle()],
    ["ctx.getSystemPrompt", () => ctx.getSystemPrompt()],
    ["ctx.waitForIdle", () => ctx.waitForIdle()],
    ["ctx.newSession", () => ctx.newSession()],
    ["ctx.reload", () => ctx.reload()],
    ["pi.getFlag", () => pi.getFlag("gen-flag")],
    ["pi.on", () => pi.on("agent_end", () => {})],
    ["pi.registerCommand", () => pi.registerCommand("late", { handler: async () => {} })],
    ["pi.getSessionName", () => pi.getSessionName()],
    ["pi.events.emit", () => pi.events.emit("gen", 1)],
  ];
  if (!replace) checks = checks.filter(([name]) => name !== "ctx.newSession" && name !== "ctx.reload");
  let message = "";
  const out = checks.map(([name, fn]) => {
    try {
      const r: any = fn();
      if (r && typeof r.then === "function") r.then(undefined, () => {});
      return `${name}:ok`;
    } catch (e: any) {
      message = e.message;
      return `${name}:throws`;
    }
  });
  return `${out.join(" ")} | ${message}`;
}

export default function (pi: any) {
  moduleRuns++;
  const g = globalThis as any;
  g.__genGlobalRuns = (g.__genGlobalRuns || 0) + 1;
  const factory = moduleRuns;
  if (!g.__genTimer) {
    g.__genTicks = 0;
    g.__genTimer = setInterval(() => g.__genTicks++, 20);
  }
  pi.registerFlag("gen-flag", { description: "A flag every generation registers.", type: "string", default: "unset" });
  pi.on("session_start", (e: any, ctx: any) => {
    ctx.ui.notify(`session_start ${e.reason}: module ${moduleRuns} factory ${factory} global ${g.__genGlobalRuns} flag ${pi.getFlag("gen-flag")}`, "info");
  });
  pi.registerCommand("gen-state", {
    description: "Reports module, global and timer state",
    handler: async (_args: string, ctx: any) => {
      const t0 = g.__genTicks;
      await new Promise((r) => setTimeout(r, 200));
      ctx.ui.notify(`state: module ${moduleRuns} factory ${factory} global ${g.__genGlobalRuns} ticking ${g.__genTicks > t0}`, "info");
      if (g.__genStale) ctx.ui.notify(`stale: ${g.__genStale}`, "info");
      g.__genStale = undefined;
    },
  });
  pi.registerCommand("gen-new", {
    description: "New session, then probe the old ctx",
    handler: async (_args: string, ctx: any) => {
      await ctx.newSession({ withSession: async (c: any) => c.ui.notify(`withSession: ${probe(c, pi, false).split(" | ")[0]}`, "info") });
      g.__genStale = probe(ctx, pi);
    },
  });
  pi.registerCommand("gen-reload", {
    description: "Change AGENTS.md and add a skill, reload, then probe the old ctx",
    handler: async (_args: string, ctx: any) => {
      fs.writeFileSync("AGENTS.md", "Project rule: answer in one word (after reload).\n");
      fs.mkdirSync(".pi/skills/added", { recursive: true });
      fs.writeFileSync(".pi/skills/added/SKILL.md", "---\nname: added\ndescription: A skill added before the reload.\n---\nUse it.\n");
      await ctx.reload();
      g.__genStale = probe(ctx, pi);
    },
  });
  pi.registerCommand("gen-touch", {
    description: "Change AGENTS.md again",
    handler: async () => {
      fs.writeFileSync("AGENTS.md", "Project rule: answer in two words (before new session).\n");
    },
  });
}
