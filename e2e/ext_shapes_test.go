package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestExtensionShapes drives our binary through the shape probe's
// scenario (tools, a user bash, a command with a dialog, the pi setters,
// thinking and model changes, compaction, session name, new session,
// fork) and compares what the probe saw (event payload keys in order and
// value types, ctx, ctx.ui and pi keys, getter results) with what it saw
// in the reference (expected.jsonl, recorded by build.py --record). The
// differences known_gaps.json lists are tolerated; anything else fails.
func TestExtensionShapes(t *testing.T) {
	t.Parallel()
	harness := needHarness(t)
	dir := scenarioDir("shapes")
	var gaps shapeGaps
	readJSONFile(t, filepath.Join(dir, "known_gaps.json"), &gaps)
	want := readShapeRecords(t, filepath.Join(dir, "expected.jsonl"))
	want = gaps.dropEvents(want)

	inTwoRuns(t, "the probe's records", func(t *testing.T) string {
		out := t.TempDir()
		records := filepath.Join(out, "shapes.jsonl")
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		c := exec.CommandContext(ctx, "python3", filepath.Join(harness, "rpcdrive.py"), "--pi", piBin,
			filepath.Join(dir, "shapes.json"), "--out", filepath.Join(out, "rpc.jsonl"),
			"--timeout-scale", "3", "--env", "PI_SHAPES_OUT="+records)
		if log, err := c.CombinedOutput(); err != nil {
			return fmt.Sprintf("rpcdrive: %v\n%s", err, log)
		}
		return strings.Join(compareShapeRecords(want, readShapeRecords(t, records), gaps), "\n")
	})
}

// shapeRecord is one probe record with its keys in order.
type shapeRecord struct {
	sig string
	val *orderedValue
}

// shapeGaps is known_gaps.json.
type shapeGaps struct {
	Events map[string]string `json:"events"`
	Paths  []struct {
		Record string `json:"record"`
		Path   string `json:"path"`
		Why    string `json:"why"`
	} `json:"paths"`
}

// dropEvents removes the records of events we do not emit: the event
// itself and the ctx record of its first dispatch.
func (g shapeGaps) dropEvents(recs []shapeRecord) []shapeRecord {
	var out []shapeRecord
	for _, r := range recs {
		rec, _ := r.val.get("rec").scalar.(string)
		ev, _ := r.val.get("ev").scalar.(string)
		where, _ := r.val.get("where").scalar.(string)
		if _, gone := g.Events[ev]; gone && rec == "event" {
			continue
		}
		if _, gone := g.Events[where]; gone && rec == "ctx" {
			continue
		}
		out = append(out, r)
	}
	return out
}

// tolerated reports whether a difference at p in record sig is a known gap.
func (g shapeGaps) tolerated(sig, p string) bool {
	for _, k := range g.Paths {
		if k.Record != "" {
			if ok, _ := path.Match(k.Record, sig); !ok {
				continue
			}
		}
		if pathUnder(p, k.Path) {
			return true
		}
	}
	return false
}

// pathUnder reports whether p is pattern or lies under it; a "*" segment
// of pattern matches any one segment.
func pathUnder(p, pattern string) bool {
	ps, qs := strings.Split(p, "."), strings.Split(pattern, ".")
	if len(ps) < len(qs) {
		return false
	}
	for i, q := range qs {
		if q != "*" && q != ps[i] {
			return false
		}
	}
	return true
}

// compareShapeRecords lists the differences between the expected records
// and ours that are not known gaps: the record sequence first, then each
// record's keys, their order and values.
func compareShapeRecords(want, got []shapeRecord, gaps shapeGaps) []string {
	var diffs []string
	n := min(len(want), len(got))
	for i := 0; i < n; i++ {
		if want[i].sig != got[i].sig {
			return append(diffs, fmt.Sprintf("record #%d: reference has %s, ours %s (records from here on are not compared)", i, want[i].sig, got[i].sig))
		}
		for _, d := range diffOrdered(want[i].val, got[i].val, "") {
			if !gaps.tolerated(want[i].sig, d.path) {
				diffs = append(diffs, fmt.Sprintf("record #%d %s: %s", i, want[i].sig, d.text))
			}
		}
	}
	if len(want) != len(got) {
		diffs = append(diffs, fmt.Sprintf("reference has %d records, ours %d", len(want), len(got)))
	}
	return diffs
}

type shapeDiff struct{ path, text string }

// diffOrdered compares two values; objects must have the same keys in
// the same order.
func diffOrdered(a, b *orderedValue, at string) []shapeDiff {
	join := func(k string) string {
		if at == "" {
			return k
		}
		return at + "." + k
	}
	switch {
	case a.isObject && b.isObject:
		var out []shapeDiff
		if strings.Join(a.keys, ",") != strings.Join(b.keys, ",") {
			out = append(out, shapeDiff{at, fmt.Sprintf("%s: keys %v, ours %v", at, a.keys, b.keys)})
		}
		for i, k := range a.keys {
			if w := b.get(k); w != nil {
				out = append(out, diffOrdered(a.vals[i], w, join(k))...)
			}
		}
		return out
	case a.isArray && b.isArray:
		if len(a.items) != len(b.items) {
			return []shapeDiff{{at, fmt.Sprintf("%s: %d items, ours %d", at, len(a.items), len(b.items))}}
		}
		var out []shapeDiff
		for i := range a.items {
			out = append(out, diffOrdered(a.items[i], b.items[i], join(fmt.Sprint(i)))...)
		}
		return out
	}
	x, y := a.String(), b.String()
	if x != y {
		return []shapeDiff{{at, fmt.Sprintf("%s: reference %s, ours %s", at, clip(x), clip(y))}}
	}
	return nil
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

func readJSONFile(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// readShapeRecords reads the probe's JSONL output.
func readShapeRecords(t *testing.T, name string) []shapeRecord {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var out []shapeRecord
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		v, err := decodeShapeValue(json.NewDecoder(bytes.NewReader(line)))
		if err != nil {
			t.Fatalf("%s: %v in %s", name, err, line)
		}
		var parts []string
		for _, k := range []string{"rec", "ev", "where", "role", "sub"} {
			if s, _ := v.get(k).scalar.(string); s != "" {
				parts = append(parts, s)
			}
		}
		out = append(out, shapeRecord{sig: strings.Join(parts, "/"), val: v})
	}
	return out
}

// orderedValue is a decoded JSON value that keeps object key order.
type orderedValue struct {
	isObject, isArray bool
	keys              []string
	vals              []*orderedValue
	items             []*orderedValue
	scalar            any
}

// get returns an object's value for key (a null value when absent).
func (v *orderedValue) get(key string) *orderedValue {
	if v != nil && v.isObject {
		for i, k := range v.keys {
			if k == key {
				return v.vals[i]
			}
		}
	}
	return &orderedValue{}
}

func (v *orderedValue) String() string {
	b, _ := json.Marshal(v.scalar)
	switch {
	case v.isObject:
		return fmt.Sprintf("object%v", v.keys)
	case v.isArray:
		return fmt.Sprintf("array(%d)", len(v.items))
	}
	return string(b)
}

func decodeShapeValue(d *json.Decoder) (*orderedValue, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		v := &orderedValue{isObject: true}
		for d.More() {
			kt, err := d.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			val, err := decodeShapeValue(d)
			if err != nil {
				return nil, err
			}
			v.keys = append(v.keys, k)
			v.vals = append(v.vals, val)
		}
		_, err := d.Token()
		return v, err
	case json.Delim('['):
		v := &orderedValue{isArray: true}
		for d.More() {
			item, err := decodeShapeValue(d)
			if err != nil {
				return nil, err
			}
			v.items = append(v.items, item)
		}
		_, err := d.Token()
		return v, err
	}
	if tok == nil {
		return &orderedValue{}, nil
	}
	if _, ok := tok.(json.Delim); ok {
		return nil, io.ErrUnexpectedEOF
	}
	return &orderedValue{scalar: tok}, nil
}
