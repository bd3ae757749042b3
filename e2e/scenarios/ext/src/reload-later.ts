// An extension that is enabled only after startup (copied into an
// extensions folder or listed in settings.json), to show whether a reload
// or a session replacement loads it.
export default function (pi: any) {
  pi.on("session_start", (e: any, ctx: any) => {
    ctx.ui.notify(`later session_start ${e.reason}`, "info");
  });
  pi.registerCommand("rs-later", {
    description: "Registered by the extension enabled after startup",
    handler: async (_args: string, ctx: any) => ctx.ui.notify("later ran", "info"),
  });
  pi.registerTool({
    name: "rs_later_tool",
    label: "Later",
    description: "Registered by the extension enabled after startup",
    parameters: { type: "object", properties: {} },
    async execute() {
      return { content: [{ type: "text", text: "later" }], details: {} };
    },
  });
}
