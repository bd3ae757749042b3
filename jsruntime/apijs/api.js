// The pi.* extension API, ctx and ctx.ui, written in JS over a small Go
// bridge G (see api_pi.go). Values cross the bridge as JSON strings so
// key order survives. This file is evaluated once per runtime and returns
// the glue object Go keeps.
(function (G) {
  "use strict";
  const NOT_INIT = "Extension runtime not initialized. Action methods cannot be called during extension loading.";
  const exts = [];
  const bus = new Map();
  let bound = false;
  // stale is set once a session replacement or reload retires this
  // generation (api_session.go): its pi and ctx throw from then on.
  let stale = "";
  const live = () => { if (stale) throw new Error(stale); };
  G.invalidate = (message) => { stale = stale || message; };

  const parse = (s) => (s === undefined || s === null || s === "" ? undefined : G.parse(s));
  const enc = (v) => JSON.stringify(v === undefined ? null : v);
  const call = (name, args) => parse(G.call(name, enc(args)));

  // ctx.signal is the running agent's AbortSignal, one per run (Go numbers
  // the runs); undefined while the session is idle.
  let run = { id: "", ac: undefined };
  G.signal = () => {
    const st = G.runState();
    if (!st) return undefined;
    const [id, aborted] = st.split(":");
    if (run.id !== id) run = { id, ac: new AbortController() };
    if (aborted === "1" && !run.ac.signal.aborted) run.ac.abort();
    return run.ac.signal;
  };
  // runID is the current run's number ("" when idle); runPrompt is the
  // system prompt before_agent_start settled on for run runPrompt.id.
  const runID = () => (G.runState() || "").split(":")[0];
  let runPrompt;
  G.abortRun = (id) => {
    if (run.id === id && !run.ac.signal.aborted) run.ac.abort();
  };
  const callAsync = (name, args) =>
    new Promise((resolve, reject) => G.callAsync(name, enc(args), (s) => resolve(parse(s)), (m) => reject(new Error(m))));
  // __pi_v8error puts goja's wording of a TypeError in V8's (errors_v8.go).
  const errMsg = (e) => (e instanceof Error ? (__pi_v8error(e), e.message) : String(e));
  const report = (path, event, e) => { if (!stale) G.reportError(path || "", event, errMsg(e)); };

  function snapshot(event) {
    return exts.map((ext) => ({ ext, handlers: (ext.handlers.get(event) || []).slice() }));
  }
  function hasHandlers(event) {
    return exts.some((e) => (e.handlers.get(event) || []).length > 0);
  }

  // ---- theme -------------------------------------------------------------
  // ctx.ui.theme outside the interactive UI is the reference's "system"
  // theme generated without terminal colours: palette indices 0-15 for the
  // coloured tokens, the terminal default (39/49) for the rest, some tokens
  // faint (SGR 2). Like the reference's, it is a Proxy over an empty object
  // that forwards reads to the theme instance, so Object.keys() and
  // JSON.stringify() see nothing. bold/italic/… are chalk's, which colours
  // nothing when stdout is not a terminal.
  // The Theme class lives in hostjs/pi_internal_theme.js, compiled on the
  // first read of ctx.ui.theme: most extensions never read it, and api.js
  // is compiled on every start.
  const requireHost = require;
  let themeInstance;
  const theme = new Proxy({}, {
    get(_target, prop) {
      if (!themeInstance) themeInstance = new (requireHost("pi:internal/theme"))();
      return themeInstance[prop];
    },
  });

  // ---- ctx.ui --------------------------------------------------------------
  let uiDepth = 0;
  let activeUI;
  function withPrompt(kind, title, run) {
    const rpc = G.mode === "rpc";
    if (rpc && uiDepth++ === 0) {
      activeUI = { kind, title };
      const ev = { type: "ui_prompt_start", reason: "ui_prompt", kind, ...(title ? { title } : {}) };
      queueMicrotask(() => { emit(ev); });
    }
    const finish = () => {
      if (!rpc || --uiDepth > 0) return;
      uiDepth = 0;
      const p = activeUI || { kind, title };
      activeUI = undefined;
      const ev = { type: "ui_prompt_end", reason: "ui_prompt", kind: p.kind, ...(p.title ? { title: p.title } : {}) };
      queueMicrotask(() => { emit(ev); });
    };
    return run().finally(finish);
  }
  function dialog(method, args, opts) {
    if (!G.hasUI()) return Promise.resolve(method === "confirm" ? false : undefined);
    const signal = opts && opts.signal;
    if (signal && signal.aborted) return Promise.resolve(method === "confirm" ? false : undefined);
    const timeout = opts && typeof opts.timeout === "number" ? opts.timeout : undefined;
    return withPrompt(method, args.title, () => new Promise((resolve, reject) => {
      const id = G.dialog(method, enc({ ...args, timeout }), (s) => resolve(parse(s)), (m) => reject(new Error(m)));
      if (signal && typeof signal.addEventListener === "function") {
        signal.addEventListener("abort", () => G.cancelDialog(id), { once: true });
      }
    }));
  }
  // Key order is the reference's (extensions may list ctx.ui's keys).
  const ui = {
    select: (title, options, opts) => dialog("select", { title, options }, opts),
    confirm: (title, message, opts) => dialog("confirm", { title, message }, opts),
    input: (title, placeholder, opts) => dialog("input", { title, placeholder }, opts),
    notify: (message, type) => { call("ui.notify", { message: String(message), type }); },
    onTerminalInput: () => () => {},
    setStatus: (key, text) => { call("ui.setStatus", { key, text }); },
    setWorkingMessage() {}, setWorkingVisible() {}, setWorkingIndicator() {}, setHiddenThinkingLabel() {},
    setWidget: (key, content, opts) => {
      if (content !== undefined && !Array.isArray(content)) return;
      call("ui.setWidget", { key, lines: content, placement: opts && opts.placement });
    },
    setFooter() {}, setHeader() {},
    setTitle: (title) => { call("ui.setTitle", { title }); },
    custom: async () => undefined,
    pasteToEditor: (text) => { call("ui.setEditorText", { text }); },
    setEditorText: (text) => { call("ui.setEditorText", { text }); },
    getEditorText: () => "",
    editor: (title, prefill) => dialog("editor", { title, prefill }),
    addAutocompleteProvider() {},
    setEditorComponent() {}, getEditorComponent: () => undefined,
    get theme() { return theme; },
    getAllThemes: () => [],
    getTheme: () => undefined,
    setTheme: () => ({ success: false, error: G.mode === "rpc" ? "Theme switching not supported in RPC mode" : "UI not available" }),
    getToolsExpanded: () => false,
    setToolsExpanded() {},
  };

  // ---- ctx -----------------------------------------------------------------
  // ctx.sessionManager and the pi.getAllTools()/getCommands() items live
  // in hostjs/pi_internal_views.js, compiled on first use.
  let viewsImpl;
  const views = () => viewsImpl || (viewsImpl = requireHost("pi:internal/views")({ call }));
  // ctx.modelRegistry, its streams and pi.registerProvider live in
  // hostjs/pi_internal_models.js, compiled on first use (see the theme).
  let modelsImpl;
  const models = () => modelsImpl || (modelsImpl = requireHost("pi:internal/models")({ G, call, enc, parse, errMsg, report }));
  G.customStream = (api, json, onEvent, onDone, onFail) => models().customStream(api, json, onEvent, onDone, onFail);
  const notBuilt = (fn, what) => {
    throw new Error(`pi.${fn} is not available in this build: ${what} is not built yet`);
  };
  const registerProvider = (path, name, config) => models().registerProvider(path, name, config);
  const unregisterProvider = (name) => models().unregisterProvider(name);

  function makeCtx(signal) {
    return {
      get ui() { live(); return ui; },
      get mode() { live(); return G.mode; },
      get hasUI() { live(); return G.hasUI(); },
      get cwd() { live(); return G.cwd; },
      get sessionManager() { live(); return views().sessionManager; },
      get modelRegistry() { live(); return models().modelRegistry; },
      get model() { live(); const m = call("model"); return m ? models().model(m) : m; },
      get scopedModels() { live(); return call("scopedModels") || []; },
      get thinkingLevel() { live(); return call("getThinkingLevel"); },
      isIdle: () => { live(); return !!call("isIdle"); },
      isProjectTrusted: () => { live(); return !!call("isProjectTrusted"); },
      get signal() { live(); return signal; },
      abort: () => { live(); call("abort"); },
      hasPendingMessages: () => { live(); return !!call("hasPendingMessages"); },
      shutdown: () => { live(); call("shutdown"); },
      getContextUsage: () => { live(); return call("getContextUsage"); },
      compact: (opts) => {
        live();
        callAsync("compact", { customInstructions: opts && opts.customInstructions }).then(
          (r) => opts && opts.onComplete && opts.onComplete(r), (e) => opts && opts.onError && opts.onError(e));
      },
      getSystemPrompt: () => {
        live();
        // During a run the prompt is the one before_agent_start settled
        // on; otherwise the session's for its active tools.
        if (runPrompt && runPrompt.id && runPrompt.id === runID()) return runPrompt.text;
        return call("getSystemPrompt") || "";
      },
    };
  }
  // The command ctx lives in hostjs/pi_internal_commandctx.js, compiled
  // on the first command run.
  let commandCtxImpl;
  function makeCommandCtx() {
    if (!commandCtxImpl) commandCtxImpl = requireHost("pi:internal/commandctx")({ G, call, callAsync, makeCtx, sessionManager: views().currentSessionManager(), live });
    return commandCtxImpl();
  }
  // A replaced generation's withSession callback gets this generation's
  // command ctx (api_session.go).
  G.commandCtx = makeCommandCtx;

  // ---- dispatch ------------------------------------------------------------
  async function emit(event) {
    // agent_settled comes after the run: no signal, as in the reference.
    const ctx = makeCtx(event.type === "agent_settled" ? undefined : G.signal());
    const isBefore = /^session_before_/.test(event.type);
    if ((event.type === "session_before_compact" || event.type === "session_before_tree") && typeof AbortController === "function") {
      // The reference hands these handlers the operation's abort signal.
      event.signal = new AbortController().signal;
    }
    let result;
    for (const { ext, handlers } of snapshot(event.type)) {
      for (const h of handlers) {
        try {
          G.enter(ext.path, event.type);
          const r = await h(event, ctx);
          if (isBefore && r) {
            result = r;
            if (r.cancel) return result;
          }
        } catch (e) {
          report(ext.path, event.type, e);
        }
      }
    }
    return result;
  }

  // The events whose handler results combine have their own dispatchers
  // in hostjs/pi_internal_dispatch.js, compiled on the first such event;
  // every other event is emit.
  const DISPATCHED = new Set(["input", "before_agent_start", "context", "context_with_system", "tool_call", "tool_result", "before_provider_request",
    "before_provider_headers", "project_trust", "turn_end", "agent_before_settle", "resources_discover", "user_bash",
    "cache_warming_decision"]);
  let dispatchers;
  const dispatcherFor = (type) => {
    if (!DISPATCHED.has(type)) return emit;
    if (!dispatchers) {
      dispatchers = requireHost("pi:internal/dispatch")({ G, makeCtx, snapshot, report, runID, setRunPrompt: (p) => { runPrompt = p; } });
    }
    return dispatchers[type] || emit;
  };

  // The events whose reference objects have keys JSON cannot carry (an
  // undefined value) get them back in hostjs/pi_internal_shapes.js.
  const SHAPED = new Set(["message_start", "message_end", "turn_end", "agent_end", "tool_execution_update", "tool_execution_end",
    "session_before_switch", "session_before_compact"]);
  const hasToolResult = (list) => Array.isArray(list) && list.some((m) => m && m.role === "toolResult");
  const needsShape = (type, ev) => type === "message_start" || type === "message_end" ? !!ev.message && ev.message.role === "toolResult"
    : type === "turn_end" ? hasToolResult(ev.toolResults) : type === "agent_end" ? hasToolResult(ev.messages) : true;
  let shapeImpl;

  // dispatch runs one event and settles through Go callbacks; now starts
  // the handlers at once instead of in a promise job (an event an action
  // of a running handler raised).
  function dispatch(type, json, ok, fail, now) {
    let ev = parse(json);
    if (type === "model_select") ev = models().modelSelect(ev);
    // The reference's stream event carries the message being built as its
    // partial (the same object as the event's message).
    if (type === "message_update" && ev.assistantMessageEvent) ev.assistantMessageEvent.partial = ev.message;
    else if (SHAPED.has(type) && needsShape(type, ev)) {
      if (!shapeImpl) shapeImpl = requireHost("pi:internal/shapes")();
      ev = shapeImpl(type, ev);
    }
    let started;
    if (now) {
      try {
        started = Promise.resolve(dispatcherFor(type)(ev));
      } catch (e) {
        started = Promise.reject(e);
      }
    } else {
      started = Promise.resolve().then(() => dispatcherFor(type)(ev));
    }
    started.then((r) => ok(r === undefined ? "" : JSON.stringify(r)), (e) => fail(errMsg(e)));
  }

  // ---- tools -----------------------------------------------------------------
  // Tool runs live in hostjs/pi_internal_tools.js, compiled on the first.
  let executeToolImpl;
  function executeTool(path, name, id, json, onUpdate, ok, fail) {
    if (!executeToolImpl) executeToolImpl = requireHost("pi:internal/tools")({ G, call, parse, errMsg, exts, makeCtx, live });
    return executeToolImpl(path, name, id, json, onUpdate, ok, fail);
  }

  // ---- commands --------------------------------------------------------------
  function resolveCommands() {
    const cmds = [];
    const counts = new Map();
    for (const ext of exts) for (const c of ext.commands.values()) {
      cmds.push({ ext, c });
      counts.set(c.name, (counts.get(c.name) || 0) + 1);
    }
    const seen = new Map();
    const taken = new Set();
    return cmds.map(({ ext, c }) => {
      const n = (seen.get(c.name) || 0) + 1;
      seen.set(c.name, n);
      let inv = counts.get(c.name) > 1 ? `${c.name}:${n}` : c.name;
      let k = n;
      while (taken.has(inv)) inv = `${c.name}:${++k}`;
      taken.add(inv);
      return { ext, c, inv };
    });
  }
  function commandList() {
    return resolveCommands().map(({ ext, c, inv }) => ({ name: inv, description: c.description, path: ext.path }));
  }
  function runCommand(name, args, ok, fail) {
    const found = resolveCommands().find((x) => x.inv === name);
    if (!found) { ok("false"); return; }
    G.enter(found.ext.path, "command:" + name);
    Promise.resolve()
      .then(() => found.c.handler(args, makeCommandCtx()))
      .then(() => ok("true"), (e) => { report(`command:${name}`, "command", e); ok("true"); });
  }

  // ---- pi --------------------------------------------------------------------
  function makePi(path) {
    const ext = { path, handlers: new Map(), tools: new Map(), commands: new Map(), flags: new Map(), renderers: new Map() };
    exts.push(ext);
    const action = (fn) => function (...a) {
      if (!bound) throw new Error(NOT_INIT);
      return fn.apply(this, a);
    };
    const pi = {
      on(event, handler) {
        if (typeof handler !== "function") return () => {};
        if (!ext.handlers.has(event)) ext.handlers.set(event, []);
        ext.handlers.get(event).push(handler);
        G.handlersChanged(event, true);
        return () => {
          const a = ext.handlers.get(event) || [];
          const i = a.indexOf(handler);
          if (i >= 0) a.splice(i, 1);
          G.handlersChanged(event, hasHandlers(event));
        };
      },
      registerTool(def) {
        if (!def || typeof def !== "object" || !def.name) throw new Error("Tool definition requires a name");
        const p = def.parameters;
        if (!p || typeof p !== "object" || (p.type !== undefined && p.type !== "object")) {
          throw new Error(`Tool "${def.name}" parameters must be an object schema`);
        }
        ext.tools.set(def.name, def);
        G.registerTool(path, enc({
          name: def.name, label: def.label, description: def.description, parameters: p,
          promptSnippet: def.promptSnippet, promptGuidelines: def.promptGuidelines,
          executionMode: def.executionMode, defaultActive: def.defaultActive, exposure: def.exposure,
          constrainedSampling: def.constrainedSampling,
        }));
      },
      registerCommand(name, options) {
        if (!name || typeof name !== "string") throw new Error("Command name must be a non-empty string");
        if (!options || typeof options.handler !== "function") throw new Error(`Command "${name}" requires a handler`);
        ext.commands.set(name, { name, description: options.description, handler: options.handler, getArgumentCompletions: options.getArgumentCompletions });
      },
      registerShortcut() {},
      registerFlag(name, options) {
        const o = options || {};
        ext.flags.set(name, o);
        G.registerFlag(path, name, enc({ type: o.type || "boolean", default: o.default, description: o.description }));
      },
      registerMessageRenderer(type, fn) { ext.renderers.set("message:" + type, fn); },
      registerMarkdownTransformer(fn) { ext.renderers.set("markdown", fn); },
      registerEntryRenderer(type, fn) { ext.renderers.set("entry:" + type, fn); },
      registerToolRenderer(fn) { ext.renderers.set("tool:" + ext.renderers.size, fn); },
      getFlag(name) {
        if (!ext.flags.has(name)) return undefined;
        const v = call("getFlag", [name]);
        return v === undefined ? ext.flags.get(name).default : v;
      },
      sendMessage: action((message, options) => { call("sendMessage", [message, options || {}]); }),
      sendUserMessage: action((content, options) => { call("sendUserMessage", [content, options || {}]); }),
      appendEntry: action((customType, data) => { call("appendEntry", [customType, data]); }),
      setSessionName: action((name) => { call("setSessionName", [name]); }),
      getSessionName: action(() => call("getSessionName")),
      setLabel: action((id, label) => { call("setLabel", [id, label]); }),
      exec(command, args, options) {
        const o = options || {};
        return new Promise((resolve, reject) => {
          const cancel = G.exec(command, enc(args || []), enc({ cwd: o.cwd, timeout: o.timeout, maxBuffer: o.maxBuffer }), (s) => resolve(parse(s)), (m) => reject(new Error(m)));
          if (o.signal && typeof o.signal.addEventListener === "function") {
            if (o.signal.aborted) cancel();
            else o.signal.addEventListener("abort", () => cancel(), { once: true });
          }
        });
      },
      getActiveTools: action(() => call("getActiveTools") || []),
      getAllTools: action(() => views().listed(call("getAllTools"))),
      getSettings: action(() => call("getSettings") || {}),
      setActiveTools: action((names) => { call("setActiveTools", [names]); }),
      getCommands: action(() => views().listed(call("getCommands"))),
      setModel: action(async (model) => !!(await callAsync("setModel", model))),
      getThinkingLevel: action(() => call("getThinkingLevel")),
      setThinkingLevel: action((level) => { call("setThinkingLevel", [level]); }),
      registerProvider(name, config) { registerProvider(path, name, config); },
      unregisterProvider(name) { unregisterProvider(name); },
      // MCP registrations live on the Go side (api_mcp.go). Virtual
      // models are not built yet: registering says so rather than
      // pretending to work; unregistering stays harmless.
      registerMcpServer(name, config) { call("registerMcpServer", [path, name, config]); },
      unregisterMcpServer(name) { call("unregisterMcpServer", [path, name]); },
      getMcpServers() { return call("getMcpServers") || []; },
      registerVirtualModel() { notBuilt("registerVirtualModel", "virtual models"); },
      unregisterVirtualModel() {},
      events: {
        on(channel, handler) {
          live();
          if (!bus.has(channel)) bus.set(channel, []);
          const entry = { handler, path };
          bus.get(channel).push(entry);
          return () => {
            const a = bus.get(channel) || [];
            const i = a.indexOf(entry);
            if (i >= 0) a.splice(i, 1);
          };
        },
        emit(channel, data) {
          live();
          for (const { handler, path: p } of (bus.get(channel) || []).slice()) {
            try {
              const r = handler(data);
              if (r && typeof r.then === "function") r.then(undefined, (e) => report(p, "events:" + channel, e));
            } catch (e) {
              report(p, "events:" + channel, e);
            }
          }
        },
      },
    };
    // Every method throws once the generation is stale, as the
    // reference's pi does.
    for (const k of Object.keys(pi)) {
      const fn = pi[k];
      if (typeof fn === "function") pi[k] = function (...a) { live(); return fn.apply(this, a); };
    }
    return pi;
  }

  return {
    makePi,
    dispatch,
    executeTool,
    commandList,
    runCommand,
    hasCommand: (name) => resolveCommands().some((x) => x.inv === name),
    bind() { bound = true; },
    hasHandlers,
    // The registry behind ctx.modelRegistry, for the coding-agent
    // package's ModelRegistry export (host_sdk.go).
    modelRegistry: () => models().modelRegistry,
    // pi-ai's stream, complete and per-API functions (hostjs/pi_internal_models.js).
    aiStreams: () => models().aiStreams,
  };
});
