// Handlers that throw: in session_start, in a command, in a tool_call hook
// and in an input handler. pi reports each one and carries on.
export default function (pi: any) {
  pi.on("session_start", () => {
    throw new Error("session_start exploded");
  });
  pi.registerCommand("boom", {
    description: "Throws",
    handler: async () => {
      throw new Error("command exploded");
    },
  });
  pi.on("input", (e: any) => {
    if (e.text === "explode input") throw new Error("input exploded");
    return { action: "continue" };
  });
  pi.on("tool_call", () => {
    throw new Error("tool_call exploded");
  });
}
