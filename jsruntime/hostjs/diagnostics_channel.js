// node:diagnostics_channel: named channels with synchronous publish,
// stores bound through runStores, and tracing channels (start, end,
// asyncStart, asyncEnd, error) around sync, promise and callback calls.
"use strict";
const invalidArg = (name, what, v) => { const e = new TypeError('The "' + name + '" argument must be ' + what + ". Received " + (v === null || v === undefined ? String(v) : "type " + typeof v + " (" + String(v) + ")")); e.code = "ERR_INVALID_ARG_TYPE"; return e; };
const needFn = (name, f) => { if (typeof f !== "function") throw invalidArg(name, "of type function", f); };

const channels = new Map();

class Channel {
  constructor(name) {
    Object.defineProperty(this, "_subs", { value: [], writable: true });
    Object.defineProperty(this, "_stores", { value: new Map() });
    this.name = name;
  }
  subscribe(fn) { needFn("subscription", fn); this._subs = [...this._subs, fn]; }
  unsubscribe(fn) {
    const i = this._subs.indexOf(fn);
    if (i < 0) return false;
    this._subs = [...this._subs.slice(0, i), ...this._subs.slice(i + 1)];
    return true;
  }
  bindStore(store, transform) { this._stores.set(store, transform); }
  unbindStore(store) { return this._stores.delete(store); }
  get hasSubscribers() { return this._subs.length > 0 || this._stores.size > 0; }
  // publish calls every subscriber in order; one that throws does not
  // stop the others or the publisher: its error is rethrown on a later
  // tick, as Node does.
  publish(data) {
    for (const fn of this._subs) {
      try { fn(data, this.name); } catch (err) { queueMicrotask(() => { throw err; }); }
    }
  }
  runStores(data, fn, thisArg, ...args) {
    let run = () => { this.publish(data); return fn.apply(thisArg, args); };
    for (const [store, transform] of this._stores) {
      const next = run;
      run = () => {
        let value = data;
        if (transform) {
          try { value = transform(data); } catch (err) { queueMicrotask(() => { throw err; }); return next(); }
        }
        return store.run(value, next);
      };
    }
    return run();
  }
}

const checkName = (name) => { if (typeof name !== "string" && typeof name !== "symbol") throw invalidArg("channel", "one of type string or symbol", name); };
function channel(name) {
  let c = channels.get(name);
  if (c) return c;
  checkName(name);
  c = new Channel(name);
  channels.set(name, c);
  return c;
}
const hasSubscribers = (name) => { const c = channels.get(name); return c ? c.hasSubscribers : false; };
const subscribe = (name, fn) => channel(name).subscribe(fn);
const unsubscribe = (name, fn) => channel(name).unsubscribe(fn);

const EVENTS = ["start", "end", "asyncStart", "asyncEnd", "error"];
class TracingChannel {
  constructor(nameOrChannels) {
    for (const ev of EVENTS) {
      let c;
      if (typeof nameOrChannels === "string") c = channel("tracing:" + nameOrChannels + ":" + ev);
      else if (nameOrChannels && typeof nameOrChannels === "object") {
        c = nameOrChannels[ev];
        if (!(c instanceof Channel)) throw invalidArg("nameOrChannels." + ev, "an instance of Channel", c);
      } else throw invalidArg("nameOrChannels", "of type string or an instance of TracingChannel or Object", nameOrChannels);
      Object.defineProperty(this, ev, { value: c });
    }
  }
  get hasSubscribers() { return EVENTS.some((e) => this[e].hasSubscribers); }
  subscribe(handlers) { for (const e of EVENTS) if (handlers[e]) this[e].subscribe(handlers[e]); }
  unsubscribe(handlers) {
    let done = true;
    for (const e of EVENTS) if (handlers[e] && !this[e].unsubscribe(handlers[e])) done = false;
    return done;
  }
  traceSync(fn, context = {}, thisArg, ...args) {
    needFn("fn", fn);
    if (!this.hasSubscribers) return fn.apply(thisArg, args);
    const { start, end, error } = this;
    return start.runStores(context, () => {
      try {
        const result = fn.apply(thisArg, args);
        context.result = result;
        return result;
      } catch (err) {
        context.error = err;
        error.publish(context);
        throw err;
      } finally { end.publish(context); }
    });
  }
  tracePromise(fn, context = {}, thisArg, ...args) {
    needFn("fn", fn);
    if (!this.hasSubscribers) return fn.apply(thisArg, args);
    const { start, end, asyncStart, asyncEnd, error } = this;
    return start.runStores(context, () => {
      try {
        let p = fn.apply(thisArg, args);
        if (!(p instanceof Promise)) p = Promise.resolve(p);
        return p.then((result) => {
          context.result = result;
          asyncStart.publish(context);
          asyncEnd.publish(context);
          return result;
        }, (err) => {
          context.error = err;
          error.publish(context);
          asyncStart.publish(context);
          asyncEnd.publish(context);
          throw err;
        });
      } catch (err) {
        context.error = err;
        error.publish(context);
        throw err;
      } finally { end.publish(context); }
    });
  }
  traceCallback(fn, position = -1, context = {}, thisArg, ...args) {
    needFn("fn", fn);
    if (!this.hasSubscribers) return fn.apply(thisArg, args);
    const { start, end, asyncStart, asyncEnd, error } = this;
    const idx = position < 0 ? args.length + position : position;
    const callback = args[idx];
    needFn("callback", callback);
    args[idx] = function (...cbArgs) {
      const [err, res] = cbArgs;
      const self = this;
      if (err) { context.error = err; error.publish(context); } else context.result = res;
      return asyncStart.runStores(context, () => {
        try { return callback.apply(self, cbArgs); } finally { asyncEnd.publish(context); }
      });
    };
    return start.runStores(context, () => {
      try { return fn.apply(thisArg, args); } catch (err) {
        context.error = err;
        error.publish(context);
        throw err;
      } finally { end.publish(context); }
    });
  }
}
const tracingChannel = (nameOrChannels) => new TracingChannel(nameOrChannels);

module.exports = { channel, hasSubscribers, subscribe, tracingChannel, unsubscribe, Channel };
