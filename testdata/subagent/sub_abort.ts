// A sub-agent aborted while it streams, steered while it runs a tool, and
// disposed (its transcript stays readable): each settles, and the parent
// goes on.
import { createAgentSession, DefaultResourceLoader, SessionManager, getAgentDir } from "@earendil-works/pi-coding-agent";
async function start(ctx) {
  const loader = new DefaultResourceLoader({ cwd: ctx.cwd, agentDir: getAgentDir(), noExtensions: true, noSkills: true, noContextFiles: true });
  await loader.reload();
  const { session } = await createAgentSession({ cwd: ctx.cwd, model: ctx.model, tools: ["bash"], resourceLoader: loader,
    sessionManager: SessionManager.inMemory(ctx.cwd) });
  return session;
}
export default function (pi) {
  pi.registerCommand("abort", { handler: async (_args, ctx) => {
    const session = await start(ctx);
    let aborted = false;
    session.subscribe((e) => {
      if (!aborted && e.type === "message_update") { aborted = true; session.abort(); }
    });
    await session.prompt("stream slowly");
    const last = session.messages[session.messages.length - 1];
    console.log("ABORT " + JSON.stringify({ role: last.role, stopReason: last.stopReason, idle: session.isIdle }));
    session.dispose();
    console.log("AFTER " + JSON.stringify(session.messages.map((m) => m.role)));
  }});
  pi.registerCommand("steer", { handler: async (_args, ctx) => {
    const session = await start(ctx);
    let steered;
    session.subscribe((e) => {
      if (e.type === "tool_execution_start" && steered === undefined) steered = session.steer("also this");
    });
    await session.prompt("run a command");
    console.log("STEER " + JSON.stringify({ queued: await steered, roles: session.messages.map((m) => m.role),
      users: session.messages.filter((m) => m.role === "user").map((m) => m.content.map((c) => c.text).join("")) }));
    session.dispose();
  }});
}
