// A sub-agent run in process (the SDK's createAgentSession), reporting
// what an extension can observe of it on one line.
import { createAgentSession, DefaultResourceLoader, SessionManager, getAgentDir } from "@earendil-works/pi-coding-agent";
export default function (pi) {
  pi.registerCommand("sub", { handler: async (_args, ctx) => {
    const loader = new DefaultResourceLoader({ cwd: ctx.cwd, agentDir: getAgentDir(), noExtensions: true, noSkills: true,
      noContextFiles: true, noPromptTemplates: true, noThemes: true,
      systemPromptOverride: () => "You are the sub-agent.", appendSystemPromptOverride: () => [] });
    await loader.reload();
    const sessionManager = SessionManager.inMemory(ctx.cwd);
    const { session } = await createAgentSession({ cwd: ctx.cwd, agentDir: getAgentDir(), model: ctx.model, tools: ["read", "grep"],
      resourceLoader: loader, sessionManager });
    session.setSessionName("helper");
    const events = [];
    const unsub = session.subscribe((e) => {
      if (e.type === "message_update") { if (events[events.length - 1] !== "message_update") events.push(e.type); return; }
      events.push(e.type + (e.message ? ":" + e.message.role : ""));
    });
    await session.prompt("hello sub");
    unsub();
    const stats = session.getSessionStats();
    console.log("SUB " + JSON.stringify({
      text: session.getLastAssistantText(), tools: session.getActiveToolNames(), roles: session.messages.map((m) => m.role),
      events, entries: sessionManager.getEntries().map((e) => e.type), name: sessionManager.getSessionName(),
      model: session.model && session.model.id, thinking: session.thinkingLevel,
      prompt: session.systemPrompt.split("\n")[0], extensions: loader.getExtensions().extensions.length,
      stats: { userMessages: stats.userMessages, assistantMessages: stats.assistantMessages, toolCalls: stats.toolCalls, totalMessages: stats.totalMessages },
    }));
    await session.waitForIdle();
    await session.setModel(ctx.model);
    session.setThinkingLevel("off");
    const st = session.state;
    console.log("SUBSTATE " + JSON.stringify({ isIdle: session.isIdle, isStreaming: session.isStreaming, sessionName: session.sessionName,
      sessionFile: session.sessionFile === undefined, sessionId: typeof session.sessionId, pending: session.pendingMessageCount,
      steeringMode: session.steeringMode, followUpMode: session.followUpMode, stateKeys: Object.keys(st).sort(),
      stateRoles: st.messages.map((m) => m.role), entries: sessionManager.getEntries().map((e) => e.type) }));
    session.dispose();
  }});
}
