package prompts

import (
	"strings"
	"testing"
)

// TestFormatSkillsHints checks that each file-read tool gets its own hint
// line and that the rest of the section is the system prompt's.
func TestFormatSkillsHints(t *testing.T) {
	t.Parallel()
	refs := []SkillRef{{Name: "a", Description: "d", Location: "/s/a/SKILL.md"}}
	for _, tc := range []struct{ tool, hint string }{
		{"read", skillsReadHint}, {"", skillsReadHint}, {"bash", skillsBashHint}, {"indirect", skillsIndirectHint},
	} {
		out := FormatSkills(refs, tc.tool)
		lines := strings.Split(out, "\n")
		if len(lines) < 5 || lines[0] != "" || lines[1] != "" || lines[2] != skillsIntro || lines[3] != tc.hint || lines[4] != skillsPathsHint {
			t.Errorf("tool %q: %q", tc.tool, out)
		}
	}
	if out := FormatSkills([]SkillRef{{Name: "h", DisableModelInvocation: true}}, "read"); out != "" {
		t.Errorf("only hidden skills: %q", out)
	}
}
