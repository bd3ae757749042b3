// A sub-agent whose DefaultResourceLoader discovers and loads the global
// extensions (an extensionsOverride sees them first), with one extension
// tool in its allowlist.
import { createAgentSession, DefaultResourceLoader, SessionManager, getAgentDir } from "@earendil-works/pi-coding-agent";
const base = (p) => p.split("/").pop();
export default function (pi) {
  pi.registerCommand("subext", { handler: async (_args, ctx) => {
    const seen = [];
    const loader = new DefaultResourceLoader({ cwd: ctx.cwd, agentDir: getAgentDir(), noSkills: true, noContextFiles: true,
      noPromptTemplates: true, noThemes: true, systemPromptOverride: () => "Sub with extensions.",
      extensionsOverride: (b) => { seen.push(...b.extensions.map((e) => base(e.path))); return b; } });
    await loader.reload();
    const exts = loader.getExtensions().extensions.map((e) => [base(e.path), [...e.tools.keys()], [...e.commands.keys()]]);
    const { session } = await createAgentSession({ cwd: ctx.cwd, agentDir: getAgentDir(), model: ctx.model,
      tools: ["read", "helper_tool"], resourceLoader: loader, sessionManager: SessionManager.inMemory(ctx.cwd) });
    await session.prompt("use the helper");
    console.log("SUBEXT " + JSON.stringify({ seen, exts, tools: session.getActiveToolNames(), text: session.getLastAssistantText() }));
    // session_start reaches the sub-agent's extensions only now.
    console.log("BIND");
    await session.bindExtensions({});
    console.log("BOUND");
    session.dispose();
  }});
}
