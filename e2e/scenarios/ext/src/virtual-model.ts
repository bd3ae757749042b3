// A virtual model that routes every request to the mock: the router sees
// why the request is made, the model that answered last and the state it
// stored on the branch, and reports them; it stores new state twice, then
// keeps what it has.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
	pi.registerVirtualModel<{ n: number }>({
		provider: "router",
		id: "auto",
		name: "Auto",
		thinkingLevels: ["low", "high"],
		contextWindow: 1000,
		route(request, ctx) {
			const previous = request.previous ? `${request.previous.model.provider}/${request.previous.model.id}:${request.previous.thinkingLevel}` : "none";
			const roles = request.messages.map((m) => m.role).join(",");
			ctx.ui.notify(`route ${request.reason} ${request.thinkingLevel} ${request.model.api} previous=${previous} state=${JSON.stringify(request.state)} roles=${roles} selected=${ctx.model?.id}`);
			const n = (request.state?.n ?? 0) + 1;
			const target = ctx.modelRegistry.find("mock", "mock-model");
			if (!target) throw new Error("mock model missing");
			return { model: target, thinkingLevel: "high", state: n < 3 ? { n } : request.state };
		},
	});
	pi.registerCommand("vm-errors", {
		description: "Registration errors",
		handler: async (_args, ctx) => {
			for (const def of [{ provider: "mock", id: "mock-model" }, { provider: " ", id: "x" }]) {
				try {
					pi.registerVirtualModel({ ...def, route: () => { throw new Error("unused"); } });
					ctx.ui.notify("registered");
				} catch (e) {
					ctx.ui.notify(`error: ${(e as Error).message}`);
				}
			}
		},
	});
}
