package engine

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/pi-go/pi/internal/jsonx"
)

// builderUsage and builderCost are the key-by-key builder encodings the
// hand-written appenders replaced; they are the oracle for the bytes.
func builderCost(c Cost) ([]byte, error) {
	return jsonx.NewBuilder().Set("input", c.Input).Set("output", c.Output).Set("cacheRead", c.CacheRead).
		Set("cacheWrite", c.CacheWrite).Set("total", c.Total).Opt("totalFromProvider", c.TotalFromProvider).Bytes()
}

func builderUsage(u Usage) ([]byte, error) {
	cost, err := builderCost(u.Cost)
	if err != nil {
		return nil, err
	}
	o := jsonx.NewBuilder().Set("input", u.Input).Set("output", u.Output).Set("cacheRead", u.CacheRead).Set("cacheWrite", u.CacheWrite)
	if !u.TrailingExtras {
		o.Opt("cacheWrite1h", u.CacheWrite1h).Opt("reasoning", u.Reasoning)
	}
	o.Set("totalTokens", u.TotalTokens).Set("cost", json.RawMessage(cost))
	if u.TrailingExtras {
		o.Opt("cacheWrite1h", u.CacheWrite1h).Opt("reasoning", u.Reasoning)
	}
	return o.Bytes()
}

// TestStreamedRecordAppenders checks the plain-append encoders of the
// streamed records (usage, cost, a delta event, message_update) byte for
// byte against the builder, and that AppendEvent appends exactly
// MarshalEvent's record.
func TestStreamedRecordAppenders(t *testing.T) {
	t.Parallel()
	zero, seven, yes, no := 0, 7, true, false
	usages := []Usage{
		{},
		{Input: 120, Output: 7, CacheRead: 3, CacheWrite: 4, TotalTokens: 134},
		{Input: -1, Reasoning: &zero, CacheWrite1h: &seven, Cost: Cost{Input: 1e-7, Output: 0.1 + 0.2, Total: 1e21}},
		{Reasoning: &seven, TrailingExtras: true, Cost: Cost{CacheRead: 123456.789, TotalFromProvider: &yes}},
		{CacheWrite1h: &zero, TrailingExtras: true, Cost: Cost{Total: -0.5, TotalFromProvider: &no}},
		{Cost: Cost{Input: math.Copysign(0, -1), Output: 5e-324, CacheWrite: math.MaxFloat64}},
	}
	events := []AssistantEvent{
		{Type: AETextDelta, Delta: "x"},
		{Type: AEThinkingDelta, ContentIndex: 3, Delta: "a\"b\\c\n\u2028<&>\x01é😀"},
		{Type: AEToolCallDelta, ContentIndex: 1, Delta: `{"a":`},
		{Type: AETextDelta, Delta: ""},
		{Type: AETextDelta, Delta: "bad \xff utf8"},
	}
	for _, u := range usages {
		want, err := builderUsage(u)
		if err != nil {
			t.Fatal(err)
		}
		got, err := u.AppendJSON([]byte("prefix"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, append([]byte("prefix"), want...)) {
			t.Errorf("Usage.AppendJSON = %s\nwant         prefix%s", got, want)
		}
		for _, ae := range events {
			want, err := jsonx.NewBuilder().Set("type", ae.Type).Set("contentIndex", ae.ContentIndex).Set("delta", ae.Delta).Bytes()
			if err != nil {
				t.Fatal(err)
			}
			got, err := ae.AppendJSON(nil)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("AssistantEvent.AppendJSON = %s\nwant                     %s", got, want)
			}
			ev := MessageUpdate{Usage: u, AssistantMessageEvent: ae}
			usage, _ := builderUsage(u)
			want, err = jsonx.NewBuilder().Set("type", EvMessageUpdate).Set("usage", json.RawMessage(usage)).
				Set("assistantMessageEvent", json.RawMessage(want)).Bytes()
			if err != nil {
				t.Fatal(err)
			}
			got, err = MarshalEvent(ev)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("MarshalEvent = %s\nwant         %s", got, want)
			}
			appended, err := AppendEvent([]byte("{}\n"), ev)
			if err != nil || !bytes.Equal(appended, append([]byte("{}\n"), want...)) {
				t.Errorf("AppendEvent = %s, %v", appended, err)
			}
		}
	}
}

// TestStreamedRecordAppendersRejectNaN checks that a cost that JSON cannot
// hold is an error, and that AppendEvent leaves its buffer as it was.
func TestStreamedRecordAppendersRejectNaN(t *testing.T) {
	t.Parallel()
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		ev := MessageUpdate{Usage: Usage{Cost: Cost{Output: f}}, AssistantMessageEvent: AssistantEvent{Type: AETextDelta, Delta: "x"}}
		if _, err := MarshalEvent(ev); err == nil {
			t.Errorf("MarshalEvent with cost %v: want an error", f)
		}
		buf := []byte("kept\n")
		out, err := AppendEvent(buf, ev)
		if err == nil || string(out) != "kept\n" {
			t.Errorf("AppendEvent with cost %v = %q, %v; want the buffer unchanged and an error", f, out, err)
		}
	}
}
