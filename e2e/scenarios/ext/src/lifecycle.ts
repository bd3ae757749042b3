// Session replacement and reload load the extensions afresh: the factory
// runs again each time. A generation number kept in a file (module state
// is not comparable across hosts) names what each generation registers,
// so the commands, the tools the model sees and the events show which
// generation is live.
import * as fs from "node:fs";
import { Type } from "typebox";

export default function (pi: any) {
  const file = "lifecycle-gen.txt";
  const gen = (fs.existsSync(file) ? Number(fs.readFileSync(file, "utf8")) : 0) + 1;
  fs.writeFileSync(file, String(gen));
  pi.registerTool({
    name: `gen_tool_${gen}`,
    label: "Generation",
    description: `Reports extension generation ${gen}.`,
    parameters: Type.Object({}),
    async execute() {
      return { content: [{ type: "text", text: `generation ${gen}` }], details: {} };
    },
  });
  pi.registerFlag("lc-flag", { description: "A flag each generation registers.", type: "string", default: "unset" });
  pi.registerCommand(`gen_${gen}`, { description: `Generation ${gen}`, handler: async () => {} });
  pi.registerCommand("lc-new", {
    description: "Start a new session",
    handler: async (_args: string, ctx: any) => {
      const r = await ctx.newSession({
        withSession: async (c: any) => c.ui.notify(`withSession new from ${gen}: ${c.sessionManager.getBranch().length} entries`, "info"),
      });
      fs.appendFileSync("lifecycle.log", `new ${gen} ${JSON.stringify(r)}\n`);
    },
  });
  pi.registerCommand("lc-fork", {
    description: "Fork before the last user message",
    handler: async (_args: string, ctx: any) => {
      const users = ctx.sessionManager.getBranch().filter((e: any) => e.type === "message" && e.message.role === "user");
      const r = await ctx.fork(users[users.length - 1].id, {
        withSession: async (c: any) => c.ui.notify(`withSession fork from ${gen}`, "info"),
      });
      fs.appendFileSync("lifecycle.log", `fork ${gen} ${JSON.stringify(r)}\n`);
    },
  });
  pi.registerCommand("lc-switch", {
    description: "Switch to a session file",
    handler: async (args: string, ctx: any) => {
      const r = await ctx.switchSession(args.trim(), {
        withSession: async (c: any) => c.ui.notify(`withSession switch from ${gen}`, "info"),
      });
      fs.appendFileSync("lifecycle.log", `switch ${gen} ${JSON.stringify(r)}\n`);
    },
  });
  pi.registerCommand("lc-reload", {
    description: "Reload the extensions",
    handler: async (_args: string, ctx: any) => {
      await ctx.reload();
      fs.appendFileSync("lifecycle.log", `reload ${gen}\n`);
    },
  });
  const say = (ctx: any, text: string) => ctx.ui.notify(`${text} (gen ${gen}, flag ${pi.getFlag("lc-flag")})`, "info");
  pi.on("session_start", (e: any, ctx: any) => say(ctx, `session_start ${e.reason}${e.previousSessionFile ? " with previous" : ""}`));
  pi.on("resources_discover", (e: any, ctx: any) => say(ctx, `resources_discover ${e.reason}`));
  pi.on("session_before_switch", (e: any, ctx: any) => say(ctx, `session_before_switch ${e.reason}`));
  pi.on("session_before_fork", (e: any, ctx: any) => say(ctx, `session_before_fork ${e.position}`));
  pi.on("session_shutdown", (e: any, ctx: any) => {
    if (e.reason !== "quit") say(ctx, `session_shutdown ${e.reason}${e.targetSessionFile ? " with target" : ""}`);
  });
}
