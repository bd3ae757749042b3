// Which session a ctx.sessionManager captured before a session replacement
// reads and writes afterwards: the one it was handed out for, or the
// current one. /sm-new keeps the manager, starts a new session, then reads
// through it and appends a custom entry; /sm-where reports which session
// files hold that entry.
import * as fs from "node:fs";

// oldFile is module state, which a replacement keeps.
let oldFile = "";

export default function (pi: any) {
  pi.registerCommand("sm-new", {
    description: "Keep ctx.sessionManager across ctx.newSession, then use it",
    handler: async (_args: string, ctx: any) => {
      const sm = ctx.sessionManager;
      oldFile = sm.getSessionFile();
      const before = { id: sm.getSessionId(), entries: sm.getEntries().length, leaf: sm.getLeafId() };
      let fresh: any = {};
      await ctx.newSession({
        withSession: async (c: any) => {
          fresh = { id: c.sessionManager.getSessionId(), entries: c.sessionManager.getEntries().length };
        },
      });
      const after = { id: sm.getSessionId(), entries: sm.getEntries().length, leaf: sm.getLeafId() };
      const report: any = {
        sameId: after.id === before.id,
        freshId: after.id === fresh.id,
        sameEntries: after.entries === before.entries,
        sameLeaf: after.leaf === before.leaf,
        sameFile: sm.getSessionFile() === oldFile,
        fields: sm.sessionId === before.id,
      };
      try {
        sm.appendCustomEntry("sm-probe", { n: 1 });
        report.append = "ok";
      } catch (e: any) {
        report.append = "throws " + e.message;
      }
      report.afterAppend = sm.getEntries().length - before.entries;
      globalThis.__smReport = report;
    },
  });
  pi.registerCommand("sm-where", {
    description: "Report where the probe entry landed",
    handler: async (_args: string, ctx: any) => {
      const inOld = oldFile && fs.existsSync(oldFile) ? fs.readFileSync(oldFile, "utf8").includes("sm-probe") : false;
      const cur = ctx.sessionManager.getSessionFile();
      const inNewFile = cur && fs.existsSync(cur) ? fs.readFileSync(cur, "utf8").includes("sm-probe") : false;
      const inNew = ctx.sessionManager.getEntries().some((e: any) => e.customType === "sm-probe");
      ctx.ui.notify("sm " + JSON.stringify({ ...(globalThis as any).__smReport, inOld, inNew, inNewFile }), "info");
    },
  });
}
