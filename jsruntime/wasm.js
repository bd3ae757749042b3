// The WebAssembly namespace of the JS API over the Go primitives in
// wasm.go (wazero underneath). It is compiled and run the first time a
// script touches globalThis.WebAssembly; the wazero runtime itself starts
// with the first module compiled.
(function (go) {
  "use strict";
  const handles = new WeakMap(); // Module/Instance/Memory/Global/Table → Go handle
  const instanceExports = new WeakMap();

  const defineName = (proto, name) =>
    Object.defineProperty(proto, "name", { value: name, writable: true, configurable: true, enumerable: false });
  class CompileError extends Error {}
  class LinkError extends Error {}
  class RuntimeError extends Error {}
  defineName(CompileError.prototype, "CompileError");
  defineName(LinkError.prototype, "LinkError");
  defineName(RuntimeError.prototype, "RuntimeError");

  const isBufferSource = (b) =>
    ArrayBuffer.isView(b) || b instanceof ArrayBuffer || (typeof SharedArrayBuffer === "function" && b instanceof SharedArrayBuffer);
  const requireBytes = (api, b) => {
    if (!isBufferSource(b)) throw new TypeError(`${api}: Argument 0 must be a buffer source`);
    return b;
  };
  const handleOf = (v, Class, api, what) => {
    const h = v !== null && typeof v === "object" ? handles.get(v) : undefined;
    if (h === undefined || !(v instanceof Class)) throw new TypeError(`${api}: ${what}`);
    return h;
  };
  const tag = (C, name) =>
    Object.defineProperty(C.prototype, Symbol.toStringTag, { value: name, configurable: true });

  class Module {
    constructor(bytes) {
      if (new.target === undefined) throw new TypeError("WebAssembly.Module must be invoked with 'new'");
      handles.set(this, go.compile(requireBytes("WebAssembly.Module()", bytes), "WebAssembly.Module()"));
    }
    static exports(m) {
      return go.moduleExports(handleOf(m, Module, "WebAssembly.Module.exports()", "Argument 0 must be a WebAssembly.Module"));
    }
    static imports(m) {
      return go.moduleImports(handleOf(m, Module, "WebAssembly.Module.imports()", "Argument 0 must be a WebAssembly.Module"));
    }
    static customSections(m, name) {
      const h = handleOf(m, Module, "WebAssembly.Module.customSections()", "Argument 0 must be a WebAssembly.Module");
      if (name === undefined) throw new TypeError("WebAssembly.Module.customSections(): Argument 1 is required");
      return go.customSections(h, String(name));
    }
  }
  tag(Module, "WebAssembly.Module");

  const instantiate = (instance, module, importObject, api) => {
    const h = handleOf(module, Module, api, "Argument 0 must be a WebAssembly.Module");
    if (importObject !== undefined && (importObject === null || typeof importObject !== "object")) {
      throw new TypeError(`${api}: Argument 1 must be an object`);
    }
    const list = go.instantiate(h, importObject, api);
    const exports = Object.create(null);
    for (const [name, value] of list) exports[name] = value;
    Object.freeze(exports);
    handles.set(instance, h);
    instanceExports.set(instance, exports);
    return instance;
  };
  class Instance {
    constructor(module, importObject) {
      if (new.target === undefined) throw new TypeError("WebAssembly.Instance must be invoked with 'new'");
      instantiate(this, module, importObject, "WebAssembly.Instance()");
    }
    get exports() {
      const e = instanceExports.get(this);
      if (e === undefined) throw new TypeError("Receiver is not a WebAssembly.Instance");
      return e;
    }
  }
  tag(Instance, "WebAssembly.Instance");

  // descriptorIndex reads an [EnforceRange] unsigned long of a descriptor.
  const descriptorIndex = (api, desc, key, upper) => {
    const v = desc[key];
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0 || n > 0xffffffff) throw new TypeError(`${api}: Property '${key}' must be convertible to a valid number`);
    const i = Math.trunc(n);
    if (i > upper) throw new RangeError(`${api}: Property '${key}': value ${i} is above the upper bound ${upper}`);
    return i;
  };
  const wrapMemory = (h) => {
    const m = Object.create(Memory.prototype);
    handles.set(m, h);
    return m;
  };
  class Memory {
    constructor(desc) {
      const api = "WebAssembly.Memory()";
      if (new.target === undefined) throw new TypeError("WebAssembly.Memory must be invoked with 'new'");
      if (desc === null || typeof desc !== "object") throw new TypeError(`${api}: Argument 0 must be a memory descriptor`);
      let initial = descriptorIndex(api, desc, "initial", 65536);
      if (initial === undefined) initial = descriptorIndex(api, desc, "minimum", 65536);
      if (initial === undefined) throw new TypeError(`${api}: Property 'initial' is required`);
      const maximum = descriptorIndex(api, desc, "maximum", 65536);
      if (maximum !== undefined && maximum < initial) {
        throw new RangeError(`${api}: Property 'maximum': value ${maximum} is below the lower bound ${initial}`);
      }
      if (desc.shared) throw new TypeError(`${api}: shared memories are not supported`);
      handles.set(this, go.newMemory(this, initial, maximum === undefined ? -1 : maximum));
    }
    get buffer() {
      return go.memoryBuffer(handleOf(this, Memory, "WebAssembly.Memory.buffer", "Receiver is not a WebAssembly.Memory"));
    }
    grow(delta) {
      const h = handleOf(this, Memory, "WebAssembly.Memory.grow()", "Receiver is not a WebAssembly.Memory");
      const n = Number(delta);
      if (!Number.isFinite(n) || n < 0 || n > 0xffffffff) throw new TypeError("WebAssembly.Memory.grow(): Argument 0 must be convertible to a valid number");
      return go.memoryGrow(h, Math.trunc(n));
    }
  }
  tag(Memory, "WebAssembly.Memory");

  const valueTypes = ["i32", "i64", "f32", "f64", "externref", "anyfunc", "funcref"];
  const wrapGlobal = (h) => {
    const g = Object.create(Global.prototype);
    handles.set(g, h);
    return g;
  };
  class Global {
    constructor(desc, value) {
      const api = "WebAssembly.Global()";
      if (new.target === undefined) throw new TypeError("WebAssembly.Global must be invoked with 'new'");
      if (desc === null || typeof desc !== "object") throw new TypeError(`${api}: Argument 0 must be a global descriptor`);
      const type = String(desc.value);
      if (!valueTypes.includes(type)) {
        throw new TypeError(`${api}: Descriptor property 'value' must be a WebAssembly type`);
      }
      handles.set(this, go.newGlobal(this, type === "anyfunc" ? "funcref" : type, Boolean(desc.mutable), value, arguments.length > 1));
    }
    get value() {
      return go.globalGet(handleOf(this, Global, "get WebAssembly.Global.value", "Receiver is not a WebAssembly.Global"));
    }
    set value(v) {
      go.globalSet(handleOf(this, Global, "set WebAssembly.Global.value", "Receiver is not a WebAssembly.Global"), v);
    }
    valueOf() {
      return this.value;
    }
  }
  tag(Global, "WebAssembly.Global");

  const wrapTable = (h) => {
    const t = Object.create(Table.prototype);
    handles.set(t, h);
    return t;
  };
  const tableUnsupported = (what) => {
    throw new TypeError(`WebAssembly.Table.${what}: reading or changing table entries is not supported by this runtime`);
  };
  class Table {
    constructor() {
      throw new TypeError("WebAssembly.Table(): creating tables from JavaScript is not supported by this runtime");
    }
    get length() {
      return go.tableLength(handleOf(this, Table, "WebAssembly.Table.length", "Receiver is not a WebAssembly.Table"));
    }
    get() {
      tableUnsupported("get()");
    }
    set() {
      tableUnsupported("set()");
    }
    grow() {
      tableUnsupported("grow()");
    }
  }
  tag(Table, "WebAssembly.Table");

  // unwrap gives Go the handle behind a Memory, Global or Table passed in
  // an import object.
  const unwrap = (v) => (v !== null && typeof v === "object" && !(v instanceof Module) && !(v instanceof Instance) ? handles.get(v) : undefined);
  go.init({ CompileError, LinkError, RuntimeError, wrapMemory, wrapGlobal, wrapTable, unwrap });

  const promised = (f) => {
    try {
      return Promise.resolve(f());
    } catch (e) {
      return Promise.reject(e);
    }
  };
  const responseBytes = (api, source) =>
    Promise.resolve(source).then((res) => {
      if (typeof Response !== "function" || !(res instanceof Response)) {
        throw new TypeError(`${api}: Argument 0 must be provided and must be a Response`);
      }
      const type = res.headers.get("content-type");
      if (type === null || type.split(";")[0].trim().toLowerCase() !== "application/wasm") {
        throw new TypeError(`${api}: Incorrect response MIME type. Expected 'application/wasm'.`);
      }
      if (!res.ok) throw new TypeError(`${api}: HTTP status code is not ok`);
      return res.arrayBuffer();
    });
  const compileBytes = (api, bytes) => {
    const m = Object.create(Module.prototype);
    handles.set(m, go.compile(requireBytes(api, bytes), api));
    return m;
  };
  const instantiateModule = (api, module, importObject) =>
    instantiate(Object.create(Instance.prototype), module, importObject, api);

  const WebAssembly = {};
  const methods = {
    compile(bytes) {
      return promised(() => compileBytes("WebAssembly.compile()", bytes));
    },
    validate(bytes) {
      return go.validate(requireBytes("WebAssembly.validate()", bytes));
    },
    instantiate(source, importObject) {
      const api = "WebAssembly.instantiate()";
      if (source instanceof Module) return promised(() => instantiateModule(api, source, importObject));
      return promised(() => {
        const module = compileBytes(api, source);
        return { module, instance: instantiateModule(api, module, importObject) };
      });
    },
    compileStreaming(source) {
      const api = "WebAssembly.compileStreaming()";
      return responseBytes(api, source).then((b) => compileBytes(api, b));
    },
    instantiateStreaming(source, importObject) {
      const api = "WebAssembly.instantiateStreaming()";
      return responseBytes(api, source).then((b) => {
        const module = compileBytes(api, b);
        return { module, instance: instantiateModule(api, module, importObject) };
      });
    },
  };
  for (const [name, f] of Object.entries(methods)) {
    Object.defineProperty(WebAssembly, name, { value: f, writable: true, configurable: true, enumerable: true });
  }
  const classes = { Module, Instance, Memory, Table, Global, CompileError, LinkError, RuntimeError };
  for (const [name, C] of Object.entries(classes)) {
    Object.defineProperty(WebAssembly, name, { value: C, writable: true, configurable: true, enumerable: false });
  }
  Object.defineProperty(WebAssembly, Symbol.toStringTag, { value: "WebAssembly", configurable: true });
  return { WebAssembly };
});
