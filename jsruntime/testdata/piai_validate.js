// pi-ai's validateToolArguments and validateToolCall, with V the pi-ai module.
// Recorded from the reference's pi-ai under Node 22:
//   (echo 'const V = await import(".../@earendil-works/pi-ai/dist/index.js");'; cat piai_validate.js) > t.mjs && node t.mjs > piai_validate.golden
const tool = { name: "calc", description: "d", parameters: { type: "object", properties: { n: { type: "number" }, tags: { type: "array", items: { type: "string" } }, mode: { type: "string", enum: ["a", "b"] } }, required: ["n"] } };
const run = (label, f) => { try { console.log(label, JSON.stringify(f())); } catch (e) { console.log(label, "THREW", JSON.stringify(e.message)); } };
run("coerce", () => V.validateToolArguments(tool, { type: "toolCall", id: "1", name: "calc", arguments: { n: "42", tags: "x" } }));
run("missing", () => V.validateToolArguments(tool, { type: "toolCall", id: "1", name: "calc", arguments: { mode: "c" } }));
run("argsError", () => V.validateToolArguments(tool, { type: "toolCall", id: "1", name: "calc", arguments: {}, argumentsError: "bad json" }));
run("call", () => V.validateToolCall([tool], { type: "toolCall", id: "1", name: "calc", arguments: { n: 1 } }));
run("unknown", () => V.validateToolCall([tool], { type: "toolCall", id: "1", name: "nope", arguments: {} }));
const args = { n: "7" };
V.validateToolArguments(tool, { type: "toolCall", id: "1", name: "calc", arguments: args });
run("untouched", () => args);
