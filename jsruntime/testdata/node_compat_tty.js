// tty: isatty on pipes and bad descriptors, WriteStream's refusal of a
// non-terminal fd, color depth from the environment.
const tty = require("tty");
const log = (...a) => console.log(...a);
log("keys", Object.keys(tty).join(","));
log("isatty", tty.isatty(1), tty.isatty(2), tty.isatty(-1), tty.isatty(1.5), tty.isatty("1"), tty.isatty(987654));
const ws = new tty.WriteStream(2);
log("WriteStream on a pipe", ws.isTTY, ws.fd, typeof ws.columns, typeof ws.write, typeof ws.cursorTo, typeof ws.getWindowSize);
const depth = tty.WriteStream.prototype.getColorDepth;
for (const env of [{}, { TERM: "dumb" }, { TERM: "xterm-256color" }, { TERM: "xterm" }, { COLORTERM: "truecolor" }, { FORCE_COLOR: "0" }, { FORCE_COLOR: "1" }, { FORCE_COLOR: "3" }, { NO_COLOR: "1", TERM: "xterm-256color" }, { TMUX: "1" }, { CI: "1" }, { CI: "1", GITHUB_ACTIONS: "1" }, { TERM_PROGRAM: "iTerm.app", TERM_PROGRAM_VERSION: "3.4" }, { TERM: "screen" }, { TERM: "xterm-kitty" }]) {
  log("depth", JSON.stringify(env), depth.call({}, env));
}
const has = tty.WriteStream.prototype.hasColors;
log("hasColors", has.call({}, { TERM: "xterm-256color" }), has.call({}, 256, { TERM: "xterm-256color" }), has.call({}, 257, { TERM: "xterm-256color" }), has.call({}, 2, {}));
log("prototype isTTY", tty.WriteStream.prototype.isTTY, tty.ReadStream.prototype.isTTY);
