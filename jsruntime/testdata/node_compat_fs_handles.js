// fs odds and ends: string data in an encoding, FileHandle as readFile's
// argument, a FileHandle's read stream and readLines, read without a
// buffer, piping a read stream into a write stream.
const fs = require("fs"); const fsp = fs.promises; const path = require("path"); const os = require("os");
const d = fs.mkdtempSync(path.join(os.tmpdir(), "misc-"));
const out = [];
(async () => {
  fs.writeFileSync(d + "/h", "6869", "hex");
  fs.writeFileSync(d + "/b", "aGVsbG8=", { encoding: "base64" });
  fs.appendFileSync(d + "/b", "21", "hex");
  out.push(fs.readFileSync(d + "/h", "utf8"), fs.readFileSync(d + "/b", "utf8"));
  const fh = await fsp.open(d + "/b");
  out.push(await fsp.readFile(fh, "utf8"));
  await fh.close();
  const fh2 = await fsp.open(d + "/lines", "w+");
  await fh2.writeFile("one\ntwo\nthree\n");
  await fh2.close();
  const fh3 = await fsp.open(d + "/lines");
  const chunks = [];
  await new Promise((res) => fh3.createReadStream({ start: 4 }).on("data", (c) => chunks.push(String(c))).on("close", res));
  out.push(chunks.join("|"), fh3.fd);
  const fd = fs.openSync(d + "/lines", "r");
  out.push(await new Promise((res) => fs.read(fd, (e, n, b) => res([e, n, b.length, b.toString("utf8", 0, 3)]))));
  out.push(fs.readSync(fd, Buffer.alloc(3)));
  fs.closeSync(fd);
  const rs = fs.createReadStream(d + "/lines", { encoding: "utf8", highWaterMark: 5 });
  const ws = fs.createWriteStream(d + "/copy");
  await new Promise((res) => { rs.pipe(ws); ws.on("finish", res); });
  await new Promise((r) => setTimeout(r, 10));
  out.push(JSON.stringify(fs.readFileSync(d + "/copy", "utf8")));
  const fh4 = await fsp.open(d + "/lines");
  const lines = [];
  for await (const l of fh4.readLines()) lines.push(l);
  out.push(lines.join(","));
  fs.rmSync(d, { recursive: true });
  console.log(out.join("\n"));
})().catch((e) => console.log("FAILED", e.stack));
