// The order in which what one handler does reaches an RPC client:
//   /ord-a      idle pi.sendMessage, then ctx.ui.notify
//   ord_tool    during a run: pi.sendUserMessage without deliverAs (an
//               error), then a steer
//   /ord-c      pi.sendMessage with triggerTurn from a command, with a
//               before_agent_start handler that notifies
//   /ord-d      arms an agent_settled handler that both starts a run
//               (triggerTurn) and sends a prompt
//   /ord-e      labels set, changed, removed and set again, then the
//               session manager's labelsById order
import { Type } from "typebox";

export default function (pi: any) {
  let settledArmed = false;
  pi.on("before_agent_start", (e: any, ctx: any) => {
    ctx.ui.notify("before_agent_start " + JSON.stringify(e.prompt), "info");
  });
  pi.registerCommand("ord-a", {
    description: "Idle sendMessage, then notify",
    handler: async (_args: string, ctx: any) => {
      pi.sendMessage({ customType: "ord", content: "a-msg", display: true });
      ctx.ui.notify("a-notify", "info");
    },
  });
  pi.registerTool({
    name: "ord_tool",
    label: "Ordering",
    description: "Sends a plain user message and a steer during the run",
    parameters: Type.Object({}),
    async execute(_id: string, _params: any, _signal: any, _onUpdate: any, ctx: any) {
      pi.sendUserMessage("b-plain");
      pi.sendUserMessage("b-steer", { deliverAs: "steer" });
      ctx.ui.notify("b-notify", "info");
      return { content: [{ type: "text", text: "done" }], details: {} };
    },
  });
  pi.registerCommand("ord-c", {
    description: "sendMessage with triggerTurn from a command",
    handler: async (_args: string, ctx: any) => {
      pi.sendMessage({ customType: "ord", content: "c-msg", display: true }, { triggerTurn: true });
      ctx.ui.notify("c-notify", "info");
    },
  });
  pi.registerCommand("ord-d", {
    description: "Arm the agent_settled handler",
    handler: async () => {
      settledArmed = true;
    },
  });
  pi.on("agent_settled", (_e: any, ctx: any) => {
    if (!settledArmed) return;
    settledArmed = false;
    pi.sendMessage({ customType: "ord", content: "d-msg", display: true }, { triggerTurn: true });
    pi.sendUserMessage("d-prompt");
    ctx.ui.notify("d-notify", "info");
  });
  pi.registerCommand("ord-e", {
    description: "Set labels and report labelsById",
    handler: async (_args: string, ctx: any) => {
      const ids = ctx.sessionManager.getEntries().filter((e: any) => e.type === "message").map((e: any) => e.id);
      const [x, y, z] = ids;
      pi.setLabel(x, "x1");
      pi.setLabel(y, "y1");
      pi.setLabel(z, "z1");
      pi.setLabel(x, "x2");
      pi.setLabel(y, undefined);
      pi.setLabel(y, "y2");
      const name = (id: string) => ["x", "y", "z"][ids.indexOf(id)];
      const sm = ctx.sessionManager;
      const labels = [...sm.labelsById.entries()].map(([id, l]: any) => name(id) + "=" + l);
      const stamps = [...sm.labelTimestampsById.keys()].map(name);
      ctx.ui.notify("labels " + labels.join(",") + " stamps " + stamps.join(","), "info");
    },
  });
}
