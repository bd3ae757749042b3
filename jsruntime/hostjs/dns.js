// node:dns and node:dns/promises. lookup goes through Go's resolver (the
// hosts file, then DNS, as getaddrinfo); resolve* and reverse send one
// question to the servers (resolv.conf's, or setServers') as c-ares does
// in Node. __host: lookup, lookupService, resolver(timeout, tries),
// reverseName.
"use strict";
const net = require("net");
const { _codeErr: codeErr, _invalidArg: invalidArg, _sysError: sysError } = net;

const codes = ["NODATA", "FORMERR", "SERVFAIL", "NOTFOUND", "NOTIMP", "REFUSED", "BADQUERY", "BADNAME", "BADFAMILY", "BADRESP", "CONNREFUSED", "TIMEOUT", "EOF", "FILE", "NOMEM", "DESTRUCTION", "BADSTR", "BADFLAGS", "NONAME", "BADHINTS", "NOTINITIALIZED", "LOADIPHLPAPI", "ADDRGETNETWORKPARAMS", "CANCELLED"];
const constants = {};
for (const c of codes) constants[c] = "E" + c;

const syscalls = { A: "queryA", AAAA: "queryAaaa", ANY: "queryAny", CAA: "queryCaa", CNAME: "queryCname", MX: "queryMx", NAPTR: "queryNaptr", NS: "queryNs", PTR: "queryPtr", SOA: "querySoa", SRV: "querySrv", TXT: "queryTxt", TLSA: "queryTlsa" };

// queryError is c-ares's failure as Node reports it: errno undefined.
const queryError = (code, syscall, hostname) => {
  const e = new Error(syscall + " " + code + " " + hostname);
  e.errno = undefined; e.code = code; e.syscall = syscall; e.hostname = hostname;
  return e;
};

const needFn = (cb) => { if (typeof cb !== "function") throw invalidArg("callback", "of type function", cb); };
const needStr = (name, v) => { if (typeof v !== "string") throw invalidArg(name, "of type string", v); };

let defaultOrder = "verbatim";
const validOrder = (v, name) => {
  if (!["verbatim", "ipv4first", "ipv6first"].includes(v)) throw codeErr(TypeError, "ERR_INVALID_ARG_VALUE", "The " + (name.includes(".") ? "property" : "argument") + " '" + name + "' must be one of: 'verbatim', 'ipv4first', 'ipv6first'. Received " + (typeof v === "string" ? "'" + v + "'" : String(v)));
  return v;
};

function lookupArgs(hostname, options) {
  if (hostname && typeof hostname !== "string") throw invalidArg("hostname", "of type string", hostname);
  let family = 0, all = false, order = defaultOrder;
  if (typeof options === "number" || typeof options === "string") family = options;
  else if (options !== null && typeof options === "object") {
    if (options.family !== undefined) family = options.family;
    all = !!options.all;
    if (options.verbatim !== undefined) order = options.verbatim ? "verbatim" : "ipv4first";
    if (options.order !== undefined) order = validOrder(options.order, "options.order");
  }
  if (family === "IPv4") family = 4; else if (family === "IPv6") family = 6;
  if (![0, 4, 6].includes(family)) {
    if (typeof options === "object") throw codeErr(TypeError, "ERR_INVALID_ARG_VALUE", "The property 'options.family' must be one of: 0, 4, 6. Received " + String(family));
    throw codeErr(TypeError, "ERR_INVALID_ARG_VALUE", "The argument 'family' must be one of: 0, 4, 6. Received " + String(family));
  }
  return { family, all, order };
}

function lookup(hostname, options, callback) {
  if (typeof options === "function") { callback = options; options = undefined; }
  const { family, all, order } = lookupArgs(hostname, options);
  needFn(callback);
  const answer = (list) => {
    if (order === "ipv4first") list.sort((a, b) => a.family - b.family);
    else if (order === "ipv6first") list.sort((a, b) => b.family - a.family);
    if (all) callback(null, list);
    else callback(null, list[0].address, list[0].family);
  };
  if (!hostname) {
    queueMicrotask(() => (all ? callback(null, []) : callback(null, null, family === 6 ? 6 : 4)));
    return {};
  }
  const literal = net.isIP(hostname);
  if (literal) {
    queueMicrotask(() => answer([{ address: hostname, family: literal }]));
    return {};
  }
  __host.lookup(hostname, family, (err, list) => {
    if (err) return callback(sysError(err));
    answer(list.map(([address, family]) => ({ address, family })));
  });
  return {};
}
Object.defineProperty(lookup, Symbol.for("nodejs.util.promisify.custom"), { value: (h, o) => promises.lookup(h, o) });

function lookupService(address, port, callback) {
  if (arguments.length !== 3) throw codeErr(TypeError, "ERR_MISSING_ARGS", 'The "address", "port", and "callback" arguments must be specified');
  if (!net.isIP(address)) throw codeErr(TypeError, "ERR_INVALID_ARG_VALUE", "The argument 'address' is invalid. Received '" + address + "'");
  port = net._validPort(port);
  needFn(callback);
  __host.lookupService(address, port, (err, host, service) => {
    if (err) return callback(sysError(Object.assign(err, { hostname: address + " " + port })));
    callback(null, host, service);
  });
}

const validServer = (s) => {
  needStr("servers[0]", s);
  let host = s, m;
  if ((m = /^\[([^\]]+)\](?::(\d+))?$/.exec(s))) host = m[1];
  else if ((m = /^([^:]+):(\d+)$/.exec(s))) host = m[1];
  if (!net.isIP(host)) throw codeErr(TypeError, "ERR_INVALID_IP_ADDRESS", "Invalid IP address: " + s);
  return s;
};

class Resolver {
  constructor(opts) {
    opts = opts || {};
    Object.defineProperty(this, "_h", { value: __host.resolver(opts.timeout > 0 ? opts.timeout : 0, opts.tries > 0 ? opts.tries : 0) });
  }
  cancel() { this._h.cancel(); }
  getServers() { return this._h.getServers(); }
  setServers(list) {
    if (!Array.isArray(list)) throw invalidArg("servers", "an instance of Array", list);
    this._h.setServers(list.map(validServer));
  }
  setLocalAddress() { throw codeErr(Error, "ERR_NOT_SUPPORTED", "resolver.setLocalAddress is not supported in extensions by this runtime"); }
  resolve(hostname, rrtype, callback) {
    if (typeof rrtype === "function") { callback = rrtype; rrtype = "A"; }
    if (rrtype === undefined) rrtype = "A";
    needStr("rrtype", rrtype);
    if (!syscalls[rrtype]) throw codeErr(TypeError, "ERR_INVALID_ARG_VALUE", "The argument 'rrtype' is invalid. Received '" + rrtype + "'");
    return this._query(hostname, rrtype, {}, callback);
  }
  reverse(ip, callback) {
    needStr("ip", ip);
    needFn(callback);
    const name = __host.reverseName(ip);
    if (name === null) { const e = queryError("EINVAL", "getHostByAddr", ip); e.errno = -22; queueMicrotask(() => callback(e)); return {}; }
    this._h.query(name, "PTR", false, (code, res) => callback(code ? queryError(code, "getHostByAddr", ip) : null, res));
    return {};
  }
  _query(hostname, rrtype, opts, callback) {
    needStr("name", hostname);
    needFn(callback);
    const ttl = !!(opts && opts.ttl);
    this._h.query(hostname, rrtype, ttl, (code, res) => {
      if (code) return callback(queryError(code, syscalls[rrtype], hostname));
      callback(null, res);
    });
    return {};
  }
}
for (const t of Object.keys(syscalls)) {
  const name = t === "A" ? "resolve4" : t === "AAAA" ? "resolve6" : "resolve" + t[0] + t.slice(1).toLowerCase();
  Resolver.prototype[name] = function (hostname, opts, callback) {
    if (typeof opts === "function") { callback = opts; opts = {}; }
    return this._query(hostname, t, opts, callback);
  };
}

const promisify = (fn) => function (...args) { return new Promise((resolve, reject) => fn.call(this, ...args, (err, res) => (err ? reject(err) : resolve(res)))); };
const methods = ["resolve", "resolve4", "resolve6", "resolveAny", "resolveCaa", "resolveCname", "resolveMx", "resolveNaptr", "resolveNs", "resolvePtr", "resolveSoa", "resolveSrv", "resolveTlsa", "resolveTxt", "reverse"];

class PromiseResolver extends Resolver {}
for (const m of methods) {
  const base = Resolver.prototype[m];
  Object.defineProperty(PromiseResolver.prototype, m, { value: promisify(base), writable: true, configurable: true });
}

let defaultResolver = new Resolver();
const bound = (m) => function (...args) { return defaultResolver[m](...args); };

const promises = {
  lookup: (hostname, options) => new Promise((resolve, reject) => {
    lookup(hostname, options, (err, address, family) => {
      if (err) return reject(err);
      resolve(Array.isArray(address) ? address : { address, family });
    });
  }),
  lookupService: (address, port) => new Promise((resolve, reject) => lookupService(address, port, (err, hostname, service) => (err ? reject(err) : resolve({ hostname, service })))),
  Resolver: PromiseResolver,
  getDefaultResultOrder: () => defaultOrder,
  setDefaultResultOrder: (v) => { defaultOrder = validOrder(v, "dnsOrder"); },
  setServers: (list) => defaultResolver.setServers(list),
};
Object.assign(promises, constants);
promises.getServers = () => defaultResolver.getServers();
for (const m of methods) promises[m] = (...args) => PromiseResolver.prototype[m].apply(defaultResolver, args);

module.exports = {
  lookup, lookupService, Resolver,
  getDefaultResultOrder: () => defaultOrder,
  setDefaultResultOrder: (v) => { defaultOrder = validOrder(v, "dnsOrder"); },
  setServers: (list) => defaultResolver.setServers(list),
  ADDRCONFIG: 32, ALL: 16, V4MAPPED: 8,
};
Object.assign(module.exports, constants);
module.exports.getServers = () => defaultResolver.getServers();
for (const m of methods) module.exports[m] = bound(m);
module.exports.promises = promises;
