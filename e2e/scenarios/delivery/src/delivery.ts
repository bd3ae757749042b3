// Sends custom and user messages with pi.sendMessage / pi.sendUserMessage
// at chosen points of a run (during a tool call, in turn_end, in
// agent_end, in agent_settled, or at once), navigates the session tree,
// and reports what the session recorded, so a transcript shows where each
// message landed.
//
//   /plan {"tool": [{"kind": "msg", "text": "...", "opts": {...}}], ...}
//   /nav {"user": 1, "opts": {"summarize": true}}
//   /dump
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

type Send = { kind: "msg" | "user"; text: string; opts?: any };
const plan: Record<string, any> = {};

export default function (pi: ExtensionAPI) {
	const fire = (point: string) => {
		const list: Send[] | undefined = plan[point];
		if (!list) return;
		delete plan[point];
		for (const s of list) {
			if (s.kind === "msg") pi.sendMessage({ customType: "probe", content: s.text, display: true }, s.opts);
			else pi.sendUserMessage(s.text, s.opts);
		}
	};
	pi.registerCommand("plan", {
		description: "Plan message sends",
		handler: async (args) => {
			Object.assign(plan, JSON.parse(args));
			fire("now");
		},
	});
	pi.registerCommand("dump", {
		description: "Report the session entries",
		handler: async (_args, ctx) => {
			const lines = ctx.sessionManager.getEntries().map((e: any) => {
				let s = e.type;
				if (e.type === "message") s += ":" + e.message.role + ":" + JSON.stringify(e.message.content).slice(0, 60);
				if (e.type === "custom_message") s += ":" + JSON.stringify(e.content).slice(0, 60);
				if (e.type === "branch_summary") s += ":" + JSON.stringify(e.summary).slice(0, 300) + ":" + JSON.stringify(e.details) + ":" + e.fromHook;
				if (e.type === "label") s += ":" + e.label;
				return s;
			});
			ctx.ui.notify(lines.join("\n"), "info");
		},
	});
	pi.registerCommand("nav", {
		description: "Navigate to a user message",
		handler: async (args, ctx) => {
			const o = JSON.parse(args);
			const users = ctx.sessionManager.getEntries().filter((e: any) => e.type === "message" && e.message.role === "user");
			const r = await ctx.navigateTree(users[o.user ?? 0].id, o.opts);
			ctx.ui.notify("nav " + JSON.stringify(r), "info");
		},
	});
	pi.registerTool({
		name: "probe",
		label: "Probe",
		description: "Runs the sends planned for a tool call",
		parameters: Type.Object({}),
		async execute() {
			fire("tool");
			return { content: [{ type: "text", text: "probed" }], details: {} };
		},
	});
	pi.on("turn_end", () => fire("turn_end"));
	pi.on("agent_end", () => fire("agent_end"));
	pi.on("agent_settled", () => fire("agent_settled"));
	pi.on("session_tree", (e: any, ctx) => {
		const se = e.summaryEntry;
		const summary = se
			? { type: se.type, fromOldLeaf: se.fromId === e.oldLeafId, summary: se.summary, details: se.details, fromHook: se.fromHook, hasUsage: !!se.usage }
			: null;
		ctx.ui.notify("tree " + JSON.stringify({ moved: e.newLeafId !== e.oldLeafId, fromExtension: e.fromExtension, summary }), "info");
	});
	pi.on("session_before_tree", (e: any, ctx) => {
		const p = e.preparation;
		ctx.ui.notify("before_tree " + JSON.stringify({ n: p.entriesToSummarize.length, userWantsSummary: p.userWantsSummary, customInstructions: p.customInstructions, replaceInstructions: p.replaceInstructions, label: p.label }), "info");
		if (plan.tree_result) {
			const r = plan.tree_result;
			delete plan.tree_result;
			return r;
		}
	});
}
