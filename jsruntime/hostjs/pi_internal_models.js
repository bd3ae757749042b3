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
  // cachedModels is the registry's model list with a provider/id index,
  // read again when the registry's version moves; undefined when the
  // registry has no version (every call then asks Go).
  let modelCache;
  function cachedModels() {
    const version = call("models.version", []);
    if (typeof version !== "number") return undefined;
    if (modelCache && modelCache.version === version) return modelCache;
    const list = modelList(call("models.getAll", []));
    const byKey = new Map();
    for (const m of list) {
      const k = m.provider + "\u0000" + m.id;
      if (!byKey.has(k)) byKey.set(k, m);
    }
    modelCache = { version, list, byKey };
    return modelCache;
  }
  const unsupported = (what) => new Error(`modelRegistry.${what} is not supported by this build`);
  class ModelRegistry {
    // refresh runs the registered providers' refreshModels (and
    // oauth.modifyModels) again; models.json is read once at start.
    async refresh(options) {
      const o = options || {};
      const failed = await callAsync("models.refresh", [o.allowNetwork === undefined ? null : !!o.allowNetwork]);
      const errors = new Map();
      for (const [k, v] of Object.entries(failed || {})) errors.set(k, new Error(v));
      return { aborted: !!(o.signal && o.signal.aborted), errors };
    }
    getError() { return undefined; }
    // As in the reference, getAll, getAvailable and find hand out the
    // same model objects until the registry's models change; parsing the
    // whole list (the catalog alone is ~1,700 models) once per change
    // instead of once per call is what keeps them cheap.
    getAll() {
      const c = cachedModels();
      return c ? [...c.list] : modelList(call("models.getAll", []));
    }
    getAvailable() {
      const c = cachedModels();
      if (!c) return modelList(call("models.getAvailable", []));
      return (call("models.getAvailableKeys", []) || []).map((k) => c.byKey.get(k)).filter((m) => m !== undefined);
    }
    find(provider, modelId) {
      const c = cachedModels();
      return c ? c.byKey.get(provider + "\u0000" + modelId) : model(call("models.find", [provider, modelId]));
    }
    findOfType(type, provider, modelId) { return type === "chat" ? this.find(provider, modelId) : undefined; }
    hasConfiguredAuth(model) { return !!call("models.hasConfiguredAuth", [model]); }
    // Credentials may need an OAuth refresh, which runs the extension's
    // own code: these go through the asynchronous bridge.
    async getApiKeyAndHeaders(model) { return callAsync("models.getApiKeyAndHeaders", [model]); }
    getProviderAuthStatus(provider) { return call("models.getProviderAuthStatus", [provider]); }
    getProvider(provider) {
      const p = call("models.getProvider", [provider]);
      if (p && p.name === provider) p.name = oauthName(provider) ?? p.name;
      return p;
    }
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
    getProviderDisplayName(provider) {
      const name = call("models.getProviderDisplayName", [provider]) ?? provider;
      return name === provider ? (oauthName(provider) ?? name) : name;
    }
    async getProviderAuth(provider) { return callAsync("models.getProviderAuth", [provider]); }
    async getApiKeyForProvider(provider) { return callAsync("models.getApiKeyForProvider", [provider]); }
    isUsingOAuth(model) { return !!(model && call("models.isUsingOAuth", [model.provider])); }
    registerProvider(name, config) { registerProvider("", name, config); }
    unregisterProvider(name) { unregisterProvider(name); }
    registerVirtualModel() { throw unsupported("registerVirtualModel"); }
    unregisterVirtualModel() {}
    getRegisteredProviderConfig(name) { return registeredConfigs.get(name); }
    getRegisteredNativeProvider() { return undefined; }
    getRegisteredProviderIds() { return call("models.getRegisteredProviderIds", []) || []; }
  }
  const modelRegistry = new ModelRegistry();
  const callAsync = (name, args) =>
    new Promise((resolve, reject) => G.callAsync(name, enc(args), (s) => resolve(parse(s)), (m) => reject(new Error(m))));
  // A provider's display name falls back to its oauth name, as the
  // reference names a provider (name, then oauth.name, then its id).
  function oauthName(provider) {
    const cfg = registeredConfigs.get(provider);
    const o = cfg && cfg.oauth;
    return o && typeof o.name === "string" && cfg.name === undefined ? o.name : undefined;
  }

  // providerAuth runs a registered provider's oauth and refreshModels
  // functions for Go (api_provider_oauth.go): op names the function, json
  // its input; ok gets the JSON result, fail a message.
  G.providerAuth = (op, name, json, ok, fail) => {
    (async () => {
      const cfg = registeredConfigs.get(name) || {};
      const oauth = cfg.oauth || {};
      const input = parse(json);
      switch (op) {
        case "refreshToken": {
          // A refresh is bounded by its own timeout, never by the caller.
          const ac = new AbortController();
          const timer = setTimeout(() => ac.abort(new Error("The operation was aborted due to timeout")), 15000);
          try {
            const next = await oauth.refreshToken(input, ac.signal);
            return { ...next, type: "oauth" };
          } finally {
            clearTimeout(timer);
          }
        }
        case "getApiKey":
          return await oauth.getApiKey(input);
        case "modifyModels":
          return oauth.modifyModels(input.models.map(model), input.credential);
        case "refreshModels": {
          const ac = new AbortController();
          const models = await cfg.refreshModels({
            credential: input.credential ?? undefined,
            stored: input.stored ?? undefined,
            publish: async (publication) => {
              if (ac.signal.aborted) return false;
              if (publication && publication.persist !== undefined) call("models.persistStore", [name, publication.persist]);
              if (publication && typeof publication.update === "function") publication.update();
              return true;
            },
            allowNetwork: !!input.allowNetwork,
            force: undefined,
            signal: ac.signal,
            baseUrl: input.baseUrl ?? undefined,
          });
          return Array.isArray(models) ? { models, api: cfg.api, baseUrl: cfg.baseUrl } : {};
        }
      }
      throw new Error(`unknown provider operation ${op}`);
    })().then((v) => ok(v === undefined ? "" : JSON.stringify(v)), (e) => fail(errMsg(e)));
  };

  // requestModel runs one request through the Go providers with the
  // registry's credentials and resolves with the final assistant message
  // (a failure is a message with stopReason "error", as in pi-ai).
  function requestModel(model, context, options, onEvent, builtinApi) {
    const o = options || {};
    const req = {
      model, context: context || {}, builtinApi,
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
  function eventStream(model, context, options, builtinApi) {
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
    const final = requestModel(model, context, options, onEvent, builtinApi).then((message) => {
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
  // streamSimple serves the registration's api from JS; oauth and
  // refreshModels stay here and Go calls them through G.providerAuth.
  function registerProvider(path, name, config) {
    if (typeof name !== "string") {
      const id = name && typeof name === "object" ? name.id : String(name);
      throw new Error(`Provider ${id}: native provider objects are not supported by this build`);
    }
    if (!config) throw new Error("Provider config is required when registering by name");
    if (config.streamSimple !== undefined && !config.api) {
      throw new Error(`Provider ${name}: "api" is required when registering streamSimple.`);
    }
    const hasStream = typeof config.streamSimple === "function";
    const prev = registeredConfigs.get(name) || {};
    const merged = { ...prev };
    for (const [k, v] of Object.entries(config)) if (v !== undefined) merged[k] = v;
    // Go learns which functions the merged registration has; they run
    // here when it asks (G.providerAuth).
    const o = merged.oauth;
    const fns = {
      oauth: !!o && typeof o.refreshToken === "function" && typeof o.getApiKey === "function",
      modifyModels: !!o && typeof o.modifyModels === "function",
      refreshModels: typeof merged.refreshModels === "function",
    };
    const prevConfig = registeredConfigs.get(name);
    registeredConfigs.set(name, merged);
    try {
      call("registerProvider", [name, config, path, hasStream, fns]);
    } catch (e) {
      if (prevConfig) registeredConfigs.set(name, prevConfig);
      else registeredConfigs.delete(name);
      throw new Error(errMsg(e));
    }
    if (hasStream) customStreams.set(config.api, config.streamSimple);
  }
  function unregisterProvider(name) {
    registeredConfigs.delete(name);
    call("unregisterProvider", [name]);
  }

  // aiStreams are pi-ai's own stream functions: stream and complete go
  // to whatever serves the model's api (an extension's streamSimple
  // included), as pi-ai's registry does; api(name) is one wire API's
  // built-in implementation (openAICompletionsApi() and its siblings),
  // which an extension's streamSimple for that api wraps.
  const aiStreams = {
    stream: (m, c, o) => eventStream(m, c, o),
    complete: (m, c, o) => requestModel(m, c, o),
    api(name) {
      return {
        stream: (m, c, o) => eventStream(m, c, o, name),
        streamSimple: (m, c, o) => eventStream(m, c, o, name),
        complete: (m, c, o) => requestModel(m, c, o, undefined, name),
      };
    },
  };

  return { modelRegistry, registerProvider, unregisterProvider, customStream, model, modelSelect, aiStreams };
};
