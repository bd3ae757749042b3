// Extension tool execution (see api.js): the tool's ctx, progress updates
// and the result in the shape Go expects. Loaded as the host module
// pi:internal/tools on the first tool run: api.js is compiled on every
// start, tools run later or never.
"use strict";
module.exports = function (h) {
  const { G, call, parse, errMsg, exts, makeCtx, live } = h;
  // normalizeResult keeps the tool's own keys in the tool's order: the
  // reference passes the returned object through, so isError keeps its
  // place and its value (false included), and an absent details stays
  // absent.
  function normalizeResult(r) {
    r = r || {};
    const out = {};
    if (!Array.isArray(r.content)) out.content = [];
    for (const k of Object.keys(r)) {
      if (k === "content" && Array.isArray(r.content)) out.content = r.content;
      else if (k === "details" && r.details !== undefined) out.details = r.details;
      else if (k === "structuredContent" && r.structuredContent !== undefined) out.structuredContent = r.structuredContent;
      else if (k === "isError" && r.isError !== undefined) out.isError = !!r.isError;
    }
    if (r.terminate) out.terminate = true;
    return out;
  }
  // callableTools is ctx.tools: the active tools in registration order,
  // each in the shape of the reference's tool registry entries.
  function callableTools(nested) {
    const active = new Set(call("getActiveTools") || []);
    return (call("getAllTools") || []).filter((t) => active.has(t.name)).map((t) => {
      let def;
      for (const e of exts) if (e.tools.has(t.name)) def = e.tools.get(t.name);
      const d = def || {};
      return {
        name: t.name, label: d.label ?? t.name, description: t.description, parameters: t.parameters,
        outputSchema: d.outputSchema, constrainedSampling: d.constrainedSampling, prepareArguments: d.prepareArguments,
        executionMode: d.executionMode,
        execute: def ? def.execute.bind(def) : (callId, args) => nested(t.name, args).then((r) => r.result),
      };
    });
  }
  function executeTool(path, name, id, json, onUpdate, ok, fail) {
    const ext = exts.find((e) => e.path === path);
    const def = ext && ext.tools.get(name);
    const ac = new AbortController();
    if (!def) {
      fail(`Tool ${name} not found`);
      return () => {};
    }
    const ctx = makeCtx(ac.signal);
    const nested = async (n, args) => ({
      toolCall: { type: "toolCall", id: `${id}/0`, name: n, arguments: {} },
      result: { content: [{ type: "text", text: "Nested tool calls are not available in this context" }], details: {} },
      isError: true,
    });
    // As in the reference, tools and executeTool are own properties that
    // Object.keys does not list, and like the rest of the ctx they throw
    // the stale error once the generation is retired (executeTool by
    // rejecting: it is an async function there).
    Object.defineProperties(ctx, {
      tools: { get: () => { live(); return callableTools(nested); } },
      executeTool: { value: async (n, args) => { live(); return nested(n, args); } },
    });
    const update = (partial) => { try { onUpdate(JSON.stringify(normalizeResult(partial))); } catch (e) { /* ignore late updates */ } };
    G.enter(path, "tool:" + name);
    Promise.resolve()
      .then(() => {
        let params = parse(json);
        if (typeof def.prepareArguments === "function") params = def.prepareArguments(params);
        return def.execute(id, params, ac.signal, update, ctx);
      })
      .then((r) => ok(JSON.stringify(normalizeResult(r))), (e) => fail(errMsg(e)));
    return () => ac.abort();
  }
  return executeTool;
};
