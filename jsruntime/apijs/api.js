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

  const parse = (s) => (s === undefined || s === null || s === "" ? undefined : JSON.parse(s));
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
  const errMsg = (e) => (e instanceof Error ? e.message : String(e));
  const report = (path, event, e) => G.reportError(path || "", event, errMsg(e));

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
  const ui = {
    select: (title, options, opts) => dialog("select", { title, options }, opts),
    confirm: (title, message, opts) => dialog("confirm", { title, message }, opts),
    input: (title, placeholder, opts) => dialog("input", { title, placeholder }, opts),
    editor: (title, prefill) => dialog("editor", { title, prefill }),
    notify: (message, type) => { call("ui.notify", { message: String(message), type }); },
    setStatus: (key, text) => { call("ui.setStatus", { key, text }); },
    setWidget: (key, content, opts) => {
      if (content !== undefined && !Array.isArray(content)) return;
      call("ui.setWidget", { key, lines: content, placement: opts && opts.placement });
    },
    setTitle: (title) => { call("ui.setTitle", { title }); },
    setEditorText: (text) => { call("ui.setEditorText", { text }); },
    pasteToEditor: (text) => { call("ui.setEditorText", { text }); },
    getEditorText: () => "",
    custom: async () => undefined,
    onTerminalInput: () => () => {},
    setWorkingMessage() {}, setWorkingVisible() {}, setWorkingIndicator() {}, setHiddenThinkingLabel() {},
    setFooter() {}, setHeader() {}, setEditorComponent() {}, getEditorComponent: () => undefined,
    addAutocompleteProvider() {},
    get theme() { return theme; },
    getAllThemes: () => [],
    getTheme: () => undefined,
    setTheme: () => ({ success: false, error: G.mode === "rpc" ? "Theme switching not supported in RPC mode" : "UI not available" }),
    getToolsExpanded: () => false,
    setToolsExpanded() {},
  };

  // ---- ctx -----------------------------------------------------------------
  const sessionManager = {};
  for (const m of ["getCwd", "getSessionDir", "getSessionId", "getSessionFile", "getLeafId", "getLeafEntry", "getEntry",
    "getLabel", "getBranch", "getHeader", "getEntries", "getTree", "getSessionName", "buildContextEntries", "getChildren"]) {
    sessionManager[m] = (...a) => call("sm." + m, a);
  }
  sessionManager.buildSessionContext = () => call("sm.buildSessionContext", []);
  // The session manager ctx.newSession's setup callback writes through.
  const writableSessionManager = Object.assign(Object.create(sessionManager), {
    appendMessage: (message) => call("smw.appendMessage", [message]),
    appendCustomEntry: (customType, data) => call("smw.appendCustomEntry", [customType, data]),
    appendSessionInfo: (name) => call("smw.appendSessionInfo", [name]),
    appendLabelChange: (targetId, label) => call("smw.appendLabelChange", [targetId, label]),
    appendCustomMessageEntry: (customType, content, display, details) =>
      call("smw.appendCustomMessageEntry", [customType, content, display, details]),
  });
  // ctx.modelRegistry: a class instance as in the reference (methods on
  // the prototype). Model operations the Go side has no counterpart for
  // (streaming, images, classifiers) fail clearly instead of hanging.
  const registeredConfigs = new Map();
  const unsupported = (what) => new Error(`modelRegistry.${what} is not supported by this build`);
  class ModelRegistry {
    refresh() { return Promise.resolve({ aborted: false, errors: new Map() }); }
    getError() { return undefined; }
    getAll() { return call("models.getAll", []) || []; }
    getAvailable() { return call("models.getAvailable", []) || []; }
    find(provider, modelId) { return call("models.find", [provider, modelId]); }
    findOfType(type, provider, modelId) { return type === "chat" ? this.find(provider, modelId) : undefined; }
    hasConfiguredAuth(model) { return !!call("models.hasConfiguredAuth", [model]); }
    async getApiKeyAndHeaders(model) { return call("models.getApiKeyAndHeaders", [model]); }
    getProviderAuthStatus(provider) { return call("models.getProviderAuthStatus", [provider]); }
    getProvider(provider) { return call("models.getProvider", [provider]); }
    stream(model, context, options) { return eventStream(model, context, options); }
    streamSimple(model, context, options) { return eventStream(model, context, options); }
    complete(model, context, options) { return requestModel(model, context, options); }
    getModelsOfType(type, provider) {
      if (type !== "chat") return [];
      const all = this.getAll();
      return provider === undefined ? all : all.filter((m) => m.provider === provider);
    }
    async getAvailableOfType(type, provider) {
      if (type !== "chat") return [];
      const all = this.getAvailable();
      return provider === undefined ? all : all.filter((m) => m.provider === provider);
    }
    getModelOfType(type, provider, modelId) { return this.findOfType(type, provider, modelId); }
    classify() { return Promise.reject(unsupported("classify")); }
    generateImages() { return Promise.reject(unsupported("generateImages")); }
    getProviderDisplayName(provider) { return call("models.getProviderDisplayName", [provider]) ?? provider; }
    async getProviderAuth(provider) { return call("models.getProviderAuth", [provider]); }
    async getApiKeyForProvider(provider) { return call("models.getApiKeyForProvider", [provider]); }
    isUsingOAuth() { return false; }
    registerProvider(name, config) { registerProvider("", name, config); }
    unregisterProvider(name) { unregisterProvider(name); }
    registerVirtualModel() { throw unsupported("registerVirtualModel"); }
    unregisterVirtualModel() {}
    getRegisteredProviderConfig(name) { return registeredConfigs.get(name); }
    getRegisteredNativeProvider() { return undefined; }
    getRegisteredProviderIds() { return call("models.getRegisteredProviderIds", []) || []; }
  }
  const modelRegistry = new ModelRegistry();

  // requestModel runs one request through the Go providers with the
  // registry's credentials and resolves with the final assistant message
  // (a failure is a message with stopReason "error", as in pi-ai).
  function requestModel(model, context, options, onEvent) {
    const o = options || {};
    const req = {
      model, context: context || {},
      options: {
        maxTokens: o.maxTokens, temperature: o.temperature, reasoning: o.reasoning, reasoningEffort: o.reasoningEffort,
        apiKey: o.apiKey, headers: o.headers, sessionId: o.sessionId,
      },
    };
    return new Promise((resolve, reject) => {
      const id = G.complete(enc(req), onEvent, (s) => resolve(parse(s)), (m) => reject(new Error(m)));
      const signal = o.signal;
      if (signal && typeof signal.addEventListener === "function") {
        if (signal.aborted) G.cancelComplete(id);
        else signal.addEventListener("abort", () => G.cancelComplete(id), { once: true });
      }
    });
  }
  // eventStream is an AssistantMessageEventStream: an async iterable of
  // the request's events ending with done or error (carrying the final
  // message), and result() for the message itself.
  function eventStream(model, context, options) {
    const queue = [];
    const waiters = [];
    let ended = false;
    const push = (ev) => {
      const w = waiters.shift();
      if (w) w({ value: ev, done: false });
      else queue.push(ev);
    };
    const onEvent = (s) => {
      const ev = parse(s);
      if (ev && ev.type !== "done" && ev.type !== "error") push(ev);
    };
    const final = requestModel(model, context, options, onEvent).then((message) => {
      const failed = message.stopReason === "error" || message.stopReason === "aborted";
      push(failed ? { type: "error", reason: message.stopReason, error: message } : { type: "done", reason: message.stopReason, message });
      ended = true;
      for (const w of waiters.splice(0)) w({ value: undefined, done: true });
      return message;
    }, (e) => {
      ended = true;
      for (const w of waiters.splice(0)) w({ value: undefined, done: true });
      throw e;
    });
    final.catch(() => {});
    return {
      result: () => final,
      [Symbol.asyncIterator]() {
        return {
          next() {
            if (queue.length > 0) return Promise.resolve({ value: queue.shift(), done: false });
            if (ended) return Promise.resolve({ value: undefined, done: true });
            return new Promise((resolve) => waiters.push(resolve));
          },
        };
      },
    };
  }

  // customStreams maps a wire API to the streamSimple an extension
  // registered for it; Go calls G.customStream to run a request through
  // it (api_stream.go).
  const customStreams = new Map();
  G.customStream = (api, json, onEvent, onDone, onFail) => {
    const fn = customStreams.get(api);
    const ac = new AbortController();
    if (!fn) {
      onFail(`No API provider registered for api: ${api}`);
      return () => {};
    }
    (async () => {
      const req = parse(json);
      const stream = await fn(req.model, req.context, { ...req.options, signal: ac.signal });
      let final;
      // api.js is not transpiled and goja has no for await.
      const it = stream[Symbol.asyncIterator]();
      for (;;) {
        const { value: ev, done } = await it.next();
        if (done) break;
        onEvent(JSON.stringify(ev));
        if (ev && ev.type === "done") final = ev.message;
        else if (ev && ev.type === "error") final = ev.error;
      }
      if (!final && stream && typeof stream.result === "function") final = await stream.result();
      if (!final) throw new Error("custom stream ended without a result");
      onDone(JSON.stringify(final));
    })().catch((e) => onFail(errMsg(e)));
    return () => ac.abort();
  };

  // registerProvider is the config form of pi.registerProvider. A
  // streamSimple serves the registration's api from JS; other functions
  // (an OAuth flow, model refresh) cannot reach the Go registry and are
  // reported as extension errors naming the field.
  function registerProvider(path, name, config) {
    if (typeof name !== "string") {
      const id = name && typeof name === "object" ? name.id : String(name);
      throw new Error(`Provider ${id}: native provider objects are not supported by this build`);
    }
    if (!config) throw new Error("Provider config is required when registering by name");
    if (config.streamSimple !== undefined && !config.api) {
      throw new Error(`Provider ${name}: "api" is required when registering streamSimple.`);
    }
    for (const field of ["oauth", "refreshModels"]) {
      if (config[field] !== undefined) {
        report(path, "register_provider", new Error(`Provider ${name}: "${field}" is not supported by this build`));
      }
    }
    const hasStream = typeof config.streamSimple === "function";
    const prev = registeredConfigs.get(name) || {};
    const merged = { ...prev };
    for (const [k, v] of Object.entries(config)) if (v !== undefined) merged[k] = v;
    try {
      call("registerProvider", [name, config, path, hasStream]);
    } catch (e) {
      throw new Error(errMsg(e));
    }
    if (hasStream) customStreams.set(config.api, config.streamSimple);
    registeredConfigs.set(name, merged);
  }
  function unregisterProvider(name) {
    registeredConfigs.delete(name);
    call("unregisterProvider", [name]);
  }

  function makeCtx(signal) {
    return {
      get ui() { return ui; },
      get mode() { return G.mode; },
      get hasUI() { return G.hasUI(); },
      get cwd() { return G.cwd; },
      get sessionManager() { return sessionManager; },
      get modelRegistry() { return modelRegistry; },
      get model() { return call("model"); },
      get scopedModels() { return call("scopedModels") || []; },
      get thinkingLevel() { return call("getThinkingLevel"); },
      isIdle: () => !!call("isIdle"),
      isProjectTrusted: () => !!call("isProjectTrusted"),
      get signal() { return signal; },
      abort: () => { call("abort"); },
      hasPendingMessages: () => !!call("hasPendingMessages"),
      shutdown: () => { call("shutdown"); },
      getContextUsage: () => call("getContextUsage"),
      compact: (opts) => {
        callAsync("compact", { customInstructions: opts && opts.customInstructions }).then(
          (r) => opts && opts.onComplete && opts.onComplete(r), (e) => opts && opts.onError && opts.onError(e));
      },
      getSystemPrompt: () => {
        // During a run the prompt is the one before_agent_start settled
        // on; otherwise the session's for its active tools.
        if (runPrompt && runPrompt.id && runPrompt.id === runID()) return runPrompt.text;
        return call("getSystemPrompt") || "";
      },
    };
  }
  function makeCommandCtx() {
    const ctx = makeCtx(undefined);
    ctx.getSystemPromptOptions = () => call("getSystemPromptOptions") || { cwd: G.cwd };
    ctx.waitForIdle = () => callAsync("waitForIdle");
    // Session replacement (api_session.go): the runtime stays, bound to
    // the new session; setup writes to it before withSession runs.
    const replaced = async (r, opts) => {
      if (r && !r.cancelled && opts && typeof opts.withSession === "function") {
        const rctx = makeCommandCtx();
        rctx.sendMessage = async (message, o) => { call("sendMessage", [message, o || {}]); };
        rctx.sendUserMessage = async (content, o) => { call("sendUserMessage", [content, o || {}]); };
        await opts.withSession(rctx);
      }
      return r;
    };
    ctx.newSession = async (opts) => {
      const r = await callAsync("newSession", { parentSession: opts && opts.parentSession });
      if (r && !r.cancelled && opts && typeof opts.setup === "function") {
        await opts.setup(writableSessionManager);
        await callAsync("refreshContext");
      }
      return replaced(r, opts);
    };
    // Like the reference's print and RPC hosts, fork and navigateTree
    // answer only {cancelled}.
    ctx.fork = async (entryId, opts) => {
      const r = await replaced(await callAsync("fork", { entryId, position: (opts && opts.position) || "before" }), opts);
      return { cancelled: !!(r && r.cancelled) };
    };
    ctx.navigateTree = async (targetId, opts) => {
      const r = await callAsync("navigateTree", { targetId, ...(opts || {}) });
      return { cancelled: !!(r && r.cancelled) };
    };
    ctx.switchSession = async (path, opts) => replaced(await callAsync("switchSession", { path }), opts);
    ctx.reload = async () => { await callAsync("reload"); };
    return ctx;
  }

  // ---- dispatch ------------------------------------------------------------
  async function emit(event) {
    const ctx = makeCtx(G.signal());
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
      const options = ev.systemPromptOptions || { cwd: G.cwd };
      const baseJSON = JSON.stringify(options);
      const render = () => {
        if (options.forceSystemPrompt !== undefined) return options.forceSystemPrompt;
        const cur = JSON.stringify(options);
        return cur === baseJSON ? ev.systemPrompt : G.renderPrompt(cur);
      };
      const ctx = makeCtx(G.signal());
      ctx.getSystemPrompt = render;
      const messages = [];
      for (const { ext, handlers } of snapshot("before_agent_start")) {
        for (const h of handlers) {
          try {
            G.enter(ext.path, "before_agent_start");
            const trigger = ev.message ? { messageType: "custom", message: ev.message } : { messageType: "user", prompt: ev.prompt, images: ev.images };
            const event = { ...trigger, type: "before_agent_start", get systemPrompt() { return render(); }, systemPromptOptions: options };
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
      runPrompt = { id: runID(), text: render() };
      const forced = options.forceSystemPrompt;
      delete options.forceSystemPrompt;
      const changed = JSON.stringify(options) !== baseJSON;
      return { messages, systemPrompt: forced, systemPromptOptions: changed ? options : undefined };
    },
    async context(ev) {
      const ctx = makeCtx(G.signal());
      let messages = ev.messages;
      let changed = false;
      for (const { ext, handlers } of snapshot("context")) {
        for (const h of handlers) {
          try {
            G.enter(ext.path, "context");
            const visible = messages.slice();
            const r = await h({ type: "context", messages: visible }, ctx);
            const ret = (r && r.messages) || (visible.length !== messages.length || visible.some((m, i) => m !== messages[i]) ? visible : undefined);
            if (!ret) continue;
            messages = ret;
            changed = true;
          } catch (e) {
            report(ext.path, "context", e);
          }
        }
      }
      return changed ? { messages } : undefined;
    },
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
  };

  // before_provider_request chains the payload through every handler; a
  // returned value other than undefined replaces it.
  dispatchers.before_provider_request = async function (ev) {
    const ctx = makeCtx(G.signal());
    let payload = ev.payload;
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

  // turn_end and agent_before_settle are boundaries: each handler sees
  // the entries and continue flag proposed so far, and a returned field
  // replaces it.
  const boundary = (type) => async function (ev) {
    const ctx = makeCtx(G.signal());
    let entries = [];
    let cont = false;
    for (const { ext, handlers } of snapshot(type)) {
      for (const h of handlers) {
        try {
          G.enter(ext.path, type);
          const r = await h({ ...ev, entries: entries.slice(), continue: cont }, ctx);
          if (r && typeof r === "object") {
            if (Array.isArray(r.entries)) entries = r.entries;
            if (r.continue !== undefined) cont = !!r.continue;
          }
        } catch (e) {
          report(ext.path, type, e);
        }
      }
    }
    return entries.length > 0 || cont ? { entries, continue: cont } : undefined;
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

  // dispatch runs one event and settles through Go callbacks.
  function dispatch(type, json, ok, fail) {
    const ev = parse(json);
    const fn = dispatchers[type] || emit;
    Promise.resolve()
      .then(() => fn(ev))
      .then((r) => ok(r === undefined ? "" : JSON.stringify(r)), (e) => fail(errMsg(e)));
  }

  // ---- tools -----------------------------------------------------------------
  function normalizeResult(r) {
    r = r || {};
    const out = { content: Array.isArray(r.content) ? r.content : [], details: r.details === undefined ? {} : r.details };
    if (r.structuredContent !== undefined) out.structuredContent = r.structuredContent;
    if (r.isError) out.isError = true;
    if (r.terminate) out.terminate = true;
    return out;
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
    Object.defineProperty(ctx, "tools", { get: () => call("getAllTools") || [] });
    ctx.executeTool = async (n, args) => ({
      toolCall: { type: "toolCall", id: `${id}/0`, name: n, arguments: args || {} },
      result: { content: [{ type: "text", text: "Nested tool calls are not available in this context" }], details: {} },
      isError: true,
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
      getFlag(name) {
        if (!ext.flags.has(name)) return undefined;
        const v = call("getFlag", [name]);
        return v === undefined ? ext.flags.get(name).default : v;
      },
      registerMessageRenderer(type, fn) { ext.renderers.set("message:" + type, fn); },
      registerEntryRenderer(type, fn) { ext.renderers.set("entry:" + type, fn); },
      registerMarkdownTransformer(fn) { ext.renderers.set("markdown", fn); },
      registerToolRenderer(fn) { ext.renderers.set("tool:" + ext.renderers.size, fn); },
      sendMessage: action((message, options) => { call("sendMessage", [message, options || {}]); }),
      sendUserMessage: action((content, options) => { call("sendUserMessage", [content, options || {}]); }),
      appendEntry: action((customType, data) => { call("appendEntry", [customType, data]); }),
      setSessionName: action((name) => { call("setSessionName", [name]); }),
      getSessionName: action(() => call("getSessionName")),
      setLabel: action((id, label) => { call("setLabel", [id, label]); }),
      exec(command, args, options) {
        const o = options || {};
        return new Promise((resolve, reject) => {
          const cancel = G.exec(command, enc(args || []), enc({ cwd: o.cwd, timeout: o.timeout }), (s) => resolve(parse(s)), (m) => reject(new Error(m)));
          if (o.signal && typeof o.signal.addEventListener === "function") {
            if (o.signal.aborted) cancel();
            else o.signal.addEventListener("abort", () => cancel(), { once: true });
          }
        });
      },
      getActiveTools: action(() => call("getActiveTools") || []),
      getAllTools: action(() => call("getAllTools") || []),
      setActiveTools: action((names) => { call("setActiveTools", [names]); }),
      getCommands: action(() => call("getCommands") || []),
      setModel: action(async (model) => !!(await callAsync("setModel", model))),
      getThinkingLevel: action(() => call("getThinkingLevel")),
      setThinkingLevel: action((level) => { call("setThinkingLevel", [level]); }),
      getSettings: action(() => call("getSettings") || {}),
      registerProvider(name, config) { registerProvider(path, name, config); },
      unregisterProvider(name) { unregisterProvider(name); },
      registerVirtualModel() {},
      unregisterVirtualModel() {},
      registerMcpServer() {},
      unregisterMcpServer() {},
      getMcpServers: () => [],
      events: {
        on(channel, handler) {
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
  };
});
