// node:tty. isatty asks the descriptor itself. A WriteStream on a
// terminal writes through process.stdout/stderr for fds 1 and 2 (which
// the host routes away from the protocol's stdout) and through fs for
// any other terminal fd. A ReadStream cannot be had: stdin belongs to pi
// (its RPC input or its own terminal UI), so the constructor throws.
"use strict";
const net = require("net");

const isatty = (fd) => Number.isInteger(fd) && fd >= 0 && fd <= 2147483647 && __host.isatty(fd);

const initFailed = () => {
  const e = new Error("TTY initialization failed: uv_tty_init returned EINVAL (invalid argument)");
  e.code = "ERR_TTY_INIT_FAILED";
  e.info = { errno: -22, code: "EINVAL", message: "invalid argument", syscall: "uv_tty_init" };
  e.errno = -22; e.syscall = "uv_tty_init"; e.name = "SystemError";
  return e;
};
// checkFd refuses what libuv's uv_tty_init refuses. Descriptors 1 and 2
// are always accepted (libuv takes pipes and sockets too, and ours go
// through process.stdout/stderr); any other must be a terminal.
const checkFd = (fd, write) => {
  if (!Number.isInteger(fd) || fd < 0 || fd > 2147483647) {
    const e = new RangeError('The value of "fd" is out of range. It must be >= 0 && <= 2147483647. Received ' + String(fd));
    e.code = "ERR_OUT_OF_RANGE";
    throw e;
  }
  if (!(write && (fd === 1 || fd === 2)) && !__host.isatty(fd)) throw initFailed();
};

const COLORS_2 = 1, COLORS_16 = 4, COLORS_256 = 8, COLORS_16m = 24;
const TERM_ENVS = { eterm: COLORS_16, cons25: COLORS_16, console: COLORS_16, cygwin: COLORS_16, dtterm: COLORS_16, gnome: COLORS_16, hurd: COLORS_16, jfbterm: COLORS_16, konsole: COLORS_16, kterm: COLORS_16, mlterm: COLORS_16, mosh: COLORS_16m, putty: COLORS_16, st: COLORS_16, "rxvt-unicode-24bit": COLORS_16m, terminator: COLORS_16m, "xterm-kitty": COLORS_16m };
const TERM_RES = [/ansi/, /color/, /linux/, /direct/, /^con[0-9]*x[0-9]/, /^rxvt/, /^screen/, /^xterm/, /^vt100/, /^vt220/];

// getColorDepth decides from the environment as Node does.
function getColorDepth(env = process.env) {
  if (env.FORCE_COLOR !== undefined) {
    switch (env.FORCE_COLOR) {
      case "": case "1": case "true": return COLORS_16;
      case "2": return COLORS_256;
      case "3": return COLORS_16m;
      default: return COLORS_2;
    }
  }
  if (env.NODE_DISABLE_COLORS !== undefined || env.NO_COLOR !== undefined || env.TERM === "dumb") return COLORS_2;
  if (env.TMUX) return COLORS_16m;
  if (env.CI) {
    if ("GITHUB_ACTIONS" in env || "GITEA_ACTIONS" in env) return COLORS_16m;
    if (["APPVEYOR", "BUILDKITE", "CIRCLECI", "DRONE", "GITHUB_ACTIONS", "GITLAB_CI", "TRAVIS"].some((k) => k in env) || env.CI_NAME === "codeship") return COLORS_256;
    return COLORS_2;
  }
  if ("TEAMCITY_VERSION" in env) return /^(9\.(0*[1-9]\d*)\.|\d{2,}\.)/.test(env.TEAMCITY_VERSION) ? COLORS_16 : COLORS_2;
  switch (env.TERM_PROGRAM) {
    case "iTerm.app":
      if (!env.TERM_PROGRAM_VERSION || /^[0-2]\./.test(env.TERM_PROGRAM_VERSION)) return COLORS_256;
      return COLORS_16m;
    case "HyperTerm": case "MacTerm": return COLORS_16m;
    case "Apple_Terminal": return COLORS_256;
  }
  if (env.COLORTERM === "truecolor" || env.COLORTERM === "24bit") return COLORS_16m;
  if (env.TERM) {
    if (/truecolor/.test(env.TERM)) return COLORS_16m;
    if (/^xterm-256/.test(env.TERM)) return COLORS_256;
    const t = env.TERM.toLowerCase();
    if (TERM_ENVS[t]) return TERM_ENVS[t];
    if (TERM_RES.some((re) => re.test(t))) return COLORS_16;
  }
  if (env.COLORTERM) return COLORS_16;
  return COLORS_2;
}

function hasColors(count, env) {
  if (env === undefined && (count === undefined || (typeof count === "object" && count !== null))) { env = count; count = 16; }
  if (typeof count !== "number") { const e = new TypeError('The "count" argument must be of type number.'); e.code = "ERR_INVALID_ARG_TYPE"; throw e; }
  return count <= 2 ** getColorDepth(env);
}

const CSI = "\x1b[";

class WriteStream extends net.Socket {
  constructor(fd) {
    checkFd(fd, true);
    super();
    Object.defineProperty(this, "_fd", { value: fd });
    this._type = "tty";
    this.isTTY = true;
    Object.defineProperty(this, "_out", { value: fd === 1 ? process.stdout : fd === 2 ? process.stderr : null });
    // As in Node, fd, columns and rows are there only on a terminal (a
    // WriteStream over a pipe has none of them).
    const size = __host.winsize(fd);
    if (size) { this.fd = fd; this.columns = size[0]; this.rows = size[1]; }
  }
  write(chunk, enc, cb) {
    if (typeof enc === "function") { cb = enc; enc = undefined; }
    if (this._out) return this._out.write(chunk, enc, cb);
    require("fs").writeSync(this._fd, typeof chunk === "string" ? Buffer.from(chunk, enc || "utf8") : chunk);
    if (cb) queueMicrotask(() => cb(null));
    return true;
  }
  end(chunk, enc, cb) { if (typeof chunk === "function") { cb = chunk; chunk = undefined; } if (chunk !== undefined && chunk !== null) this.write(chunk, enc); if (cb) queueMicrotask(cb); return this; }
  destroy() { return this; }
  getColorDepth(env) { return getColorDepth(env); }
  hasColors(count, env) { return hasColors(count, env); }
  _refreshSize() {
    const old = [this.columns, this.rows];
    const size = __host.winsize(this._fd);
    if (!size) return;
    [this.columns, this.rows] = size;
    if (old[0] !== this.columns || old[1] !== this.rows) this.emit("resize");
  }
  cursorTo(x, y, cb) {
    if (typeof y === "function") { cb = y; y = undefined; }
    return this.write(y === undefined ? CSI + (x + 1) + "G" : CSI + (y + 1) + ";" + (x + 1) + "H", cb);
  }
  moveCursor(dx, dy, cb) {
    let s = "";
    if (dx < 0) s += CSI + -dx + "D"; else if (dx > 0) s += CSI + dx + "C";
    if (dy < 0) s += CSI + -dy + "A"; else if (dy > 0) s += CSI + dy + "B";
    return this.write(s, cb);
  }
  clearLine(dir, cb) { return this.write(dir < 0 ? CSI + "1K" : dir > 0 ? CSI + "0K" : CSI + "2K", cb); }
  clearScreenDown(cb) { return this.write(CSI + "0J", cb); }
  getWindowSize() { return [this.columns, this.rows]; }
}
// The prototype carries isTTY too, as Node's does.
WriteStream.prototype.isTTY = true;

class ReadStream extends net.Socket {
  constructor(fd) {
    checkFd(fd);
    const e = new Error("tty.ReadStream is not supported in extensions by this runtime: the terminal's input belongs to pi");
    e.code = "ERR_NOT_SUPPORTED";
    throw e;
  }
  setRawMode() { return this; }
}

module.exports = { isatty, ReadStream, WriteStream };
