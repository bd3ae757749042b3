// @earendil-works/pi-tui for headless pi-go: the components are inert but
// constructible (extensions build them in renderers and subclass them at
// module load), while the pure string and key utilities really work, because
// extensions call them at load time (Key.ctrl("p")) and in logic that also
// runs headless (truncateToWidth, visibleWidth, matchesKey).
"use strict";

const CURSOR_MARKER = "\u001b_pi:c\u0007";

// ---------------------------------------------------------------- text width

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b_[^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

function stripTerminalSequences(text) {
  return String(text).replace(ANSI, "");
}

// isWide approximates East Asian Wide/Fullwidth and emoji ranges, which a
// terminal renders in two columns.
function isWide(cp) {
  return (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0x303e) || (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd);
}

function isZeroWidth(cp) {
  return (cp >= 0x0300 && cp <= 0x036f) || cp === 0x200b || cp === 0x200c || cp === 0x200d || cp === 0xfeff ||
    (cp >= 0xfe00 && cp <= 0xfe0f) || cp < 0x20 || cp === 0x7f;
}

function charWidth(ch) {
  const cp = ch.codePointAt(0);
  if (isZeroWidth(cp)) return 0;
  return isWide(cp) ? 2 : 1;
}

function visibleWidth(text) {
  let w = 0;
  for (const ch of stripTerminalSequences(String(text).replace(/\t/g, "   "))) w += charWidth(ch);
  return w;
}

// tokens splits text into ANSI escape sequences and single characters so
// that cutting by columns never breaks an escape sequence.
function tokens(text) {
  const out = [];
  const s = String(text);
  let last = 0;
  ANSI.lastIndex = 0;
  let m;
  while ((m = ANSI.exec(s)) !== null) {
    for (const ch of s.slice(last, m.index)) out.push({ text: ch, width: charWidth(ch) });
    out.push({ text: m[0], width: 0 });
    last = m.index + m[0].length;
  }
  for (const ch of s.slice(last)) out.push({ text: ch, width: charWidth(ch) });
  return out;
}

function sliceByColumn(text, start, end, strict) {
  let col = 0;
  let out = "";
  const stop = end === undefined ? Infinity : end;
  for (const t of tokens(text)) {
    if (t.width === 0) {
      if (col >= start && col <= stop) out += t.text;
      continue;
    }
    if (col >= start && col + t.width <= stop) out += t.text;
    else if (!strict && col < start && col + t.width > start) out += " ";
    col += t.width;
    if (col >= stop) break;
  }
  return out;
}

function truncateToWidth(text, maxWidth, ellipsis, pad) {
  const tail = ellipsis === undefined ? "..." : ellipsis;
  const s = String(text);
  const width = visibleWidth(s);
  if (width <= maxWidth) return pad ? s + " ".repeat(maxWidth - width) : s;
  const room = Math.max(0, maxWidth - visibleWidth(tail));
  const cut = sliceByColumn(s, 0, room, true);
  const out = cut + "\u001b[0m" + (tail ? tail + "\u001b[0m" : "");
  const outWidth = visibleWidth(out);
  return pad && outWidth < maxWidth ? out + " ".repeat(maxWidth - outWidth) : out;
}

function wrapLine(line, width) {
  if (visibleWidth(line) <= width) return [line];
  const words = line.split(/(\s+)/);
  const out = [];
  let current = "";
  for (const word of words) {
    if (word === "") continue;
    if (visibleWidth(current + word) <= width) {
      current += word;
      continue;
    }
    if (current.trim() !== "") out.push(current.replace(/\s+$/, ""));
    current = /^\s+$/.test(word) ? "" : word;
    while (visibleWidth(current) > width) {
      const head = sliceByColumn(current, 0, width, true);
      out.push(head);
      current = current.slice(head.length);
    }
  }
  if (current !== "" || out.length === 0) out.push(current.replace(/\s+$/, ""));
  return out;
}

function wrapTextWithAnsi(text, width) {
  const w = Math.max(1, width || 1);
  const out = [];
  for (const line of String(text).split("\n")) out.push(...wrapLine(line, w));
  return out;
}

function replaceControlCharacters(text) {
  return String(text).replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "");
}

function hyperlink(text, url) {
  return "\u001b]8;;" + url + "\u0007" + text + "\u001b]8;;\u0007";
}

function renderFakeCursor(text) { return text; }

// ---------------------------------------------------------------- fuzzy

function fuzzyMatch(query, text) {
  const q = String(query).toLowerCase();
  const t = String(text).toLowerCase();
  if (q === "") return { matches: true, score: 0 };
  let qi = 0;
  let score = 0;
  let last = -1;
  for (let i = 0; i < t.length && qi < q.length; i++) {
    if (t[i] === q[qi]) {
      score += last === i - 1 ? 2 : 1;
      if (i === 0) score += 3;
      last = i;
      qi++;
    }
  }
  return { matches: qi === q.length, score: qi === q.length ? score : 0 };
}

function fuzzyFilter(items, query, getText) {
  const text = getText || ((x) => String(x));
  if (!query) return items.slice();
  const scored = [];
  items.forEach((item, index) => {
    const m = fuzzyMatch(query, text(item));
    if (m.matches) scored.push({ item: item, score: m.score, index: index });
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.map((s) => s.item);
}

// ---------------------------------------------------------------- keys

const BASE_KEYS = ["escape", "esc", "enter", "return", "tab", "space", "backspace", "delete", "insert", "clear",
  "home", "end", "pageUp", "pageDown", "up", "down", "left", "right", "f1", "f2", "f3", "f4", "f5", "f6", "f7",
  "f8", "f9", "f10", "f11", "f12", "backtick", "hyphen", "equals", "leftbracket", "rightbracket", "backslash",
  "semicolon", "quote", "comma", "period", "slash", "exclamation", "at", "hash", "dollar", "percent", "caret",
  "ampersand", "asterisk", "leftparen", "rightparen", "underscore", "plus", "pipe", "tilde", "leftbrace",
  "rightbrace", "colon", "lessthan", "greaterthan", "question"];

const MODIFIER_HELPERS = ["ctrl", "shift", "alt", "super", "ctrlShift", "shiftCtrl", "ctrlAlt", "altCtrl", "shiftAlt",
  "altShift", "ctrlSuper", "superCtrl", "shiftSuper", "superShift", "altSuper", "superAlt", "ctrlShiftAlt",
  "ctrlShiftSuper"];

const Key = {};
for (const k of BASE_KEYS) Key[k] = k;
for (const helper of MODIFIER_HELPERS) {
  const prefix = helper.replace(/([A-Z])/g, "+$1").toLowerCase();
  Key[helper] = (key) => prefix + "+" + key;
}

const MODIFIER_ORDER = ["ctrl", "shift", "alt", "super"];

function normalizeKeyId(id) {
  const parts = String(id).toLowerCase().split("+");
  const key = parts.pop();
  const mods = MODIFIER_ORDER.filter((m) => parts.includes(m));
  const aliases = { esc: "escape", return: "enter", pageup: "pageup", pagedown: "pagedown" };
  return mods.concat([aliases[key] || key]).join("+");
}

const SEQUENCES = {
  "\r": "enter", "\n": "enter", "\t": "tab", "\u001b": "escape", "\u007f": "backspace", "\b": "ctrl+h", " ": "space",
  "\u001b[A": "up", "\u001b[B": "down", "\u001b[C": "right", "\u001b[D": "left", "\u001bOA": "up", "\u001bOB": "down",
  "\u001bOC": "right", "\u001bOD": "left", "\u001b[H": "home", "\u001b[F": "end", "\u001b[1~": "home", "\u001b[4~": "end",
  "\u001b[2~": "insert", "\u001b[3~": "delete", "\u001b[5~": "pageUp", "\u001b[6~": "pageDown", "\u001b[Z": "shift+tab",
  "\u001bOP": "f1", "\u001bOQ": "f2", "\u001bOR": "f3", "\u001bOS": "f4", "\u001b\r": "alt+enter",
};

function parseKey(data) {
  const s = String(data);
  if (Object.prototype.hasOwnProperty.call(SEQUENCES, s)) return SEQUENCES[s];
  if (s.length === 1) {
    const c = s.charCodeAt(0);
    if (c >= 1 && c <= 26) return "ctrl+" + String.fromCharCode(c + 96);
    return s;
  }
  if (s.length === 2 && s[0] === "\u001b") {
    const inner = parseKey(s[1]);
    return inner ? "alt+" + inner : undefined;
  }
  return undefined;
}

function matchesKey(data, keyId) {
  const parsed = parseKey(data);
  if (parsed === undefined) return false;
  return normalizeKeyId(parsed) === normalizeKeyId(keyId);
}

function isKeyRelease() { return false; }
function isKeyRepeat() { return false; }
function decodeKittyPrintable() { return undefined; }

// ---------------------------------------------------------------- components

class Component {
  render() { return []; }
  invalidate() {}
  handleInput() {}
}

class Container extends Component {
  constructor() {
    super();
    this.children = [];
  }
  addChild(c) { this.children.push(c); }
  removeChild(c) {
    const i = this.children.indexOf(c);
    if (i >= 0) this.children.splice(i, 1);
  }
  clear() { this.children = []; }
}

class Text extends Component {
  constructor(text, paddingX, paddingY, background) {
    super();
    this.text = text === undefined ? "" : text;
    this.paddingX = paddingX === undefined ? 1 : paddingX;
    this.paddingY = paddingY === undefined ? 1 : paddingY;
    this.background = background;
  }
  setText(text) { this.text = text; }
  setCustomBgFn(fn) { this.background = fn; }
}

class TruncatedText extends Text {}

class Box extends Container {
  constructor(paddingX, paddingY, background) {
    super();
    this.paddingX = paddingX;
    this.paddingY = paddingY;
    this.background = background;
  }
  setBgFn(fn) { this.background = fn; }
}

class Spacer extends Component {
  constructor(lines) { super(); this.lines = lines === undefined ? 1 : lines; }
  setLines(lines) { this.lines = lines; }
}

class Markdown extends Component {
  constructor(text, paddingX, paddingY, theme, defaultStyle) {
    super();
    this.text = text === undefined ? "" : text;
    this.paddingX = paddingX;
    this.paddingY = paddingY;
    this.theme = theme;
    this.defaultStyle = defaultStyle;
  }
  setText(text) { this.text = text; }
}

class Input extends Component {
  constructor() {
    super();
    this.value = "";
    this.focused = false;
    this.onSubmit = undefined;
    this.onEscape = undefined;
  }
  getValue() { return this.value; }
  setValue(v) { this.value = v; }
}

class Editor extends Component {
  constructor(tui, theme, options) {
    super();
    this.tui = tui;
    this.theme = theme;
    this.options = options;
    this.text = "";
    this.focused = false;
    this.disableSubmit = false;
    this.onSubmit = undefined;
    this.onChange = undefined;
  }
  getText() { return this.text; }
  setText(text) { this.text = text; if (typeof this.onChange === "function") this.onChange(text); }
  insertTextAtCursor(text) { this.setText(this.text + text); }
  getExpandedText() { return this.text; }
  addToHistory() {}
  setAutocompleteProvider() {}
  isShowingAutocomplete() { return false; }
  setPaddingX() {}
  getPaddingX() { return 0; }
  setAutocompleteMaxVisible() {}
  getAutocompleteMaxVisible() { return 5; }
}

class SelectList extends Component {
  constructor(items, maxVisible, theme, options) {
    super();
    this.items = items || [];
    this.maxVisible = maxVisible;
    this.theme = theme;
    this.options = options;
    this.selectedIndex = 0;
    this.onSelect = undefined;
    this.onCancel = undefined;
    this.onSelectionChange = undefined;
  }
  setFilter() {}
  setSelectedIndex(i) { this.selectedIndex = i; }
  getSelectedItem() { return this.items[this.selectedIndex]; }
}

class SettingsList extends Component {
  constructor(items, maxVisible, theme, onChange, onCancel, options) {
    super();
    this.items = items || [];
    this.maxVisible = maxVisible;
    this.theme = theme;
    this.onChange = onChange;
    this.onCancel = onCancel;
    this.options = options;
  }
  updateValue(id, value) {
    const item = this.items.find((i) => i.id === id);
    if (item) item.currentValue = value;
  }
}

class Loader extends Text {
  constructor(tui, spinnerColorFn, messageColorFn, message) {
    super(message || "", 1, 0);
    this.message = message;
  }
  start() {}
  stop() {}
  setMessage(message) { this.message = message; }
}

class CancellableLoader extends Loader {
  constructor(...args) {
    super(...args);
    this.onAbort = undefined;
    this.aborted = false;
    this.controller = typeof AbortController === "function" ? new AbortController() : undefined;
    this.signal = this.controller ? this.controller.signal : undefined;
  }
  dispose() {}
}

class Image extends Component {
  constructor(data, mimeType, theme, options) {
    super();
    this.data = data;
    this.mimeType = mimeType;
    this.theme = theme;
    this.options = options;
  }
}

class HStack extends Container {}
class VStack extends Container {}
class ScrollView extends Container {}
class MouseRegion extends Container {}

class KeybindingsManager {
  constructor(definitions, userBindings) {
    this.definitions = definitions || {};
    this.userBindings = userBindings || {};
  }
  matches(data, action) {
    return this.getKeys(action).some((k) => matchesKey(data, k));
  }
  getKeys(action) {
    const user = this.userBindings[action];
    const def = this.definitions[action];
    const keys = user !== undefined ? user : def ? def.defaultKeys : [];
    return Array.isArray(keys) ? keys : [keys];
  }
  getDefinition(action) { return this.definitions[action]; }
  setUserBindings(bindings) { this.userBindings = bindings || {}; }
  getResolvedBindings() {
    const out = {};
    for (const action of Object.keys(this.definitions)) out[action] = this.getKeys(action);
    return out;
  }
}

let keybindings = new KeybindingsManager({}, {});
function getKeybindings() { return keybindings; }
function setKeybindings(k) { keybindings = k; }

function isFocusable(c) { return !!c && typeof c === "object" && "focused" in c; }

class CombinedAutocompleteProvider {
  constructor(commands, basePath) { this.commands = commands || []; this.basePath = basePath; }
  getSuggestions() { return null; }
  applyCompletion(lines, line, col) { return { lines: lines, cursorLine: line, cursorCol: col }; }
}

class StdinBuffer {
  constructor() { this.listeners = {}; }
  process() {}
  on(event, fn) { (this.listeners[event] = this.listeners[event] || []).push(fn); return this; }
  destroy() {}
}

class ProcessTerminal {
  constructor() { this.columns = 80; this.rows = 24; }
  start() {}
  stop() {}
  write() {}
}

// ---------------------------------------------------------------- colours

function clampByte(n) { return Math.max(0, Math.min(255, Math.round(n))); }

function colorToRgb(color) {
  if (typeof color === "object" && color) return color;
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(String(color));
  if (!m) return undefined;
  return { r: parseInt(m[1], 16), g: parseInt(m[2], 16), b: parseInt(m[3], 16) };
}

function colorToHex(color) {
  const c = colorToRgb(color);
  if (!c) return undefined;
  return "#" + [c.r, c.g, c.b].map((v) => (clampByte(v) < 16 ? "0" : "") + clampByte(v).toString(16)).join("");
}

function parseColor(color) { return colorToRgb(color); }
function rgbColor(r, g, b) { return { r: r, g: g, b: b }; }
function indexedColor(index) { return { index: index }; }

function foregroundAnsi(color) {
  const c = colorToRgb(color);
  if (c) return "\u001b[38;2;" + c.r + ";" + c.g + ";" + c.b + "m";
  if (color && typeof color.index === "number") return "\u001b[38;5;" + color.index + "m";
  return "";
}

function backgroundAnsi(color) {
  const c = colorToRgb(color);
  if (c) return "\u001b[48;2;" + c.r + ";" + c.g + ";" + c.b + "m";
  if (color && typeof color.index === "number") return "\u001b[48;5;" + color.index + "m";
  return "";
}

function styleText(text) { return text; }
function styleTextWithAnsi(text) { return text; }

function getCapabilities() { return { images: null, trueColor: false, hyperlinks: false }; }

// ---------------------------------------------------------------- exports

const values = {
  CURSOR_MARKER: CURSOR_MARKER,
  TUI_KEYBINDINGS: {},
  Key: Key,
  Box: Box, CancellableLoader: CancellableLoader, CombinedAutocompleteProvider: CombinedAutocompleteProvider,
  Container: Container, Editor: Editor, HStack: HStack, Image: Image, Input: Input,
  KeybindingsManager: KeybindingsManager, Loader: Loader, Markdown: Markdown, MouseRegion: MouseRegion,
  ProcessTerminal: ProcessTerminal, ScrollView: ScrollView, SelectList: SelectList, SettingsList: SettingsList,
  Spacer: Spacer, StdinBuffer: StdinBuffer, Text: Text, TruncatedText: TruncatedText, VStack: VStack,
  backgroundAnsi: backgroundAnsi, colorToHex: colorToHex, colorToRgb: colorToRgb, decodeKittyPrintable: decodeKittyPrintable,
  foregroundAnsi: foregroundAnsi, fuzzyFilter: fuzzyFilter, fuzzyMatch: fuzzyMatch, getCapabilities: getCapabilities,
  getKeybindings: getKeybindings, hyperlink: hyperlink, indexedColor: indexedColor, isFocusable: isFocusable,
  isKeyRelease: isKeyRelease, isKeyRepeat: isKeyRepeat, matchesKey: matchesKey, parseColor: parseColor,
  parseKey: parseKey, renderFakeCursor: renderFakeCursor, replaceControlCharacters: replaceControlCharacters,
  rgbColor: rgbColor, setKeybindings: setKeybindings, sliceByColumn: sliceByColumn,
  stripTerminalSequences: stripTerminalSequences, styleText: styleText, styleTextWithAnsi: styleTextWithAnsi,
  truncateToWidth: truncateToWidth, visibleWidth: visibleWidth, wrapTextWithAnsi: wrapTextWithAnsi,
};

// Terminal-only helpers: callable, returning nothing useful headless.
const inert = ["TuiAltScreen", "TuiMainScreen", "Marked"];
const noops = ["allocateImageId", "calculateImageRows", "colorToOkhsl", "colorToOklch", "compositeTuiLine",
  "deleteAllKittyImages", "deleteKittyImage", "detectCapabilities", "encodeITerm2", "encodeKitty",
  "formatProgramStatus", "getCellDimensions", "getGifDimensions", "getImageDimensions", "getJpegDimensions",
  "getNativeClipboard", "getOsc8LinkAtColumn", "getPngDimensions", "getSelectPageIndex", "getTerminalColorMode",
  "getWebpDimensions", "imageFallback", "isAppleTerminalSession", "isKittyProtocolActive", "isViewportTUI",
  "mixColors", "okhslColor", "oklabToOkhslLightness", "oklchColor", "parseTerminalColorSchemeReport", "renderImage",
  "renderLatex", "resetCapabilitiesCache", "setCapabilities", "setCapabilityOverrides", "setCellDimensions",
  "setImageTranscoder", "setKittyProtocolActive"];

Object.defineProperty(exports, "__esModule", { value: true });
for (const name of inert) {
  const C = class extends Container {};
  Object.defineProperty(C, "name", { value: name });
  exports[name] = C;
}
for (const name of noops) exports[name] = function () { return undefined; };
for (const name of Object.keys(values)) exports[name] = values[name];
