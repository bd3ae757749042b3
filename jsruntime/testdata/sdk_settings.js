// The SettingsManager script run by TestSDKSettingsManager in pi-go and, to
// record sdk_settings.golden, by Node over the reference package
// (sdk_record.mjs). run(sdk, dir, fs, log) prints what the reference's
// answers are compared on; paths are printed relative to dir.
async function run(sdk, dir, fs, log) {
  const { SettingsManager } = sdk;
  const j = (v) => JSON.stringify(v);
  const rel = (s) => (typeof s === "string" ? s.split(dir).join("<dir>") : s);
  const read = (p) => { try { return fs.readFileSync(p, "utf8"); } catch (e) { return "<" + e.code + ">"; } };
  const agent = dir + "/agent", cwd = dir + "/proj";
  fs.mkdirSync(agent, { recursive: true });
  fs.mkdirSync(cwd + "/.pi", { recursive: true });
  fs.writeFileSync(agent + "/settings.json", JSON.stringify({ zeta: 1, queueMode: "all", retry: { maxDelayMs: 5000, enabled: false },
    compaction: { reserveTokens: 1000, modelOverrides: { "p/m": { keepRecentTokens: 7 } } }, theme: "a/b", defaultTools: ["read", "bash"],
    terminal: { imageWidthCells: 12.7, images: false }, fullscreenWheelScrollLines: 500, cacheWarming: "off", defaultProjectTrust: "never" }, null, 2));
  fs.writeFileSync(cwd + "/.pi/settings.json", "\ufeff" + JSON.stringify({ compaction: { enabled: false }, defaultTools: ["+grep", "-bash"], cacheWarming: "streaming", defaultProjectTrust: "always", outputPad: 0 }));

  const getters = ["getSteeringMode", "getFollowUpMode", "getTheme", "getThemeSetting", "getTransport", "getCompactionEnabled",
    "getCompactionSettings", "getBranchSummarySettings", "getRetrySettings", "getRetryEnabled", "getProviderRetrySettings",
    "getHttpIdleTimeoutMs", "getCacheWarmingMode", "getDefaultProjectTrust", "getDefaultTools", "getImageWidthCells",
    "getTerminalCapabilityOverrides", "getFullscreenWheelScrollLines", "getOutputPad", "getQuietStartup", "getShowImages",
    "getTreeFilterMode", "getDoubleEscapeAction", "getEditorPaddingX", "getAutocompleteMaxVisible", "getCodeBlockIndent",
    "getMermaidRenderingMode", "getWarnings", "getPackages", "getSkillPaths", "getEnabledModels", "getDefaultProvider",
    "getSessionShareDestination", "getTuiMode", "getFullscreenExitOutput", "getFullscreenScrollbar", "getFullscreenCopyOnSelect",
    "getImageAutoResize", "getBlockImages", "getEnableSkillCommands", "getCollapseChangelog", "getEnableInstallTelemetry",
    "getEnableAnalytics", "getHideThinkingBlock", "getShowCacheMissNotices", "getAllModelThinkingLevels", "getBranchSummarySkipPrompt",
    "getWebSocketConnectTimeoutMs", "getShowTerminalProgress", "getSessionDir", "getShellPath", "getNpmCommand"];
  const dump = (label, sm) => {
    log(label, "trusted", sm.isProjectTrusted());
    log(label, "global", j(sm.getGlobalSettings()));
    log(label, "project", j(sm.getProjectSettings()));
    log(label, "merged", j(sm.getSettings()));
    for (const g of getters) {
      let v;
      try { v = j(sm[g]()); } catch (e) { v = "throws " + e.message; }
      log(label, g, v);
    }
    log(label, "model compaction", j(sm.getCompactionSettings({ provider: "p", id: "m" })));
  };

  const sm = SettingsManager.create(cwd, agent);
  dump("file", sm);
  log("errors", j(sm.drainErrors().map((e) => e.error.message)));
  const untrusted = SettingsManager.create(cwd, agent, { projectTrusted: false });
  dump("untrusted", untrusted);
  try { untrusted.setProjectSkillPaths(["x"]); } catch (e) { log("untrusted write", e.message); }
  untrusted.setProjectTrusted(true);
  log("now trusted", j(untrusted.getProjectSettings()));

  // Setters: global and nested fields, then the project layer.
  sm.setSteeringMode("all");
  sm.setCompactionEnabled(true);
  sm.setModelThinkingLevel("p", "m", "high");
  sm.setShowImages(false);
  sm.setImageWidthCells(0.2);
  sm.setEditorPaddingX(9);
  sm.setAutocompleteMaxVisible(1);
  sm.setFullscreenWheelScrollLines(0);
  sm.setExtensionChangelogVersion("ext", "1.2.3");
  sm.setProjectSkillPaths(["skills"]);
  try { sm.setHttpIdleTimeoutMs(-1); } catch (e) { log("bad timeout", e.message); }
  // Another writer changes the file before the queued write lands: its
  // keys survive, the manager's modified ones win.
  const g = JSON.parse(fs.readFileSync(agent + "/settings.json", "utf8"));
  g.external = true;
  fs.writeFileSync(agent + "/settings.json", JSON.stringify(g));
  await sm.flush();
  log("global file", read(agent + "/settings.json"));
  log("project file", read(cwd + "/.pi/settings.json"));
  log("steering", sm.getSteeringMode(), "levels", j(sm.getAllModelThinkingLevels()));
  sm.removeModelThinkingLevel("p", "m");
  await sm.flush();
  log("after remove", j(sm.getGlobalSettings().modelThinkingLevels));
  sm.applyOverrides({ steeringMode: "one-at-a-time", compaction: { keepRecentTokens: 3 } });
  log("overrides", sm.getSteeringMode(), j(sm.getCompactionSettings()));
  await sm.reload();
  log("reloaded", sm.getSteeringMode(), j(sm.getCompactionSettings()));

  // A file that does not parse: an error, empty settings, and no write.
  const bad = dir + "/bad";
  fs.mkdirSync(bad, { recursive: true });
  fs.writeFileSync(bad + "/settings.json", "{ nope");
  const b = SettingsManager.create(dir + "/nowhere", bad);
  log("bad settings", j(b.getGlobalSettings()));
  log("bad errors", j(b.drainErrors().map((e) => ({ scope: e.scope, path: rel(e.path), isError: e.error instanceof Error }))));
  b.setTheme("dark");
  await b.flush();
  log("bad file kept", read(bad + "/settings.json"), "theme", b.getTheme());
  log("no project dir", fs.existsSync(dir + "/nowhere/.pi"));

  // A fresh agent dir: the first write creates the file.
  const fresh = SettingsManager.create(dir + "/p2", dir + "/fresh");
  fresh.setDefaultModelAndProvider("prov", "mod");
  fresh.setEnabledModels(["a*"]);
  await fresh.flush();
  log("fresh file", read(dir + "/fresh/settings.json"));

  // In memory.
  const mem = SettingsManager.inMemory({ queueMode: "all", websockets: true, skills: { customDirectories: ["s"], enableSkillCommands: false } });
  log("mem", j(mem.getSettings()), mem.getSteeringMode(), mem.getTransport(), mem.getEnableSkillCommands());
  mem.setTheme("light");
  await mem.flush();
  log("mem after", j(mem.getGlobalSettings()), j(mem.drainErrors()));
  const memUntrusted = SettingsManager.inMemory({}, { projectTrusted: false });
  log("mem untrusted", memUntrusted.isProjectTrusted());
  memUntrusted.setProjectTrusted(true);
  memUntrusted.setProjectPackages(["npm:x"]);
  await memUntrusted.flush();
  log("mem project", j(memUntrusted.getProjectSettings()), j(memUntrusted.getPackages()));
  const badCompaction = SettingsManager.inMemory({ compaction: { reserveTokens: -1, modelOverrides: { "p/m": 5 } } });
  for (const m of [undefined, { provider: "p", id: "m" }]) {
    try { badCompaction.getCompactionSettings(m); } catch (e) { log("compaction error", e.message); }
  }
  const badTimeout = SettingsManager.inMemory({ httpIdleTimeoutMs: "soon", websocketConnectTimeoutMs: " disabled " });
  try { badTimeout.getHttpIdleTimeoutMs(); } catch (e) { log("timeout error", e.message); }
  log("ws timeout", badTimeout.getWebSocketConnectTimeoutMs());
  log("device id stable", mem.getOrCreateDeviceId() === mem.getOrCreateDeviceId());
}
