package skills

import (
	"fmt"
	"os"
	"strings"

	"github.com/pi-go/pi/prompts"
)

// Expand turns "/skill:name args" into the block the model receives:
//
//	<skill name="NAME" location="FILE">
//	References are relative to DIR.
//
//	BODY
//	</skill>
//
// followed by a blank line and the trimmed arguments when there are any.
// The name ends at the first space. ok is false when text is not a skill
// command or names no loaded skill (the text is then sent unchanged). A
// skill file that cannot be read or parsed gives the text back unchanged
// with an error; the caller reports it as an extension error with event
// "skill_expansion" and the skill's path.
func Expand(text string, skills []Skill) (expanded string, ok bool, err error) {
	const prefix = "/skill:"
	if !strings.HasPrefix(text, prefix) {
		return text, false, nil
	}
	name, args := text[len(prefix):], ""
	if i := strings.IndexByte(text, ' '); i >= 0 {
		name, args = text[len(prefix):i], prompts.TrimJS(text[i+1:])
	}
	var skill *Skill
	for i := range skills {
		if skills[i].Name == name {
			skill = &skills[i]
			break
		}
	}
	if skill == nil {
		return text, false, nil
	}
	raw, err := os.ReadFile(skill.FilePath)
	if err != nil {
		return text, false, fmt.Errorf("read skill %s: %w", skill.Name, err)
	}
	body, err := prompts.StripFrontmatter(string(raw))
	if err != nil {
		return text, false, fmt.Errorf("skill %s: %w", skill.Name, err)
	}
	var b strings.Builder
	b.WriteString(`<skill name="`)
	b.WriteString(skill.Name)
	b.WriteString(`" location="`)
	b.WriteString(skill.FilePath)
	b.WriteString("\">\nReferences are relative to ")
	b.WriteString(skill.BaseDir)
	b.WriteString(".\n\n")
	b.WriteString(prompts.TrimJS(body))
	b.WriteString("\n</skill>")
	if args != "" {
		b.WriteString("\n\n")
		b.WriteString(args)
	}
	return b.String(), true, nil
}

// ToPromptRefs describes skills for the system prompt's skills section.
func ToPromptRefs(skills []Skill) []prompts.SkillRef {
	out := make([]prompts.SkillRef, 0, len(skills))
	for _, s := range skills {
		out = append(out, prompts.SkillRef{
			Name: s.Name, Description: s.Description, Location: s.FilePath,
			DisableModelInvocation: s.DisableModelInvocation,
		})
	}
	return out
}

// Commands lists skills as get_commands entries named "skill:<name>", in
// load order.
func Commands(skills []Skill) []prompts.CommandInfo {
	out := make([]prompts.CommandInfo, 0, len(skills))
	for _, s := range skills {
		desc := s.Description
		info := s.SourceInfo
		out = append(out, prompts.CommandInfo{
			Name: "skill:" + s.Name, Description: &desc, Source: "skill", SourceInfo: &info,
			Location: prompts.SeedLocation(info.Scope), Path: s.FilePath,
		})
	}
	return out
}
