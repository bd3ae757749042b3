// Input transforms: "?quick <question>" is rewritten before it reaches the
// model, "ping" is answered by the extension alone (no LLM request), and
// messages sent by extensions pass through untouched.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
	pi.on("input", async (event, ctx) => {
		if (event.source === "extension") return { action: "continue" };
		if (event.text.startsWith("?quick ")) {
			return { action: "transform", text: `Answer in one sentence: ${event.text.slice(7).trim()}` };
		}
		if (event.text.trim().toLowerCase() === "ping") {
			ctx.ui.notify("pong", "info");
			return { action: "handled" };
		}
		return { action: "continue" };
	});
}
