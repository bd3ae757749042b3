// The command ctx (ctx plus session control) api.js hands command
// handlers, and the session manager ctx.newSession's setup writes through.
// Loaded as the host module pi:internal/commandctx on the first command
// run: api.js is compiled on every start, commands run rarely.
"use strict";
module.exports = function (h) {
  const { G, call, callAsync, makeCtx, sessionManager, live } = h;
  // The session manager ctx.newSession's setup callback writes through:
  // the bound session's, which is the new one by then.
  const writableSessionManager = sessionManager;
  function makeCommandCtx() {
    const ctx = makeCtx(undefined);
    // Each member checks the generation first and throws at once when
    // it is stale, before any promise exists, as the reference's do.
    ctx.getSystemPromptOptions = () => { live(); return call("getSystemPromptOptions") || { cwd: G.cwd }; };
    ctx.waitForIdle = () => { live(); return callAsync("waitForIdle"); };
    // Session replacement (api_session.go): the runtime stays, bound to
    // the new session; setup writes to it before withSession runs.
    const replaced = async (r, opts) => {
      if (r && !r.cancelled && opts && typeof opts.withSession === "function") {
        // The replacing generation's command ctx: this one is stale now.
        const rctx = G.replacedCtx() || makeCommandCtx();
        // Settled when the prompt they start is over (api_sendwait.go).
        rctx.sendMessage = async (message, o) => { await callAsync("sendMessageWait", [message, o || {}]); };
        rctx.sendUserMessage = async (content, o) => { await callAsync("sendUserMessageWait", [content, o || {}]); };
        await opts.withSession(rctx);
      }
      return r;
    };
    const checked = (fn) => (...a) => { live(); return fn(...a); };
    ctx.newSession = checked(async (opts) => {
      const r = await callAsync("newSession", { parentSession: opts && opts.parentSession });
      if (r && !r.cancelled && opts && typeof opts.setup === "function") {
        await opts.setup(writableSessionManager);
        await callAsync("refreshContext");
      }
      return replaced(r, opts);
    });
    // Like the reference's print and RPC hosts, fork and navigateTree
    // answer only {cancelled}.
    ctx.fork = checked(async (entryId, opts) => {
      const r = await replaced(await callAsync("fork", { entryId, position: (opts && opts.position) || "before" }), opts);
      return { cancelled: !!(r && r.cancelled) };
    });
    ctx.navigateTree = checked(async (targetId, opts) => {
      const r = await callAsync("navigateTree", { targetId, ...(opts || {}) });
      return { cancelled: !!(r && r.cancelled) };
    });
    ctx.switchSession = checked(async (path, opts) => replaced(await callAsync("switchSession", { path }), opts));
    ctx.reload = checked(async () => { await callAsync("reload"); });
    return ctx;
  }

  return makeCommandCtx;
};
