// A tool whose parameters are declared with typebox; the model calls it
// and the result (text and details) goes back to the model.
import { Type } from "typebox";
import { StringEnum } from "@earendil-works/pi-ai";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
	pi.registerTool({
		name: "add_numbers",
		label: "Add numbers",
		description: "Adds two numbers and reports the sum.",
		promptSnippet: "Add two numbers",
		parameters: Type.Object({
			a: Type.Number({ description: "First addend" }),
			b: Type.Number({ description: "Second addend" }),
			format: Type.Optional(StringEnum(["plain", "verbose"] as const, { description: "Output style" })),
			tags: Type.Optional(Type.Array(Type.String(), { description: "Labels to echo back" })),
		}),
		async execute(_toolCallId, params) {
			const sum = params.a + params.b;
			const text = params.format === "verbose" ? `${params.a} + ${params.b} = ${sum}` : String(sum);
			return { content: [{ type: "text", text }], details: { sum, tags: params.tags ?? [] } };
		},
	});
}
