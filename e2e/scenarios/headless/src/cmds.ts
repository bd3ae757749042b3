// Commands, flags, hooks and a tool for print and JSON mode: a command
// given as the prompt, one that sends a user message, one that sends a
// custom message that triggers a turn, ctx.shutdown(), ctx.newSession(),
// a registered flag read by an input transform, a tool_call gate and
// session_shutdown at exit. Each step reports on stderr.
import { Type } from "typebox";

export default function (pi: any) {
  pi.registerFlag("tone", { description: "Tone of the answers", type: "string", default: "plain" });
  pi.registerFlag("loud", { description: "Shout", type: "boolean", default: false });

  pi.registerCommand("hello", {
    description: "Say hello",
    handler: async (args: string, ctx: any) => {
      console.log(`stdout from /hello ${args}`);
      console.error(`/hello args=${JSON.stringify(args)} idle=${ctx.isIdle()}`);
      ctx.ui.notify(`hello ${args}`, "info");
    },
  });
  pi.registerCommand("ask", {
    description: "Ask the model about a topic",
    handler: async (args: string, ctx: any) => {
      console.error(`/ask ${args}`);
      pi.sendUserMessage(`Tell me about ${args}.`);
    },
  });
  pi.registerCommand("note", {
    description: "Send a custom message that triggers a turn",
    handler: async (args: string) => {
      pi.sendMessage({ customType: "note", content: `Note: ${args}`, display: true }, { triggerTurn: true });
    },
  });
  pi.registerCommand("bye", {
    description: "Shut down",
    handler: async (_args: string, ctx: any) => {
      console.error("/bye calling shutdown");
      ctx.shutdown();
      console.error("/bye after shutdown");
    },
  });
  pi.registerCommand("fresh", {
    description: "Start a new session",
    handler: async (args: string, ctx: any) => {
      const before = ctx.sessionManager.getSessionFile() ? "file" : "none";
      const r = await ctx.newSession({
        withSession: async (c: any) => {
          console.error(`withSession entries=${c.sessionManager.getBranch().length}`);
          if (args) await c.sendUserMessage(args);
        },
      });
      console.error(`/fresh before=${before} result=${JSON.stringify(r)}`);
    },
  });

  pi.registerTool({
    name: "shout",
    label: "Shout",
    description: "Returns the text in capitals.",
    parameters: Type.Object({ text: Type.String({ description: "Text to shout" }) }),
    async execute(_id: string, params: any) {
      return { content: [{ type: "text", text: params.text.toUpperCase() }], details: { length: params.text.length } };
    },
  });

  pi.on("input", async (event: any) => {
    console.error(`input source=${event.source} text=${JSON.stringify(event.text)}`);
    if (event.text.startsWith("?q ")) {
      return { action: "transform", text: `(${pi.getFlag("tone")}${pi.getFlag("loud") ? ", loud" : ""}) ${event.text.slice(3)}` };
    }
    if (event.text === "ping") return { action: "handled" };
    return { action: "continue" };
  });
  pi.on("tool_call", async (event: any) => {
    if (event.toolName === "bash" && String(event.input.command).includes("rm ")) {
      return { block: true, reason: "rm is not allowed here" };
    }
  });
  pi.on("session_start", (e: any) => console.error(`session_start ${e.reason}`));
  pi.on("agent_end", (e: any) => console.error(`agent_end ${e.messages.length}`));
  pi.on("session_shutdown", (e: any) => console.error(`session_shutdown ${e.reason}`));
}
