package llm

import "github.com/pi-go/pi/engine"

// CalculateCost fills u.Cost from the model's per-million-token prices.
// A model with price tiers is priced whole by the highest tier whose
// threshold the request's input tokens (fresh, cache read and cache
// write) exceed, output included, as the reference bills. The divisions happen before the multiplications, in the reference's
// order, so the float results match it bit for bit. A 1-hour cache write
// is billed at twice the input price.
func CalculateCost(m *engine.Model, u *engine.Usage) {
	if u == nil {
		return
	}
	var rates engine.ModelCost
	if m != nil {
		rates = m.Cost
		in := float64(u.Input + u.CacheRead + u.CacheWrite)
		matched := -1.0
		for _, t := range m.Cost.Tiers {
			if in > t.InputTokensAbove && t.InputTokensAbove > matched {
				rates = engine.ModelCost{Input: t.Input, Output: t.Output, CacheRead: t.CacheRead, CacheWrite: t.CacheWrite}
				matched = t.InputTokensAbove
			}
		}
	}
	long := 0
	if u.CacheWrite1h != nil {
		long = *u.CacheWrite1h
	}
	short := u.CacheWrite - long
	u.Cost.Input = (rates.Input / 1000000) * float64(u.Input)
	u.Cost.Output = (rates.Output / 1000000) * float64(u.Output)
	u.Cost.CacheRead = (rates.CacheRead / 1000000) * float64(u.CacheRead)
	u.Cost.CacheWrite = (rates.CacheWrite*float64(short) + rates.Input*2*float64(long)) / 1000000
	u.Cost.Total = u.Cost.Input + u.Cost.Output + u.Cost.CacheRead + u.Cost.CacheWrite
	f := false
	u.Cost.TotalFromProvider = &f
}
