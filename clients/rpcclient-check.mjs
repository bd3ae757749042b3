// Drives a pi binary through a whole RPC session with the reference's own
// RpcClient (npm @earendil-works/pi-coding-agent), against the conformance
// mock LLM, and asserts every step. See clients/README.md.
//
//   node clients/rpcclient-check.mjs /path/to/pi            # our binary
//   node clients/rpcclient-check.mjs "node /x/dist/bundle/cli.js"   # the reference
//
// Environment: PI_BIN (instead of the argument), PI_REFERENCE_PKG (the
// installed package folder; default under PI_REF_DIR as install-reference.sh
// uses it), PI_CONFORMANCE_DIR (mockllm.py, pihome.py),
// PYTHON (python3), PI_KEEP_WORK=1 (keep the temp folder with the mock's
// request log). Exit status 0 when every step passed.

import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve, isAbsolute } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const home = process.env.HOME ?? "/root";
const refPkg =
	process.env.PI_REFERENCE_PKG ??
	join(process.env.PI_REF_DIR ?? join(home, ".cache/pi-reference"), "pi/node_modules/@earendil-works/pi-coding-agent");
const confDir = process.env.PI_CONFORMANCE_DIR ?? resolve(here, "../../shared/conformance");
const python = process.env.PYTHON ?? "python3";

let piCmd = process.argv[2] ?? process.env.PI_BIN;
if (!piCmd) {
	console.error("usage: node clients/rpcclient-check.mjs <pi command line>   (or set PI_BIN)");
	process.exit(2);
}
// Make a relative binary path absolute: pi runs in a temp project folder.
{
	const [first, ...rest] = piCmd.split(" ");
	if (!isAbsolute(first) && existsSync(first)) piCmd = [resolve(first), ...rest].join(" ");
}

const { RpcClient } = await import(pathToFileURL(join(refPkg, "dist/index.js")).href);

const work = mkdtempSync(join(tmpdir(), "pi-rpcclient-"));
const failures = [];
let mock;

function log(...a) {
	console.log(...a);
}

async function step(name, fn) {
	try {
		const detail = await fn();
		log(`PASS ${name}${detail ? `: ${detail}` : ""}`);
	} catch (err) {
		failures.push(name);
		log(`FAIL ${name}: ${err?.stack ?? err}`);
	}
}

function assert(cond, msg) {
	if (!cond) throw new Error(msg);
}

function eq(actual, expected, what) {
	assert(
		JSON.stringify(actual) === JSON.stringify(expected),
		`${what}: got ${JSON.stringify(actual)}, want ${JSON.stringify(expected)}`,
	);
}

// The mock plays the model from a script: one turn per LLM request, in order.
const turns = [
	{ text: "Hello from mock." },
	{ tool_calls: [{ name: "bash", arguments: { command: "echo tool-ran" } }] },
	{ text: "The tool printed tool-ran." },
	// Compaction summary calls: keepRecentTokens 10 splits the last turn, so
	// the reference makes two (history + turn prefix) and merges them.
	{ text: "## Goal\nCheck the RPC client.\n\n## Progress\nTool ran." },
	{ text: "## Goal\nCheck the RPC client.\n\n## Progress\nTurn prefix." },
	{ text: "Answer in the fork." },
	{ text: "Answer in the new session." },
];

async function startMock() {
	const script = join(work, "script.json");
	const portFile = join(work, "port");
	writeFileSync(script, JSON.stringify({ turns, fallback_text: "Mock script exhausted." }));
	mock = spawn(python, [join(confDir, "mockllm.py"), "--script", script, "--log", join(work, "requests.jsonl"), "--port-file", portFile], {
		stdio: ["ignore", "ignore", "inherit"],
	});
	for (let i = 0; i < 200 && !existsSync(portFile); i++) await new Promise((r) => setTimeout(r, 25));
	const port = readFileSync(portFile, "utf8").trim();
	assert(/^\d+$/.test(port), `mock port: ${port}`);
	return port;
}

// makeHome builds a throwaway agent home pointing at the mock, with a
// small keepRecentTokens so a short session has something to compact.
function makeHome(port) {
	const out = execFileSync(python, [
		join(confDir, "pihome.py"), "--port", port, "--dir", join(work, "home"),
		"--settings", JSON.stringify({ compaction: { keepRecentTokens: 10 } }),
	], { encoding: "utf8" });
	const homeDir = out.split("\n").find((l) => l.startsWith("HOME=")).slice(5);
	return {
		PATH: process.env.PATH,
		HOME: homeDir,
		LANG: "C.UTF-8",
		NO_COLOR: "1",
		PI_OFFLINE: "1",
		PI_SKIP_VERSION_CHECK: "1",
		PI_TELEMETRY: "0",
		TERM: "dumb",
		TMPDIR: join(work, "tmp"),
	};
}

// RpcClient always spawns `node <cliPath> --mode rpc ...`. A `node` shim
// first on PATH replaces that with the command under test, so the client
// itself runs unchanged.
function makeShim() {
	const dir = join(work, "shim");
	mkdirSync(dir);
	const shim = join(dir, "node");
	writeFileSync(shim, `#!/bin/sh\n# $1 is RpcClient's cliPath; drop it.\nshift\nexec ${piCmd} "$@"\n`);
	chmodSync(shim, 0o755);
	return dir;
}

async function main() {
	const port = await startMock();
	const env = makeHome(port);
	mkdirSync(env.TMPDIR, { recursive: true });
	const proj = join(work, "proj");
	mkdirSync(proj);
	env.PATH = `${makeShim()}:${env.PATH}`;

	const client = new RpcClient({
		cliPath: "rpcclient-check",
		cwd: proj,
		env,
		provider: "mock",
		model: "mock-model",
	});
	const events = [];
	client.onEvent((e) => events.push(e));
	await client.start();
	let firstSession;
	try {
		await step("get_state", async () => {
			const s = await client.getState();
			eq(s.model?.id, "mock-model", "model.id");
			eq(s.isStreaming, false, "isStreaming");
			assert(typeof s.sessionId === "string" && s.sessionId.length > 0, "sessionId");
			firstSession = s;
			return `session ${s.sessionId}`;
		});

		await step("prompt", async () => {
			const evs = await client.promptAndWait("hello", undefined, 20000);
			const end = evs.filter((e) => e.type === "message_end" && e.message.role === "assistant").at(-1);
			assert(end, "no assistant message_end");
			eq(end.message.content.map((c) => c.text).join(""), "Hello from mock.", "assistant text");
			assert(evs.some((e) => e.type === "message_update" && e.assistantMessageEvent.type === "text_delta"), "no text_delta");
			eq(evs.at(-1).type, "agent_settled", "last event");
			eq(await client.getLastAssistantText(), "Hello from mock.", "get_last_assistant_text");
			return `${evs.length} events`;
		});

		await step("tool call", async () => {
			const evs = await client.promptAndWait("please run the tool", undefined, 20000);
			const start = evs.find((e) => e.type === "tool_execution_start");
			const end = evs.find((e) => e.type === "tool_execution_end");
			assert(start && end, "no tool_execution_start/end");
			eq(start.toolName, "bash", "toolName");
			eq(end.isError, false, "isError");
			const out = end.result.content.map((c) => c.text).join("");
			assert(out.includes("tool-ran"), `tool output ${JSON.stringify(out)}`);
			eq(await client.getLastAssistantText(), "The tool printed tool-ran.", "final text");
			return `tool output ${JSON.stringify(out)}`;
		});

		await step("bash", async () => {
			const r = await client.bash("echo direct-bash");
			eq(r.output, "direct-bash\n", "output");
			eq(r.exitCode, 0, "exitCode");
			eq(r.cancelled, false, "cancelled");
			const msgs = await client.getMessages();
			assert(msgs.some((m) => m.role === "bashExecution" && m.command === "echo direct-bash"), "no bashExecution message");
			return `${msgs.length} messages`;
		});

		await step("session stats", async () => {
			const st = await client.getSessionStats();
			eq(st.userMessages, 2, "userMessages");
			eq(st.toolCalls, 1, "toolCalls");
			assert(typeof st.sessionFile === "string", "sessionFile");
			return `${st.totalMessages} messages, ${st.tokens.total} tokens`;
		});

		await step("compact", async () => {
			const r = await client.compact();
			assert(r.summary.includes("Check the RPC client."), `summary ${JSON.stringify(r.summary)}`);
			assert(typeof r.firstKeptEntryId === "string", "firstKeptEntryId");
			assert(r.tokensBefore > 0, "tokensBefore");
			const { entries } = await client.getEntries();
			assert(entries.some((e) => e.type === "compaction"), "no compaction entry");
			assert(events.some((e) => e.type === "compaction_end" && e.reason === "manual"), "no compaction_end event");
			return `tokensBefore ${r.tokensBefore}`;
		});

		await step("export_html", async () => {
			const r = await client.exportHtml();
			assert(/^pi-session-.*\.html$/.test(r.path), `path ${r.path}`);
			// Only the file's existence and kind are checked: the reference embeds
			// the session base64-encoded, ours renders it as HTML.
			const html = readFileSync(join(proj, r.path), "utf8");
			assert(/^<!DOCTYPE html>/i.test(html), "not an HTML document");
			return `${r.path} (${html.length} bytes)`;
		});

		await step("fork", async () => {
			const forkable = await client.getForkMessages();
			eq(forkable.map((m) => m.text), ["hello", "please run the tool"], "fork messages");
			const r = await client.fork(forkable[1].entryId);
			eq(r, { text: "please run the tool", cancelled: false }, "fork result");
			const s = await client.getState();
			assert(s.sessionId !== firstSession.sessionId, "fork kept the session id");
			const evs = await client.promptAndWait("in the fork", undefined, 20000);
			// Which scripted turn answers depends on how many summary calls the
			// compaction made, so any reply will do here.
			const answer = await client.getLastAssistantText();
			assert(typeof answer === "string" && answer.length > 0, "no answer in the fork");
			const msgs = await client.getMessages();
			assert(msgs.some((m) => m.role === "user" && JSON.stringify(m.content).includes("hello")), "fork lost history");
			assert(!msgs.some((m) => m.role === "user" && JSON.stringify(m.content).includes("please run the tool")), "fork kept the forked message");
			return `${evs.length} events, ${msgs.length} messages`;
		});

		await step("new session", async () => {
			const before = await client.getState();
			const r = await client.newSession();
			eq(r, { cancelled: false }, "new_session result");
			const s = await client.getState();
			assert(s.sessionId !== before.sessionId, "same session id");
			eq(s.messageCount, 0, "messageCount");
			await client.promptAndWait("fresh start", undefined, 20000);
			const answer = await client.getLastAssistantText();
			assert(typeof answer === "string" && answer.length > 0, "no answer in the new session");
			const msgs = await client.getMessages();
			assert(!msgs.some((m) => m.role === "user" && JSON.stringify(m.content).includes("hello")), "new session kept history");
			return s.sessionId;
		});
	} finally {
		await client.stop();
	}
	const stderr = client.getStderr();
	if (stderr.trim()) log(`(pi stderr: ${stderr.trim().split("\n").length} lines)`);
}

try {
	await main();
} catch (err) {
	failures.push("setup");
	log(`FAIL setup: ${err?.stack ?? err}`);
} finally {
	mock?.kill();
	if (!process.env.PI_KEEP_WORK) rmSync(work, { recursive: true, force: true });
	else log(`work folder kept: ${work}`);
}
log(failures.length ? `${failures.length} step(s) failed: ${failures.join(", ")}` : "all steps passed");
process.exit(failures.length ? 1 : 0);
