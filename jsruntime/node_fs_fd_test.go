package jsruntime

import "testing"

// TestFsStdioDescriptors: descriptors 1 and 2 write to the runtime's
// stderr (never to stdout, the RPC channel), 0 reads as end of input,
// closing them leaves them open, and calls that would change the host's
// own stdio fail with EINVAL.
func TestFsStdioDescriptors(t *testing.T) {
	t.Parallel()
	got := logOf(t, `import * as fs from "node:fs";
export default function () {
  const n = fs.writeSync(2, "to stderr\n") + fs.writeSync(1, Buffer.from("to stdout\n"));
  console.log("wrote", n, "read", fs.readSync(0, Buffer.alloc(4)));
  fs.closeSync(1);
  fs.writeSync(1, "still open\n");
  try { fs.ftruncateSync(2); } catch (e) { console.log(e.code, e.syscall); }
  fs.write(2, "callback\n", (e, k) => console.log("done", e, k));
}
`)
	want := "to stderr\nto stdout\nwrote 20 read 0\nstill open\nEINVAL ftruncate\ncallback\ndone null 9\n"
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}
