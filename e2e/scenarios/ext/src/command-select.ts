// A command that asks the user to pick a topic through ctx.ui.select and
// then sends a user message about it with pi.sendUserMessage.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
	pi.registerCommand("topic", {
		description: "Pick a topic and ask the model about it",
		handler: async (args, ctx) => {
			const choice = await ctx.ui.select("Pick a topic", ["goroutines", "channels", "interfaces"]);
			if (!choice) {
				ctx.ui.notify("No topic chosen", "info");
				return;
			}
			const extra = args.trim() ? ` (${args.trim()})` : "";
			pi.sendUserMessage(`Explain ${choice} in Go${extra}.`);
		},
	});
}
