// The project-resource functions script run by TestSDKResources in pi-go
// and by Node over the reference (sdk_record.mjs) to record
// sdk_resources.golden.
async function run(sdk, dir, fs, log) {
  const j = (v) => JSON.stringify(v);
  const mk = (p, body) => { fs.mkdirSync(require_dirname(p), { recursive: true }); if (body !== undefined) fs.writeFileSync(p, body); };
  function require_dirname(p) { return p.slice(0, p.lastIndexOf("/")); }
  const agent = dir + "/agent";
  mk(agent + "/AGENTS.md", "global rules");
  mk(dir + "/repo/AGENTS.md", "repo rules");
  mk(dir + "/repo/sub/CLAUDE.md", "sub rules");
  fs.mkdirSync(dir + "/repo/sub/deeper", { recursive: true });
  log("context", j(sdk.loadProjectContextFiles({ cwd: dir + "/repo/sub/deeper", agentDir: agent })));
  log("context none", j(sdk.loadProjectContextFiles({ cwd: dir + "/repo", agentDir: dir + "/nowhere" }).map((f) => f.path)));
  fs.mkdirSync(dir + "/plain/.pi", { recursive: true });
  log("trust plain", sdk.hasTrustRequiringProjectResources(dir + "/plain"));
  for (const entry of ["settings.json", "extensions", "skills", "prompts", "themes", "SYSTEM.md", "APPEND_SYSTEM.md", "mcp.json", "sessions"]) {
    const p = dir + "/t-" + entry.replace(/\W/g, "_");
    mk(p + "/.pi/" + entry, "x");
    log("trust", entry, sdk.hasTrustRequiringProjectResources(p));
  }
  mk(dir + "/anc/.agents/skills/s/SKILL.md", "x");
  fs.mkdirSync(dir + "/anc/a/b", { recursive: true });
  log("trust ancestor skills", sdk.hasTrustRequiringProjectResources(dir + "/anc/a/b"));
  // The skills section: the XML listing is the reference's, the prose
  // around it pi-go's own, so only the listing and the frame are compared.
  const skills = [
    { name: "a&b", description: "uses <tags> & \"quotes\" 'x'", filePath: "/s/a/SKILL.md", baseDir: "/s/a", disableModelInvocation: false },
    { name: "hidden", description: "h", filePath: "/s/h/SKILL.md", baseDir: "/s/h", disableModelInvocation: true },
  ];
  for (const tool of [undefined, "read", "bash", "indirect"]) {
    const out = sdk.formatSkillsForPrompt(skills, tool);
    const lines = out.split("\n");
    log("skills", tool, j(out.slice(0, 2)), lines.length, j(lines.slice(lines.indexOf("<available_skills>"))));
  }
  log("skills none", j(sdk.formatSkillsForPrompt([skills[1]])), j(sdk.formatSkillsForPrompt([])));
}
