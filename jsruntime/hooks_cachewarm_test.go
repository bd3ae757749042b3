package jsruntime

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/engine"
)

const cacheWarmExt = `export default function (pi) {
  pi.on("cache_warming_decision", (event, ctx) => {
    ctx.ui.notify("first=" + JSON.stringify(event) + " idle=" + ctx.isIdle(), "info");
    return { action: "stop" };
  });
  pi.on("cache_warming_decision", (event) => {
    ctx_seen = event.action;
    if (event.missCost > 1) return { action: "warm" };
    return undefined;
  });
  pi.on("cache_warming_decision", () => { throw new Error("boom"); });
}
var ctx_seen;
`

// TestCacheWarmingDecision checks the hook's event (the reference's keys
// and numbers, as its handler printed them in the recorded run) and that
// the last handler returning an action wins, a throwing one counting for
// nothing.
func TestCacheWarmingDecision(t *testing.T) {
	t.Parallel()
	h := newProviderHarness(t, cacheWarmExt)
	ch, ok := h.api.Hooks().(engine.CacheWarmingHooks)
	require.True(t, ok, "the extension hooks answer cache_warming_decision")
	ev := engine.CacheWarmingDecision{WarmCost: 0.010150000000000001, MissCost: 1.2524, ContinuationProbability: 0.15, Action: "warm"}
	got, err := ch.CacheWarmingDecision(context.Background(), ev)
	require.NoError(t, err)
	require.Equal(t, "warm", got, "the second handler's warm overrides the first's stop")
	require.Equal(t, `{"type":"cache_warming_decision","warmCost":0.010150000000000001,"missCost":1.2524,"continuationProbability":0.15,"action":"warm"} idle=true`, h.notes()["first"])

	ev.MissCost = 0.5
	got, err = ch.CacheWarmingDecision(context.Background(), ev)
	require.NoError(t, err)
	require.Equal(t, "stop", got, "the first handler's stop stands when no later one answers")
}
