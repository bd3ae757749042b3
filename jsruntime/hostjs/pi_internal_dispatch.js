// The events whose handlers' results combine (input transforms, the
// system prompt, context messages, tool gates and results, provider
// payloads, turn boundaries, trust, resources); every other event is
// api.js's emit. Loaded as the host module pi:internal/dispatch on the
// first such event: api.js is compiled on every start, these run later or
// never. h carries api.js's helpers; setRunPrompt records the prompt
// before_agent_start settled on.
"use strict";
module.exports = function (h) {
  const { G, makeCtx, snapshot, report, runID, setRunPrompt } = h;
  const dispatchers = {
    async input(ev) {
      const ctx = makeCtx(undefined);
      let text = ev.text;
      let images = ev.images;
      for (const { ext, handlers } of snapshot("input")) {
        for (const h of handlers) {
          try {
            G.enter(ext.path, "input");
            const r = await h({ type: "input", text, images, source: ev.source, streamingBehavior: ev.streamingBehavior }, ctx);
            if (r && r.action === "handled") return r;
            if (r && r.action === "transform") {
              text = r.text;
              images = r.images ?? images;
            }
          } catch (e) {
            report(ext.path, "input", e);
          }
        }
      }
      return text !== ev.text || images !== ev.images ? { action: "transform", text, images } : { action: "continue" };
    },
    async before_agent_start(ev) {
      // Handlers may change systemPromptOptions in place; the prompt they
      // see is rendered from the options as they stand, and a returned
      // systemPrompt forces the text (later handlers see it).
      // customPrompt and forceSystemPrompt lead the options, undefined
      // unless set, as in the reference.
      const options = { customPrompt: undefined, forceSystemPrompt: undefined, ...(ev.systemPromptOptions || { cwd: G.cwd }) };
      const baseJSON = JSON.stringify(options);
      const render = () => {
        if (options.forceSystemPrompt !== undefined) return options.forceSystemPrompt;
        const cur = JSON.stringify(options);
        return cur === baseJSON ? ev.systemPrompt : G.renderPrompt(cur);
      };
      // The run has not started yet: no signal, as in the reference.
      const ctx = makeCtx(undefined);
      ctx.getSystemPrompt = render;
      const messages = [];
      for (const { ext, handlers } of snapshot("before_agent_start")) {
        for (const h of handlers) {
          try {
            G.enter(ext.path, "before_agent_start");
            const trigger = ev.message ? { messageType: "custom", message: ev.message } : { messageType: "user", prompt: ev.prompt, images: ev.images };
            const event = { ...trigger, type: "before_agent_start", systemPromptOptions: options, get systemPrompt() { return render(); } };
            const r = await h(event, ctx);
            if (r) {
              if (r.message) messages.push(r.message);
              if (r.systemPrompt !== undefined) options.forceSystemPrompt = r.systemPrompt;
            }
          } catch (e) {
            report(ext.path, "before_agent_start", e);
          }
        }
      }
      setRunPrompt({ id: runID(), text: render() });
      const forced = options.forceSystemPrompt;
      delete options.forceSystemPrompt;
      const changed = JSON.stringify(options) !== baseJSON;
      return { messages, systemPrompt: forced, systemPromptOptions: changed ? options : undefined };
    },
    context(ev) { return chainMessages("context", ev); },
    context_with_system(ev) { return chainMessages("context_with_system", ev); },
  };
  // context and context_with_system chain the request's messages: each
  // handler sees the list so far and may return or edit a new one.
  const LOST_HEAD = "Handler removed the leading system message; the request has no prompt or initial tool declarations. Keep it at index 0 or replace a dropped prefix with getCurrentSystemMessage().";
  async function chainMessages(type, ev) {
    const ctx = makeCtx(G.signal());
    let messages = ev.messages;
    let changed = false;
    for (const { ext, handlers } of snapshot(type)) {
      for (const h of handlers) {
        try {
          G.enter(ext.path, type);
          const hadHead = messages.length > 0 && messages[0] && messages[0].role === "system";
          const visible = messages.slice();
          const r = await h({ type, messages: visible }, ctx);
          const ret = (r && r.messages) || (visible.length !== messages.length || visible.some((m, i) => m !== messages[i]) ? visible : undefined);
          if (!ret) continue;
          messages = ret;
          changed = true;
          // Providers take the prompt and the first tool declarations from
          // the leading system message: the reference sends what the
          // handler returned but reports the loss.
          if (type === "context_with_system" && hadHead && !(messages[0] && messages[0].role === "system")) {
            report(ext.path, type, LOST_HEAD);
          }
        } catch (e) {
          report(ext.path, type, e);
        }
      }
    }
    return changed ? { messages } : undefined;
  }
  Object.assign(dispatchers, {
    async tool_call(ev) {
      const ctx = makeCtx(G.signal());
      const event = { type: "tool_call", toolName: ev.toolName, toolCallId: ev.toolCallId, input: ev.input };
      let result;
      for (const { ext, handlers } of snapshot("tool_call")) {
        for (const h of handlers) {
          G.enter(ext.path, "tool_call");
          let r;
          try {
            r = await h(event, ctx);
          } catch (e) {
            if (e instanceof Error) throw e;
            throw new Error(`Extension failed, blocking execution: ${String(e)}`);
          }
          if (r) {
            result = r;
            if (r.block) return { block: true, reason: r.reason, terminate: r.terminate, input: event.input };
          }
        }
      }
      return { block: false, terminate: result && result.terminate, input: event.input };
    },
    async tool_result(ev) {
      const ctx = makeCtx(G.signal());
      const cur = { type: "tool_result", toolName: ev.toolName, toolCallId: ev.toolCallId, input: ev.input, content: ev.content, details: ev.details };
      if (ev.structuredContent !== undefined) cur.structuredContent = ev.structuredContent;
      cur.isError = ev.isError;
      cur.usage = undefined;
      let modified = false;
      for (const { ext, handlers } of snapshot("tool_result")) {
        for (const h of handlers) {
          try {
            G.enter(ext.path, "tool_result");
            const r = await h(cur, ctx);
            if (!r) continue;
            if (r.content !== undefined) {
              cur.content = r.content;
              if (r.structuredContent === undefined) delete cur.structuredContent;
              modified = true;
            }
            if (r.details !== undefined) { cur.details = r.details; modified = true; }
            if (r.structuredContent !== undefined) { cur.structuredContent = r.structuredContent; modified = true; }
            if (r.isError !== undefined) { cur.isError = r.isError; modified = true; }
          } catch (e) {
            report(ext.path, "tool_result", e);
          }
        }
      }
      return modified ? { content: cur.content, details: cur.details, structuredContent: cur.structuredContent, isError: cur.isError } : undefined;
    },
  });

  // The reference's chat payloads are objects built in JS whose prompt
  // cache fields exist with an undefined value when not sent (JSON drops
  // them on the way from Go): they are put back after "stream", the
  // payload's first three keys telling the wire API.
  const PAYLOAD_UNDEFINED = {
    "model,messages,stream": ["prompt_cache_key", "prompt_cache_retention"],
    "model,input,stream": ["prompt_cache_key", "prompt_cache_retention", "prompt_cache_options"],
  };
  function payloadShape(p) {
    if (!p || typeof p !== "object" || Array.isArray(p)) return p;
    const keys = Object.keys(p);
    const extra = PAYLOAD_UNDEFINED[keys.slice(0, 3).join(",")];
    if (!extra) return p;
    const out = {};
    for (const k of keys.slice(0, 3)) out[k] = p[k];
    for (const k of extra) out[k] = p[k];
    for (const k of keys) if (!(k in out)) out[k] = p[k];
    return out;
  }

  // before_provider_request chains the payload through every handler; a
  // returned value other than undefined replaces it.
  dispatchers.before_provider_request = async function (ev) {
    const ctx = makeCtx(G.signal());
    let payload = payloadShape(ev.payload);
    for (const { ext, handlers } of snapshot("before_provider_request")) {
      for (const h of handlers) {
        try {
          G.enter(ext.path, "before_provider_request");
          const r = await h({ type: "before_provider_request", payload }, ctx);
          if (r !== undefined) payload = r;
        } catch (e) {
          report(ext.path, "before_provider_request", e);
        }
      }
    }
    return { payload };
  };

  // before_provider_headers handlers change event.headers in place (a
  // null value deletes a header); what they return is ignored. The
  // headers as the last handler left them go back to Go.
  dispatchers.before_provider_headers = async function (ev) {
    const ctx = makeCtx(G.signal());
    const headers = ev.headers && typeof ev.headers === "object" ? ev.headers : {};
    for (const { ext, handlers } of snapshot("before_provider_headers")) {
      for (const h of handlers) {
        try {
          G.enter(ext.path, "before_provider_headers");
          await h({ type: "before_provider_headers", headers }, ctx);
        } catch (e) {
          report(ext.path, "before_provider_headers", e);
        }
      }
    }
    return { headers };
  };

  // turn_end and agent_before_settle are boundaries: each handler sees
  // the entries and continue flag proposed so far, and a returned field
  // replaces it.
  const boundary = (type) => async function (ev) {
    // agent_before_settle comes after the run: no signal, as in the
    // reference.
    const ctx = makeCtx(type === "turn_end" ? G.signal() : undefined);
    let entries = [];
    let cont = false;
    let context = ev.context;
    let valid = true;
    // What the context was last built from: a handler that proposes
    // nothing new leaves it as it is (an invalid proposal is checked, and
    // reported, again).
    let built = "[]";
    for (const { ext, handlers } of snapshot(type)) {
      for (const h of handlers) {
        try {
          G.enter(ext.path, type);
          // The proposal itself, as in the reference: a handler may also
          // push onto event.entries.
          const r = await h({ ...ev, entries, continue: cont, context }, ctx);
          if (r && typeof r === "object") {
            if (r.entries !== undefined) entries = r.entries;
            if (r.continue !== undefined) cont = !!r.continue;
          }
        } catch (e) {
          report(ext.path, type, e);
        }
        // The next handler sees the context rebuilt from the entries
        // proposed so far; entries the session would refuse are reported
        // against the handler that proposed them.
        try {
          if (!Array.isArray(entries)) throw new Error("entries must be an array");
          const json = JSON.stringify(entries);
          if (valid && json === built) continue;
          built = json;
          context = JSON.parse(G.boundaryPreview(type, json));
          valid = true;
        } catch (e) {
          valid = false;
          report(ext.path, type, "Invalid boundary entries: " + errText(e));
        }
      }
    }
    if (!valid) return undefined;
    return entries.length > 0 || cont ? { entries, continue: cont } : undefined;
  };
  const errText = (e) => (e instanceof Error ? e.message : String(e));
  // cache_warming_decision: every handler sees pi's decision; the last
  // one returning an action overrides it.
  dispatchers.cache_warming_decision = async function (ev) {
    const ctx = makeCtx(undefined);
    const event = { type: "cache_warming_decision", warmCost: ev.warmCost, missCost: ev.missCost,
      continuationProbability: ev.continuationProbability, action: ev.action };
    let action = ev.action;
    for (const { ext, handlers } of snapshot("cache_warming_decision")) {
      for (const h of handlers) {
        try {
          G.enter(ext.path, "cache_warming_decision");
          const r = await h(event, ctx);
          if (r && r.action !== undefined) action = r.action;
        } catch (e) {
          report(ext.path, "cache_warming_decision", e);
        }
      }
    }
    return { action: String(action) };
  };
  // project_trust: the first handler answering "yes" or "no" decides;
  // "undecided" (or nothing) leaves it to the next one.
  dispatchers.project_trust = async function (ev) {
    const ctx = makeCtx(undefined);
    for (const { ext, handlers } of snapshot("project_trust")) {
      for (const h of handlers) {
        try {
          G.enter(ext.path, "project_trust");
          const r = await h({ type: "project_trust", cwd: ev.cwd }, ctx);
          if (r && (r.trusted === "yes" || r.trusted === "no")) return { trusted: r.trusted, remember: r.remember === true };
        } catch (e) {
          report(ext.path, "project_trust", e);
        }
      }
    }
    return undefined;
  };
  // user_bash: the first handler returning a value decides, and that value
  // must be exactly one of {result} (answers the command) or {operations}
  // (a backend whose exec runs it); anything else, or a throw, is reported
  // and fails the command with that message, as in the reference.
  // Operations stay here under a number until Go runs them through
  // G.userBashExec (api_userbash.go), after the RPC layer has set up the
  // command's abort and output stream.
  const INVALID_USER_BASH = "Invalid user_bash handler result: return undefined for local execution or exactly one valid { operations } or { result } object";
  const validUserBash = (v) => {
    if (typeof v !== "object" || v === null) return false;
    const hasOps = v.operations !== undefined;
    if (hasOps === (v.result !== undefined)) return false;
    if (hasOps) return typeof v.operations === "object" && v.operations !== null && typeof v.operations.exec === "function";
    const r = v.result;
    return typeof r === "object" && r !== null && typeof r.output === "string" && "exitCode" in r &&
      (r.exitCode === undefined || typeof r.exitCode === "number") && typeof r.cancelled === "boolean" &&
      typeof r.truncated === "boolean" && (r.fullOutputPath === undefined || typeof r.fullOutputPath === "string");
  };
  const userBashOps = new Map();
  const userBashAborts = new Map();
  let nextUserBashOps = 0;
  dispatchers.user_bash = async function (ev) {
    const ctx = makeCtx(undefined);
    const event = { type: "user_bash", command: ev.command, excludeFromContext: ev.excludeFromContext, cwd: ev.cwd };
    for (const { ext, handlers } of snapshot("user_bash")) {
      for (const h of handlers) {
        let r;
        try {
          G.enter(ext.path, "user_bash");
          r = await h(event, ctx);
          if (r === undefined) continue;
          if (!validUserBash(r)) throw new Error(INVALID_USER_BASH);
        } catch (e) {
          report(ext.path, "user_bash", e);
          return { error: e instanceof Error ? e.message : String(e) };
        }
        if (r.result !== undefined) return { result: r.result };
        const id = ++nextUserBashOps;
        userBashOps.set(id, r.operations);
        return { operations: id };
      }
    }
    return undefined;
  };
  // userBashExec runs kept operations: raw output goes to G.userBashData,
  // ok gets the exit code ("" for none), fail the thrown message.
  G.userBashExec = (id, command, cwd, ok, fail) => {
    const ops = userBashOps.get(id);
    userBashOps.delete(id);
    if (!ops) return fail("user_bash operations are gone");
    const ac = new AbortController();
    userBashAborts.set(id, () => ac.abort());
    const onData = (data) => G.userBashData(id, data);
    Promise.resolve()
      .then(() => ops.exec(command, cwd, { onData, signal: ac.signal }))
      .then((r) => {
        const code = r === null || r === undefined ? undefined : r.exitCode;
        ok(typeof code === "number" ? String(code) : "");
      }, (e) => fail(e instanceof Error ? e.message : String(e)))
      .finally(() => userBashAborts.delete(id));
  };
  G.userBashAbort = (id) => {
    const abort = userBashAborts.get(id);
    if (abort) abort();
  };
  dispatchers.turn_end = boundary("turn_end");
  dispatchers.agent_before_settle = boundary("agent_before_settle");

  // resources_discover collects the skill, prompt and theme paths every
  // handler returns, in handler order.
  dispatchers.resources_discover = async function (ev) {
    const ctx = makeCtx(G.signal());
    const out = { skillPaths: [], promptPaths: [], themePaths: [] };
    for (const { ext, handlers } of snapshot("resources_discover")) {
      for (const h of handlers) {
        try {
          G.enter(ext.path, "resources_discover");
          const r = await h({ type: "resources_discover", cwd: ev.cwd, reason: ev.reason }, ctx);
          for (const k of ["skillPaths", "promptPaths", "themePaths"]) {
            if (r && Array.isArray(r[k])) for (const p of r[k]) out[k].push({ path: String(p), extensionPath: ext.path });
          }
        } catch (e) {
          report(ext.path, "resources_discover", e);
        }
      }
    }
    return out;
  };

  return dispatchers;
};
