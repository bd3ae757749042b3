// Prints what the reference's OpenRouter catalog refresh makes of a key's
// GET /models/user answer: node openrouter-personalize.mjs <pi-ai dist>
// <answer.json> > openrouter-personalized.jsonl. TestOpenRouterCatalog
// compares RefreshOpenRouterCatalog's result with it (the catalog models
// the key may use, with its limits and prices, in catalog order).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [dist, answerPath] = process.argv.slice(2);
const answer = readFileSync(answerPath, "utf8");
const { personalizeOpenRouterCatalog, openrouterProvider } = await import(pathToFileURL(`${dist}/providers/openrouter.js`).href);
globalThis.fetch = async () => new Response(answer, { status: 200, headers: { "content-type": "application/json" } });
// The provider's models as the runtime holds them (catalog.json's shape).
const p = openrouterProvider();
const catalog = p.getAllModels?.() ?? p.getModels();
const out = await personalizeOpenRouterCatalog(catalog, {
	credential: { type: "api_key", key: "sk-or-v1-test" },
	signal: new AbortController().signal,
});
// Chat models only: the registry holds no image or classifier models.
for (const m of out) if ((m.type ?? "chat") === "chat") process.stdout.write(JSON.stringify(m) + "\n");
