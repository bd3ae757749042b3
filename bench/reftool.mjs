// Runs the reference's own grep or find tool once, in-process, the way
// bench/cmd/searchbench runs ours, and prints its text:
//
//   node bench/reftool.mjs DIST grep|find CWD ARGS_JSON
//
// DIST is the reference's dist directory. The tool spawns rg or fd itself,
// so the figure includes what the reference pays for them.
const [, , dist, name, cwd, args] = process.argv;
const tools = await import(`${dist}/core/tools/index.js`);
const tool = name === "grep" ? tools.createGrepTool(cwd) : tools.createFindTool(cwd);
const res = await tool.execute("bench", JSON.parse(args), undefined, undefined);
process.stdout.write(res.content.map((c) => c.text).join("\n") + "\n");
