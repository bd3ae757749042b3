package jsruntime

import "testing"

func TestSmoke(t *testing.T) {
	h := runTS(t, map[string]string{"ext.ts": `
import { Type } from "@earendil-works/pi-ai";
import * as path from "node:path";
import { readFileSync } from "fs";
export default function (pi: any) {
  console.log("hello", path.join("a", "b"), typeof Type, typeof TextEncoder, typeof fetch, typeof Intl.NumberFormat);
  pi.registerTool({ name: "t1", execute() {} });
  setTimeout(() => console.log("timer"), 5);
  Promise.resolve().then(() => console.log("micro"));
}`})
	h.settle(t)
	t.Logf("loadErrs=%v errs=%v stderr=%q exts=%d", h.loadErrs, h.extErrors(), h.stderr.String(), len(h.rt.Extensions()))
}
