// @earendil-works/pi-agent-core: extensions import its types, which vanish
// when bundled. The value exports exist so imports resolve; the agent loop
// itself runs in Go, so using them fails clearly.
"use strict";

function notSupported(name) {
  const fn = function () {
    throw new Error("@earendil-works/pi-agent-core: " + name + " is not supported in pi-go");
  };
  Object.defineProperty(fn, "name", { value: name });
  return fn;
}

class Agent {
  constructor() {
    throw new Error("@earendil-works/pi-agent-core: Agent is not supported in pi-go");
  }
}

Object.defineProperty(exports, "__esModule", { value: true });
exports.Agent = Agent;
exports.DEFAULT_AGENT_IDENTITY = { attribution: { name: "pi", url: "https://pi.dev", categories: ["cli-agent"] } };
for (const name of ["agentLoop", "agentLoopContinue", "runAgentLoop", "runAgentLoopContinue", "runToolCall",
  "setDefaultStreamFn", "streamProxy"]) {
  exports[name] = notSupported(name);
}
