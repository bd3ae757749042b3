package llm

import "github.com/pi-go/pi/engine"

// ThinkingBudget is the token budget of a thinking level on APIs that
// take one (Anthropic's and Bedrock's Claude): the settings' custom
// budget for the level when set, else the reference's default (minimal
// 1024, low 2048, medium 8192, high 16384). xhigh and max use high's,
// custom or default.
func ThinkingBudget(level engine.ThinkingLevel, custom map[engine.ThinkingLevel]int) int {
	if level == engine.ThinkingXHigh || level == engine.ThinkingMax {
		level = engine.ThinkingHigh
	}
	if b, ok := custom[level]; ok {
		return b
	}
	switch level {
	case engine.ThinkingMinimal:
		return 1024
	case engine.ThinkingLow:
		return 2048
	case engine.ThinkingMedium:
		return 8192
	default:
		return 16384
	}
}

// ClaudeEffort is the adaptive-thinking effort nearest a thinking level,
// for Claude models (on Anthropic's API and Bedrock's) whose
// thinkingLevelMap names none: minimal and low are "low", medium is
// "medium", and high and above are "high".
func ClaudeEffort(level engine.ThinkingLevel) string {
	switch level {
	case engine.ThinkingMinimal, engine.ThinkingLow:
		return "low"
	case engine.ThinkingMedium:
		return "medium"
	default:
		return "high"
	}
}
