// ctx.modelRegistry, the model streams behind it and pi.registerProvider
// (see api.js). Loaded as the host module pi:internal/models the first time
// an extension touches the registry or registers a provider, a stream
// request reaches a registered streamSimple: most extensions do neither,
// and api.js is compiled on every start. h carries api.js's bridge helpers.
"use strict";
module.exports = function (h) {
  const { G, call, enc, parse, errMsg, report } = h;
  // ctx.modelRegistry: a class instance as in the reference (methods on
  // the prototype). Model operations the Go side has no counterpart for
  // (streaming, images, classifiers) fail clearly instead of hanging.
  const registeredConfigs = new Map();
  // A models.json model has keys the reference leaves undefined; Go sends
  // them as null (api_models.go extModel), turned back here. Catalog
  // models carry "type" and keep their own keys.
  const OPTIONAL = ["thinkingLevelMap", "inputLimits", "promptCache", "samplingParams", "samplingParamsByThinkingLevel", "headers", "compat"];
  function model(m) {
    if (m && typeof m === "object" && !("type" in m)) for (const k of OPTIONAL) if (m[k] === null) m[k] = undefined;
    return m;
  }
  const modelList = (list) => (Array.isArray(list) ? list.map(model) : []);
  // modelSelect gives model_select's models the registry's shape (the
  // event's JSON carries the models' wire form).
  function modelSelect(ev) {
    for (const k of ["model", "previousModel"]) {
      const m = ev[k];
      if (m && typeof m === "object" && m.provider !== undefined && m.id !== undefined) {
        const found = call("models.find", [m.provider, m.id]);
        if (found) ev[k] = model(found);
      }
    }
    return ev;
  }
  const unsupported = (what) => new Error(`modelRegistry.${what} is not supported by this build`);
  class ModelRegistry {
    refresh() { return Promise.resolve({ aborted: false, errors: new Map() }); }
    getError() { return undefined; }
    getAll() { return modelList(call("models.getAll", [])); }
    getAvailable() { return modelList(call("models.getAvailable", [])); }
    find(provider, modelId) { return model(call("models.find", [provider, modelId])); }
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
  function customStream(api, json, onEvent, onDone, onFail) {
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
  }

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

  return { modelRegistry, registerProvider, unregisterProvider, customStream, model, modelSelect };
};
