// A provider this extension registers is the sub-agent's model: found
// through the parent's registry (modelRegistry: ctx.modelRegistry), as
// pi-subagents passes it.
import { readFileSync } from "node:fs";
import { createAgentSession, DefaultResourceLoader, SessionManager, getAgentDir } from "@earendil-works/pi-coding-agent";
export default function (pi) {
  const mock = JSON.parse(readFileSync(getAgentDir() + "/models.json", "utf8")).providers.mock;
  pi.registerProvider("extprov", { baseUrl: mock.baseUrl, apiKey: "ext-key", api: "openai-completions",
    models: [{ id: "ext-model", name: "Ext", contextWindow: 100000, maxTokens: 1000 }] });
  pi.registerCommand("submodels", { handler: async (_args, ctx) => {
    const loader = new DefaultResourceLoader({ cwd: ctx.cwd, agentDir: getAgentDir(), noExtensions: true, noSkills: true, noContextFiles: true });
    await loader.reload();
    const model = ctx.modelRegistry.find("extprov", "ext-model");
    const { session } = await createAgentSession({ cwd: ctx.cwd, agentDir: getAgentDir(), model, modelRegistry: ctx.modelRegistry,
      tools: [], resourceLoader: loader, sessionManager: SessionManager.inMemory(ctx.cwd) });
    await session.prompt("hi");
    console.log("MODELS " + JSON.stringify({ provider: session.model.provider, id: session.model.id, text: session.getLastAssistantText() }));
    session.dispose();
  }});
}
