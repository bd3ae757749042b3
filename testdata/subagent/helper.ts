// A global extension (agentDir/extensions) with a tool and a command: the
// parent loads it, and so does the sub-agent's DefaultResourceLoader.
import { Type } from "typebox";
export default function (pi) {
  console.log("HELPER LOADED");
  pi.registerTool({ name: "helper_tool", label: "Helper", description: "helps", parameters: Type.Object({}),
    execute: async () => ({ content: [{ type: "text", text: "helped" }] }) });
  pi.registerCommand("helper_cmd", { description: "helper", handler: async () => {} });
  pi.on("session_start", () => console.log("HELPER SESSION_START"));
}
