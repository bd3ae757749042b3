// A project-local extension: it registers a command and a tool, so
// get_commands and the LLM request show whether it was loaded.
import { Type } from "typebox";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
	pi.registerCommand("local-hello", {
		description: "Say hello from the project's extension",
		handler: async (_args, ctx) => {
			ctx.ui.notify("hello from the project", "info");
		},
	});
	pi.registerTool({
		name: "project_info",
		label: "Project info",
		description: "Reports that the project extension is loaded.",
		parameters: Type.Object({}),
		async execute() {
			return { content: [{ type: "text", text: "project extension loaded" }], details: {} };
		},
	});
}
