// A TypeScript extension the example loads beside its Go tool: a tool
// that shouts, and a hook that adds a line to the system prompt.
import { Type } from "typebox";

export default function (pi: any) {
	pi.registerTool({
		name: "shout",
		label: "Shout",
		description: "Repeat a text in capitals",
		parameters: Type.Object({ text: Type.String() }),
		async execute(_id: string, params: { text: string }) {
			return { content: [{ type: "text", text: params.text.toUpperCase() + "!" }], details: {} };
		},
	});
	pi.on("before_agent_start", async (event: any) => {
		return { systemPrompt: event.systemPrompt + "\nShout when asked to." };
	});
}
