// ctx.ui without a terminal: what hasUI says, what each dialog resolves
// to, and where the fire-and-forget calls (notify, setStatus, setWidget,
// setTitle, setEditorText) end up in print and JSON mode. Results go to
// stderr through console.error and to the session through appendEntry.
export default function (pi: any) {
  pi.registerCommand("ui", {
    description: "Exercise ctx.ui",
    handler: async (args: string, ctx: any) => {
      const out: any = { args, hasUI: ctx.hasUI };
      ctx.ui.notify("note from /ui", "info");
      ctx.ui.notify("warning from /ui", "warning");
      ctx.ui.notify("error from /ui", "error");
      ctx.ui.setStatus("hl", "busy");
      ctx.ui.setWidget("hl", ["line one", "line two"]);
      ctx.ui.setTitle("headless title");
      ctx.ui.setEditorText("draft");
      out.editorText = ctx.ui.getEditorText();
      out.select = await ctx.ui.select("Pick one", ["a", "b"]);
      out.confirm = await ctx.ui.confirm("Sure?", "Really sure?");
      out.input = await ctx.ui.input("Name?", "placeholder");
      out.editor = await ctx.ui.editor("Edit", "prefill");
      out.theme = typeof ctx.ui.theme;
      console.error("ui results " + JSON.stringify(out));
      pi.appendEntry("ui-results", out);
    },
  });
  pi.on("session_start", (e: any, ctx: any) => {
    console.error(`session_start ${e.reason} hasUI=${ctx.hasUI}`);
    ctx.ui.notify("hello from session_start", "info");
  });
}
