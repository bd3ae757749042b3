// Package prompts builds the system prompt the model receives and loads the
// files that feed it: context files (AGENTS.md, CLAUDE.md), SYSTEM.md and
// APPEND_SYSTEM.md.
//
// The prompt is a list of named sections (engine.Sections) in the order the
// reference uses: preamble, tools, rules, docs, addendum, project_context,
// skills, cwd, then any sections extensions add. Every section except the
// preamble is wrapped in <name>…</name>. The sentences that are ours to
// write (preamble, rules, docs, the intro lines of tools, skills and project
// context) are in our own words; everything a client or the conformance
// harness compares literally (section names and order, tool names, file
// paths and contents, skills, the addendum, the cwd, a custom prompt) is a
// fact and matches the reference exactly.
//
// The package does no discovery of tools or skills: the caller passes the
// active tools and the loaded skills in Options, and honours
// --no-context-files by leaving Options.ContextFiles empty.
package prompts
