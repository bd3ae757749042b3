package prompts

// skillsIndirectHint is the skills section's hint when the model loads a
// skill's file through some tool other than read or bash.
const skillsIndirectHint = "When a task fits a skill's description, load its file."

// FormatSkills is the SDK's formatSkillsForPrompt: the skills section the
// system prompt carries, for an extension that assembles its own prompt.
// fileReadTool names how the model reads a skill's file ("read", "bash",
// or "indirect"); like the reference it starts with a blank line, so it
// can be appended to a prompt, and it is empty when no skill may be
// invoked by the model.
func FormatSkills(skills []SkillRef, fileReadTool string) string {
	var body string
	switch fileReadTool {
	case "", "read":
		body = skillsBody(skills, []string{"read"})
	case "bash":
		body = skillsBody(skills, []string{"bash"})
	default:
		// skillsBody leaves the section out without read or bash; with a
		// tool of the caller's own the hint is the generic one.
		body = skillsBody(skills, []string{"read"})
		if body != "" {
			body = skillsIntro + "\n" + skillsIndirectHint + body[len(skillsIntro)+1+len(skillsReadHint):]
		}
	}
	if body == "" {
		return ""
	}
	return "\n\n" + body
}
