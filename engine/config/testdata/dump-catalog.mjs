// Prints the reference's built-in chat models as catalog.json: a JSON
// array with one model per line, in the order its registry lists them
// (providers in registration order, each provider's models in catalog
// order), each model serialised exactly as the reference serialises it.
// A second file, catalog_providers.json, gets each provider's id and
// display name. Usage, from engine/config:
//
//   node testdata/dump-catalog.mjs <pi-ai dist dir>
//   go test ./engine/config -run TestCatalogGenerated -update-catalog
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const dist = process.argv[2];
if (!dist) {
	console.error("usage: node testdata/dump-catalog.mjs <.../@earendil-works/pi-ai/dist>");
	process.exit(2);
}
const all = await import(pathToFileURL(join(dist, "providers", "all.js")).href);
const lines = [];
const providers = [];
for (const p of all.builtinProviders()) {
	const models = p.getModels();
	if (models.length === 0) continue;
	providers.push(JSON.stringify({ id: p.id, name: p.name }));
	for (const m of models) lines.push(JSON.stringify(m));
}
writeFileSync("catalog.json", "[\n" + lines.join(",\n") + "\n]\n");
writeFileSync("catalog_providers.json", "[\n" + providers.join(",\n") + "\n]\n");
console.log(`${lines.length} models, ${providers.length} providers`);
