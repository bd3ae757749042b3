// What ctx.reload and a session replacement discover again: an extension
// file added to (or removed from) an extensions folder, and one enabled or
// disabled through the "extensions" list of settings.json. The command
// /rs-mut changes the files, then reloads or starts a new session, and
// get_commands shows which extensions the new generation loaded.
//
//   /rs-mut {"copy": [[from, to]], "rm": [path], "project": {...},
//            "global": {...}, "then": "reload" | "new"}
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

// agentDir is where the global settings.json and extensions folder live.
function agentDir(): string {
  return process.env.PI_CODING_AGENT_DIR || path.join(os.homedir(), ".pi", "agent");
}

// mergeSettings adds keys to a settings.json; null removes one. A string
// value starting with "abs:" becomes an absolute path, resolved against
// the project folder, in a list too.
function mergeSettings(file: string, patch: Record<string, any>) {
  let cur: Record<string, any> = {};
  try {
    cur = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {}
  const abs = (v: any): any =>
    typeof v === "string" && v.startsWith("abs:") ? path.resolve(v.slice(4)) : Array.isArray(v) ? v.map(abs) : v;
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete cur[k];
    else cur[k] = abs(v);
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(cur, null, 2) + "\n");
}

export default function (pi: any) {
  pi.on("session_start", (e: any, ctx: any) => {
    ctx.ui.notify(`main session_start ${e.reason}`, "info");
  });
  pi.registerCommand("rs-mut", {
    description: "Change extension files or settings, then reload or start a new session",
    handler: async (args: string, ctx: any) => {
      const o = JSON.parse(args);
      for (const [from, to] of o.copy ?? []) {
        const dest = to.startsWith("agent:") ? path.join(agentDir(), to.slice(6)) : to;
        fs.mkdirSync(path.dirname(dest), { recursive: true });
        fs.copyFileSync(from, dest);
      }
      for (const p of o.rm ?? []) {
        fs.rmSync(p.startsWith("agent:") ? path.join(agentDir(), p.slice(6)) : p, { force: true });
      }
      if (o.project) mergeSettings(path.join(".pi", "settings.json"), o.project);
      if (o.global) mergeSettings(path.join(agentDir(), "settings.json"), o.global);
      if (o.then === "reload") await ctx.reload();
      if (o.then === "new") await ctx.newSession();
    },
  });
  pi.registerCommand("rs-tools", {
    description: "Lists the registered tools",
    handler: async (_args: string, ctx: any) => {
      ctx.ui.notify("tools " + pi.getAllTools().map((t: any) => t.name).join(","), "info");
    },
  });
}
