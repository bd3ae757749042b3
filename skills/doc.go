// Package skills discovers Agent Skills (SKILL.md files and standalone
// Markdown skills) in the places the reference looks, validates their
// frontmatter, expands "/skill:name args" into the text the model
// receives, and describes skills for the system prompt (prompts.SkillRef)
// and for get_commands (prompts.CommandInfo).
//
// Discovery never fails: unreadable files, invalid names, missing
// descriptions and name collisions come back as diagnostics with the
// reference's messages.
package skills
