package llm

import (
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/assert"
)

func TestThinkingBudget(t *testing.T) {
	t.Parallel()
	custom := map[engine.ThinkingLevel]int{engine.ThinkingLow: 500, engine.ThinkingHigh: 30000}
	tests := []struct {
		level  engine.ThinkingLevel
		custom map[engine.ThinkingLevel]int
		want   int
	}{
		{engine.ThinkingMinimal, nil, 1024},
		{engine.ThinkingLow, nil, 2048},
		{engine.ThinkingMedium, nil, 8192},
		{engine.ThinkingHigh, nil, 16384},
		{engine.ThinkingXHigh, nil, 16384},
		{engine.ThinkingMax, nil, 16384},
		{engine.ThinkingLow, custom, 500},
		{engine.ThinkingMedium, custom, 8192},
		{engine.ThinkingMax, custom, 30000},
	}
	for _, tc := range tests {
		t.Run(string(tc.level), func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, ThinkingBudget(tc.level, tc.custom))
		})
	}
}

func TestClaudeEffort(t *testing.T) {
	t.Parallel()
	want := map[engine.ThinkingLevel]string{
		engine.ThinkingMinimal: "low", engine.ThinkingLow: "low", engine.ThinkingMedium: "medium",
		engine.ThinkingHigh: "high", engine.ThinkingXHigh: "high", engine.ThinkingMax: "high",
	}
	for level, effort := range want {
		assert.Equal(t, effort, ClaudeEffort(level), level)
	}
}
