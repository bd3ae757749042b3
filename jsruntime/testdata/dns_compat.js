// dns: lookup of localhost and literals through the system resolver, and
// resolve* against a local fake DNS server whose address the Go test
// passes in PI_DNS_SERVER (node_net_test.go). Prints no ports.
const dns = require("dns");
const log = (...a) => console.log(...a);
const errShape = (e) => JSON.stringify(Object.assign({ message: e.message, name: e.name }, e, "errno" in e ? { errno: e.errno === undefined ? "undefined" : e.errno } : {}));
log("keys", Object.keys(dns).join(","));
log("promise keys", Object.keys(dns.promises).join(","));
log("constants", dns.NOTFOUND, dns.NODATA, dns.ADDRCONFIG, dns.V4MAPPED, dns.ALL, dns.getDefaultResultOrder());
for (const [what, f] of [
  ["number host", () => dns.lookup(5, () => {})],
  ["bad family", () => dns.lookup("localhost", { family: 5 }, () => {})],
  ["bad family number", () => dns.lookup("localhost", 3, () => {})],
  ["no callback", () => dns.lookup("localhost")],
  ["bad rrtype", () => dns.resolve("a.test", "BOGUS", () => {})],
  ["bad server", () => dns.setServers(["not-an-ip"])],
  ["bad order", () => dns.setDefaultResultOrder("random")],
]) {
  try { f(); log(what, "no throw"); } catch (e) { log(what, e.name, e.code, e.message); }
}

const steps = [];
const step = (f) => steps.push(f);
const run = () => { const f = steps.shift(); if (f) f(run); else log("done"); };
const cb = (label, next) => (err, ...res) => { log(label, err ? errShape(err) : JSON.stringify(res)); next(); };

step((next) => dns.lookup("localhost", { family: 4 }, cb("lookup localhost v4", next)));
step((next) => dns.lookup("localhost", { all: true }, (err, list) => { log("lookup all has 127.0.0.1", JSON.stringify(list.filter((a) => a.family === 4))); next(); }));
step((next) => dns.lookup("127.0.0.1", cb("lookup literal", next)));
step((next) => dns.lookup("::1", { all: true }, cb("lookup literal v6 all", next)));
step((next) => dns.promises.lookup("localhost", 4).then((r) => { log("promises lookup", JSON.stringify(r)); next(); }));
step((next) => { dns.setServers([process.env.PI_DNS_SERVER]); log("servers set", dns.getServers().length); next(); });
step((next) => dns.resolve4("a.test", cb("resolve4", next)));
step((next) => dns.resolve4("a.test", { ttl: true }, cb("resolve4 ttl", next)));
step((next) => dns.resolve6("a.test", cb("resolve6", next)));
step((next) => dns.resolve("a.test", cb("resolve default", next)));
step((next) => dns.resolveTxt("a.test", cb("resolveTxt", next)));
step((next) => dns.resolveMx("a.test", cb("resolveMx", next)));
step((next) => dns.resolveSrv("_sip._tcp.a.test", cb("resolveSrv", next)));
step((next) => dns.resolveCname("www.a.test", cb("resolveCname", next)));
step((next) => dns.resolve4("www.a.test", cb("resolve4 through cname", next)));
step((next) => dns.resolveNs("a.test", cb("resolveNs", next)));
step((next) => dns.resolveSoa("a.test", cb("resolveSoa", next)));
step((next) => dns.resolveCaa("a.test", cb("resolveCaa", next)));
step((next) => dns.resolve("a.test", "MX", cb("resolve MX", next)));
step((next) => dns.resolveAny("a.test", cb("resolveAny", next)));
step((next) => dns.reverse("192.0.2.1", cb("reverse", next)));
step((next) => dns.resolve4("missing.test", cb("missing", next)));
step((next) => dns.resolveNaptr("a.test", cb("no naptr", next)));
step((next) => dns.promises.resolveTxt("missing.test").catch((e) => { log("promises missing", errShape(e)); next(); }));
step((next) => { const r = new dns.Resolver(); r.setServers([process.env.PI_DNS_SERVER]); r.resolveSrv("_sip._tcp.a.test", cb("resolver instance", next)); });
run();
