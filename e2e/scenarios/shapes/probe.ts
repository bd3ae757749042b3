// Shape probe: records what an extension sees (event payload keys and
// types, ctx, ctx.ui, pi, and the getters' results) as JSON lines in the
// file named by $PI_SHAPES_OUT, so two pi implementations can be compared.
import * as fs from "node:fs";

const OUT = process.env.PI_SHAPES_OUT || "";
function emit(rec: any) {
	if (OUT) fs.appendFileSync(OUT, JSON.stringify(rec) + "\n");
}

// Tools and commands of the reference's built-in extensions (MCP, code
// mode, tool search, llama.cpp, PowerShell) are left out: the clone does
// not ship them.
const SKIP = new Set(["powershell", "codemode", "tool_search", "llama", "mcp"]);
const TOOLS = ["read", "bash", "edit", "write", "grep", "find", "ls", "shapes_tool"];

// shape describes a value: its type, and for objects the keys in order
// with their shapes, down to `depth` levels.
function shape(v: any, depth: number): any {
	if (v === null) return "null";
	if (v === undefined) return "undefined";
	if (Array.isArray(v)) {
		const out: any = { array: v.length };
		if (v.length > 0) out.item = shape(v[0], depth - 1);
		return out;
	}
	const t = typeof v;
	if (t !== "object") return t;
	if (depth <= 0) return "object";
	const out: any = {};
	for (const k of Object.keys(v)) {
		if (SKIP.has(k)) continue;
		let x;
		try { x = v[k]; } catch (e) { x = "<throws>"; }
		out[k] = shape(x, depth - 1);
	}
	return out;
}

// methods lists the functions an object has through its prototype chain
// (class instances keep their methods on the prototype).
function methods(o: any): string[] {
	const seen = new Set<string>();
	let p = o;
	while (p && p !== Object.prototype) {
		for (const k of Object.getOwnPropertyNames(p)) {
			if (k === "constructor") continue;
			try { if (typeof o[k] === "function") seen.add(k); } catch {}
		}
		p = Object.getPrototypeOf(p);
	}
	return [...seen].sort();
}

function safe(f: () => any): any {
	try {
		const r = f();
		if (r && typeof r.then === "function") return "<promise>";
		return r;
	} catch (e: any) {
		return "<throws: " + String(e && e.message || e) + ">";
	}
}

const VALUES = ["reason", "source", "messageType", "turnIndex", "outcome", "continue", "isError", "toolName",
	"level", "previousLevel", "willRetry", "fromExtension", "aborted", "excludeFromContext", "command", "text",
	"position", "streamingBehavior", "status", "name", "kind", "title", "api", "provider"];

function values(ev: any): any {
	const out: any = {};
	for (const k of VALUES) {
		if (k in ev) {
			const v = ev[k];
			if (v === null || typeof v !== "object") out[k] = v === undefined ? "<undefined>" : v;
		}
	}
	return out;
}

// Per factory call: the reference keeps the module (and its state) across
// a session replacement and calls the factory again; the clone loads it
// afresh. Keeping the state in the factory's closure compares the same.
let seenCtx = new Set<string>();
let seenSig = new Set<string>();
// Streaming events are recorded once per distinct shape: their count
// depends on chunking, not on what an extension sees.
const DEDUPE = new Set(["message_update", "provider_stream_event", "tool_execution_update"]);

function ctxShape(where: string, ctx: any) {
	if (!ctx || seenCtx.has(where)) return;
	seenCtx.add(where);
	emit({ rec: "ctx", where, ctx: shape(ctx, 1), ui: shape(ctx.ui, 1) });
}

function getters(where: string, pi: any, ctx: any) {
	const g: any = {};
	g.activeTools = safe(() => pi.getActiveTools().filter((n: string) => !SKIP.has(n)));
	g.allTools = safe(() => {
		const o: any = {};
		for (const t of pi.getAllTools()) if (TOOLS.includes(t.name)) o[t.name] = shape(t, 2);
		return o;
	});
	g.allToolNames = safe(() => pi.getAllTools().map((t: any) => t.name).filter((n: string) => !SKIP.has(n)));
	g.commands = safe(() => pi.getCommands().filter((c: any) => c.name.startsWith("shapes")).map((c: any) => shape(c, 2)));
	g.commandNames = safe(() => pi.getCommands().map((c: any) => c.name).filter((n: string) => !SKIP.has(n)));
	g.thinkingLevel = safe(() => pi.getThinkingLevel());
	g.sessionName = safe(() => pi.getSessionName());
	g.settings = safe(() => shape(pi.getSettings(), 1));
	g.flag = safe(() => pi.getFlag("shapes-flag"));
	if (ctx) {
		g.model = safe(() => shape(ctx.model, 2));
		g.modelId = safe(() => ctx.model && ctx.model.id);
		g.ctxThinking = safe(() => ctx.thinkingLevel);
		g.scopedModels = safe(() => shape(ctx.scopedModels, 2));
		g.contextUsage = safe(() => shape(ctx.getContextUsage(), 1));
		g.systemPrompt = safe(() => typeof ctx.getSystemPrompt());
		g.isIdle = safe(() => ctx.isIdle());
		g.hasPending = safe(() => ctx.hasPendingMessages());
		g.trusted = safe(() => ctx.isProjectTrusted());
		g.signal = safe(() => shape(ctx.signal, 1));
		g.mode = safe(() => ctx.mode);
		g.hasUI = safe(() => ctx.hasUI);
		g.sessionManager = safe(() => methods(ctx.sessionManager));
		g.sessionManagerKeys = safe(() => Object.keys(ctx.sessionManager));
		g.modelRegistry = safe(() => methods(ctx.modelRegistry));
		g.modelRegistryKeys = safe(() => Object.keys(ctx.modelRegistry));
		g.sm = safe(() => {
			const sm = ctx.sessionManager;
			return {
				cwd: typeof sm.getCwd(),
				sessionId: typeof sm.getSessionId(),
				sessionFile: typeof sm.getSessionFile(),
				sessionDir: typeof sm.getSessionDir(),
				leafId: typeof sm.getLeafId(),
				leafEntry: shape(sm.getLeafEntry(), 1),
				header: shape(sm.getHeader(), 1),
				entries: shape(sm.getEntries(), 2),
				branch: shape(sm.getBranch(), 1),
				sessionName: sm.getSessionName(),
			};
		});
		g.registry = safe(() => {
			const r = ctx.modelRegistry;
			return {
				allHasMock: r.getAll().filter((m: any) => m.provider === "mock").map((m: any) => m.id),
				allItem: shape(r.getAll().find((m: any) => m.provider === "mock"), 1),
				available: shape(r.getAvailable(), 1),
				find: shape(r.find("mock", "mock-model"), 1),
			};
		});
		g.themeKeys = safe(() => Object.keys(ctx.ui.theme));
		g.uiGetters = safe(() => ({
			editorText: ctx.ui.getEditorText(),
			allThemes: shape(ctx.ui.getAllThemes(), 2),
			theme: shape(ctx.ui.getTheme(), 1),
			toolsExpanded: ctx.ui.getToolsExpanded(),
			editorComponent: shape(ctx.ui.getEditorComponent(), 1),
			setTheme: shape(ctx.ui.setTheme("dark"), 1),
		}));
	}
	emit({ rec: "getters", where, g });
}

const EVENTS = [
	"project_trust", "resources_discover", "mcp_servers_change", "session_start", "session_info_changed",
	"session_before_switch", "session_before_fork", "session_before_compact", "session_compact",
	"session_compact_failed", "session_shutdown", "session_before_tree", "session_tree", "context",
	"context_with_system", "cache_warming_decision", "before_provider_request", "before_provider_headers",
	"after_provider_response", "provider_stream_event", "before_agent_start", "agent_start", "agent_end",
	"agent_before_settle", "agent_settled", "ui_prompt_start", "ui_prompt_end", "turn_start", "turn_end",
	"message_start", "message_update", "message_end", "tool_execution_start", "tool_execution_update",
	"tool_execution_end", "model_select", "thinking_level_select", "tool_call", "tool_result", "user_bash", "input",
];

const GETTERS_AT = new Set(["session_start", "turn_end", "agent_end", "model_select", "thinking_level_select",
	"session_compact", "session_info_changed", "before_agent_start"]);

export default function (pi: any) {
	seenCtx = new Set<string>();
	seenSig = new Set<string>();
	emit({ rec: "pi", keys: shape(pi, 1), methods: methods(pi) });
	emit({ rec: "load", flag: safe(() => pi.getFlag("shapes-flag")), onReturns: typeof pi.on("nothing_here", () => {}) });
	pi.registerFlag("shapes-flag", { type: "string", default: "dflt", description: "probe flag" });
	for (const name of EVENTS) {
		pi.on(name, (event: any, ctx: any) => {
			// A streamed message is a live object the reference's parser may
			// have moved on by the time a handler runs: only the event's own
			// keys are compared for it.
			const live = name === "message_update" || (name === "message_start" && event.message && event.message.role === "assistant");
			const view = live ? shape({ ...event, message: undefined, assistantMessageEvent: event.assistantMessageEvent && { ...event.assistantMessageEvent, partial: typeof event.assistantMessageEvent.partial } }, 3) : shape(event, 3);
			const sig = JSON.stringify(view);
			if (DEDUPE.has(name)) {
				// Provider stream events carry the provider's raw chunks: one
				// record of the first is enough.
				const key = name === "provider_stream_event" ? name : name + (event.assistantMessageEvent ? ":" + event.assistantMessageEvent.type : "") + sig;
				if (seenSig.has(key)) return;
				seenSig.add(key);
			}
			const rec: any = { rec: "event", ev: name, keys: Object.keys(event), shape: view, values: values(event) };
			if (name === "message_start" || name === "message_end") rec.role = event.message && event.message.role;
			if (name === "message_update") rec.sub = event.assistantMessageEvent && event.assistantMessageEvent.type;
			emit(rec);
			ctxShape(name, ctx);
			if (GETTERS_AT.has(name)) getters(name, pi, ctx);
			if (name === "project_trust") return { trusted: "undecided" };
			return undefined;
		});
	}
	pi.registerTool({
		name: "shapes_tool",
		label: "Shapes",
		description: "Records the tool context.",
		parameters: { type: "object", properties: { x: { type: "number" } }, required: ["x"] },
		async execute(toolCallId: string, params: any, signal: any, onUpdate: any, ctx: any) {
			emit({ rec: "execute", args: [typeof toolCallId, shape(params, 1), shape(signal, 1), typeof onUpdate] });
			ctxShape("tool", ctx);
			emit({ rec: "toolctx", own: Object.getOwnPropertyNames(ctx), tools: typeof ctx.tools, executeTool: typeof ctx.executeTool,
				toolNames: safe(() => ctx.tools.map((t: any) => t.name).filter((n: string) => !SKIP.has(n))),
				toolItem: safe(() => shape(ctx.tools.find((t: any) => t.name === "shapes_tool"), 2)) });
			getters("tool", pi, ctx);
			onUpdate && onUpdate({ content: [{ type: "text", text: "partial" }], details: { n: 1 } });
			return { content: [{ type: "text", text: "shaped " + params.x }], details: { x: params.x } };
		},
	});
	pi.registerCommand("shapes", {
		description: "Records the command context.",
		handler: async (args: string, ctx: any) => {
			emit({ rec: "command", args });
			ctxShape("command", ctx);
			getters("command", pi, ctx);
			const ok = await ctx.ui.confirm("Shapes?", "Answer me");
			emit({ rec: "confirm", ok });
		},
	});
	pi.registerCommand("shapes-set", {
		description: "Calls the pi setters and records their return values.",
		handler: async (_args: string, ctx: any) => {
			const r: any = {};
			r.setSessionName = shape(pi.setSessionName("shapes session"), 1);
			r.appendEntry = shape(pi.appendEntry("shapes-entry", { a: 1 }), 1);
			r.setActiveTools = shape(pi.setActiveTools(["read", "bash", "shapes_tool"]), 1);
			r.setThinkingLevel = shape(pi.setThinkingLevel("low"), 1);
			const p = pi.setModel(ctx.modelRegistry.find("mock", "mock-model-2"));
			r.setModelPromise = typeof (p && p.then);
			r.setModel = await p;
			r.exec = shape(await pi.exec("echo", ["hi"]), 1);
			r.eventsOn = typeof pi.events.on("shapes", () => {});
			r.eventsEmit = shape(pi.events.emit("shapes", {}), 1);
			emit({ rec: "setters", r });
			getters("shapes-set", pi, ctx);
		},
	});
}
