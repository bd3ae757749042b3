// Records the reference's answers for validate_cases.json (for each case,
// the coerced arguments or the error text its tool-argument validation
// gives) and for validate_formats.json (whether its format checks accept
// each string). Run with Node 22 from engine/:
//
//   node testdata/validate-golden.mjs <…/node_modules/@earendil-works/pi-ai/dist>
//
// and commit testdata/validate_golden.json and validate_formats_golden.json
// (TestValidateToolArgsGolden and TestSchemaFormatsGolden compare ours).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const dist = process.argv[2];
if (!dist) {
	console.error("usage: node testdata/validate-golden.mjs <pi-ai dist directory>");
	process.exit(2);
}
const { validateToolArguments } = await import(pathToFileURL(join(dist, "utils", "validation.js")).href);
const cases = JSON.parse(readFileSync("testdata/validate_cases.json", "utf8"));
const out = [];
for (const c of cases) {
	const tool = { name: c.tool ?? "t", description: "", parameters: c.schema };
	try {
		const value = validateToolArguments(tool, { type: "toolCall", id: "1", name: tool.name, arguments: c.args });
		out.push({ name: c.name, value: JSON.stringify(value) });
	} catch (e) {
		out.push({ name: c.name, error: e.message });
	}
}
writeFileSync("testdata/validate_golden.json", JSON.stringify(out, null, "\t") + "\n");
console.log(`${out.length} cases`);

// pi-schema is pi-ai's sibling package; its formats are what pi-ai passes.
const { formats } = await import(pathToFileURL(join(dist, "..", "..", "pi-schema", "dist", "formats", "index.js")).href);
const inputs = JSON.parse(readFileSync("testdata/validate_formats.json", "utf8"));
const answers = {};
for (const [name, values] of Object.entries(inputs)) {
	answers[name] = values.map((v) => [v, formats[name](v)]);
}
writeFileSync("testdata/validate_formats_golden.json", JSON.stringify(answers, null, "\t") + "\n");
console.log(`${Object.keys(answers).length} formats`);
