// console: the Console class writing to given streams (formatting,
// groups, counts, assert, table, dir), and the module's shape.
const consoleMod = require("console");
const { Console } = consoleMod;
const { Writable } = require("stream");
const log = (...a) => console.log(...a);
const sink = (name, lines) => new Writable({ write(chunk, enc, cb) { lines.push(name + "|" + String(chunk)); cb(); } });
const lines = [];
const c = new Console(sink("out", lines), sink("err", lines));
c.log("hello %s, %d items, %i int, %f float, %j json, %O %%", "world", 42, 3.9, 1.5, { a: 1 }, { b: { c: {} } });
c.info("info", { nested: { deep: { deeper: { deepest: 1 } } } }, [1, "two", null, undefined]);
c.debug("debug", 1n, Symbol("s"), () => 1, function named() {});
c.warn("warn", new Map([[1, 2]]), new Set(["x"]));
c.error("error %s", "text", "extra");
c.group("group label");
c.log("inside\nmultiline");
c.group();
c.warn("deeper");
c.groupEnd();
c.groupEnd();
c.groupEnd();
c.log("outside");
c.count(); c.count(); c.count("x"); c.countReset(); c.count();
c.assert(true, "not shown");
c.assert(false, "shown %s", "formatted");
c.assert(false);
c.assert(0, { obj: 1 });
c.dir({ a: { b: { c: { d: 1 } } } }, { depth: 0 });
c.dirxml("dirxml", 1);
c.table([{ a: 1, b: "Y" }, { a: "Z", b: 2 }]);
c.table([[1, 2], [3, 4, 5]]);
c.table({ r1: { c: 1 }, r2: { d: true } });
c.table([{ a: 1, b: 2 }], ["b"]);
c.table("not tabular");
c.table([1, "two", { three: 3 }]);
for (const l of lines) log(JSON.stringify(l));
log("same", consoleMod === console, typeof Console, Console === console.Console);
const lines2 = [];
const c2 = new Console({ stdout: sink("o", lines2), groupIndentation: 4 });
c2.group("g"); c2.error("to stdout when no stderr"); c2.groupEnd();
for (const l of lines2) log(JSON.stringify(l));
try { new Console(); } catch (e) { log("no stream", e.name, e.code, e.message); }
try { new Console({ stdout: {} }); } catch (e) { log("bad stream", e.name, e.code, e.message); }
const c3 = Console(sink("call", lines2));
log("callable without new", c3 instanceof Console);
log("methods", ["log", "info", "debug", "warn", "error", "dir", "dirxml", "table", "trace", "group", "groupCollapsed", "groupEnd", "clear", "count", "countReset", "assert", "time", "timeEnd", "timeLog", "profile", "profileEnd", "timeStamp"].map((m) => typeof c[m]).join(","));
