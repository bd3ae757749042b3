// The headless "system" theme behind ctx.ui.theme (see api.js): the
// reference's theme generated without terminal colours. Loaded as the
// host module pi:internal/theme on the first read of ctx.ui.theme.
"use strict";
const THEME_FG = [
  ["text", ""], ["userMessageText", ""], ["customMessageText", ""], ["toolTitle", ""], ["syntaxOperator", ""],
  ["syntaxPunctuation", ""], ["muted", ""], ["dim", ""], ["thinkingText", ""], ["toolOutput", ""], ["mdLinkUrl", ""],
  ["mdQuote", ""], ["mdQuoteBorder", ""], ["mdHr", ""], ["mdCodeBlockBorder", ""], ["toolDiffContext", ""],
  ["syntaxComment", ""], ["scrollbarTrack", ""], ["scrollbarThumb", ""], ["searchMatchText", ""], ["borderMuted", ""],
  ["accent", 5], ["borderAccent", 5], ["customMessageLabel", 5], ["mdCode", 5], ["mdListBullet", 5], ["syntaxType", 5],
  ["border", 4], ["mdLink", 4], ["syntaxKeyword", 4], ["syntaxVariable", 6], ["success", 2], ["mdCodeBlock", 2],
  ["toolDiffAdded", 2], ["bashMode", 2], ["syntaxNumber", 5], ["error", 1], ["toolDiffRemoved", 1], ["warning", 3],
  ["mdHeading", 3], ["syntaxFunction", 3], ["syntaxString", 2], ["thinkingOff", ""], ["thinkingMinimal", 4],
  ["thinkingLow", 4], ["thinkingMedium", 6], ["thinkingHigh", 5], ["thinkingXhigh", 13], ["thinkingMax", 1],
];
const THEME_BG = ["selectedBg", "searchMatchBg", "userMessageBg", "customMessageBg", "toolPendingBg", "toolSuccessBg", "toolErrorBg"];
const THEME_DIM = ["customMessageText", "syntaxOperator", "syntaxPunctuation", "muted", "dim", "thinkingText", "toolOutput",
  "mdLinkUrl", "mdQuote", "mdQuoteBorder", "mdHr", "mdCodeBlockBorder", "toolDiffContext", "syntaxComment", "scrollbarTrack",
  "scrollbarThumb", "searchMatchText", "borderMuted", "thinkingOff"];
// terminalColorMode follows the reference's capability detection from
// the environment: truecolor hints and terminals known to support it.
function terminalColorMode() {
  const env = (globalThis.process && globalThis.process.env) || {};
  const low = (k) => String(env[k] || "").toLowerCase();
  if (env.PI_TRUE_COLOR === "1") return "truecolor";
  if (env.PI_TRUE_COLOR === "0") return "256color";
  const prog = low("TERM_PROGRAM"), term = low("TERM"), ct = low("COLORTERM");
  const hint = ct === "truecolor" || ct === "24bit" || term.endsWith("-direct");
  if (env.TMUX || term.startsWith("tmux") || term.startsWith("screen") || prog === "herdr") return hint ? "truecolor" : "256color";
  const known = prog === "rex" || (prog === "orca" && env.ORCA_IMAGE_PROTOCOL === "kitty") || env.KITTY_WINDOW_ID || prog === "kitty" ||
    prog === "ghostty" || term.includes("ghostty") || env.GHOSTTY_RESOURCES_DIR || env.WEZTERM_PANE || prog === "wezterm" ||
    prog === "warpterminal" || env.WARP_SESSION_ID || env.WARP_TERMINAL_SESSION_UUID || env.ITERM_SESSION_ID || prog === "iterm.app" ||
    env.WT_SESSION || prog === "alacritty" || term.startsWith("alacritty") || env.ALACRITTY_WINDOW_ID || prog === "vscode" ||
    prog === "zed" || low("TERMINAL_EMULATOR") === "jetbrains-jediterm";
  return known || hint ? "truecolor" : "256color";
}
class Theme {
  constructor() {
    this.name = "system";
    this.sourcePath = undefined;
    this.sourceInfo = undefined;
    this.mode = terminalColorMode();
    this.fgAnsi = new Map();
    this.bgAnsi = new Map();
    this.concreteColors = {};
    this.defaultForegroundTokens = [];
    this.defaultBackgroundTokens = [];
    this.dimTokens = new Set(THEME_DIM);
    this.ownAppearance = "dark";
    this.resolvedColors = undefined;
    for (const [token, index] of THEME_FG) {
      if (index === "") {
        this.defaultForegroundTokens.push(token);
        this.fgAnsi.set(token, "\u001b[39m");
      } else {
        this.concreteColors[token] = { kind: "indexed", index };
        this.fgAnsi.set(token, `\u001b[38;5;${index}m`);
      }
    }
    for (const token of THEME_BG) {
      this.defaultBackgroundTokens.push(token);
      this.bgAnsi.set(token, "\u001b[49m");
    }
  }
  get appearance() { return this.ownAppearance; }
  style(text, options) {
    const { fg, bg } = options;
    if (typeof fg === "string" && this.dimTokens.has(fg)) options = { ...options, dim: true };
    let prefix = "", suffix = "";
    if (fg !== undefined) {
      prefix += typeof fg === "string" ? this.tokenAnsi(this.fgAnsi, fg) : "";
      suffix = "\u001b[39m";
    }
    if (bg !== undefined) {
      prefix += typeof bg === "string" ? this.tokenAnsi(this.bgAnsi, bg) : "";
      suffix = `\u001b[49m${suffix}`;
    }
    if (options.bold) prefix += "\u001b[1m";
    if (options.dim) prefix += "\u001b[2m";
    if (options.bold || options.dim) suffix = `\u001b[22m${suffix}`;
    const sgr = [["italic", 3, 23], ["underline", 4, 24], ["inverse", 7, 27], ["strikethrough", 9, 29]];
    for (const [k, on, off] of sgr) {
      if (options[k]) {
        prefix += `\u001b[${on}m`;
        suffix = `\u001b[${off}m${suffix}`;
      }
    }
    return `${prefix}${text}${suffix}`;
  }
  fg(color, text) {
    const ansi = this.tokenAnsi(this.fgAnsi, color);
    if (this.dimTokens.has(color)) return `${ansi}\u001b[2m${text}\u001b[22;39m`;
    return `${ansi}${text}\u001b[39m`;
  }
  bg(color, text) { return `${this.tokenAnsi(this.bgAnsi, color)}${text}\u001b[49m`; }
  tokenAnsi(ansi, token) {
    const value = ansi.get(token);
    if (value === undefined) throw new Error(`Unknown theme color: ${token}`);
    return value;
  }
  bold(text) { return String(text); }
  italic(text) { return String(text); }
  underline(text) { return String(text); }
  inverse(text) { return String(text); }
  strikethrough(text) { return String(text); }
  getFgAnsi(color) {
    const ansi = this.tokenAnsi(this.fgAnsi, color);
    return this.dimTokens.has(color) ? `${ansi}\u001b[2m` : ansi;
  }
  getBgAnsi(color) { return this.tokenAnsi(this.bgAnsi, color); }
  getColorMode() { return this.mode; }
  getThinkingBorderColor(level) {
    const token = { minimal: "thinkingMinimal", low: "thinkingLow", medium: "thinkingMedium", high: "thinkingHigh",
      xhigh: "thinkingXhigh", max: "thinkingMax" }[level] || "thinkingOff";
    return (str) => this.fg(token, str);
  }
  getBashModeBorderColor() { return (str) => this.fg("bashMode", str); }
}
module.exports = Theme;
