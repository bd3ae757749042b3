// Package skills discovers Agent Skills (SKILL.md files and standalone
// Markdown skills) in the places the reference looks, validates their
// frontmatter, expands "/skill:name args" into the text the model
// receives, and describes skills for the system prompt (prompts.SkillRef)
// and for get_commands (prompts.CommandInfo).
//
// Discovery never fails: unreadable files, invalid names, missing
// descriptions and name collisions come back as diagnostics with the
// reference's messages.
//
// Discovery is on the start-up path, so it is built to make few system
// calls: each sub-directory of a skills folder is probed for SKILL.md with
// one open instead of being listed, probes run in parallel, only the
// frontmatter is read, real paths come from the directory walk rather than
// a realpath per file, and with Options.Cache (prompts.FileCache) a warm
// start costs one stat per skill. BenchmarkDiscover1000 and
// BenchmarkDiscover1000Warm measure 1,000 skills plus 1,000 templates.
package skills
