package prompts

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/pi-go/pi/docs"
	"github.com/pi-go/pi/engine"
)

// Section names, in the order they appear in the prompt.
const (
	SectionPreamble       = "preamble"
	SectionTools          = "tools"
	SectionRules          = "rules"
	SectionDocs           = "docs"
	SectionAddendum       = "addendum"
	SectionProjectContext = "project_context"
	SectionSkills         = "skills"
	SectionCwd            = "cwd"
)

// ContextFile is one loaded AGENTS.md or CLAUDE.md: its absolute path and
// its content with any UTF-8 byte order mark removed.
type ContextFile struct {
	Path    string
	Content string
}

// SkillRef is a skill as the prompt lists it. Location is the absolute path
// of the skill's file. Skills with DisableModelInvocation set are left out
// of the prompt (they can still be invoked by /skill:name).
type SkillRef struct {
	Name                   string
	Description            string
	Location               string
	DisableModelInvocation bool
}

// Options is everything the system prompt is built from.
type Options struct {
	// Cwd is the session's working directory, shown in the <cwd> section.
	Cwd string
	// AgentDir is the global agent directory (~/.pi/agent). Build does not
	// read it; it is carried for callers that build Options in one place.
	AgentDir string
	// DocsRoot is the directory holding our documentation: docs.Index and
	// docs.Pages (see docs.Extract). The <docs> section points there;
	// empty leaves the section out.
	DocsRoot string
	// Tools are the active tools, in order.
	Tools []engine.ToolInfo
	// CustomPrompt (from --system-prompt or SYSTEM.md) replaces the
	// preamble and drops the tools, rules and docs sections.
	CustomPrompt string
	// Append holds the --append-system-prompt values (or APPEND_SYSTEM.md);
	// they are joined by blank lines into the <addendum> section.
	Append []string
	// ContextFiles are rendered in <project_context>, in order.
	ContextFiles []ContextFile
	// Skills are rendered in <skills> when read or bash is active.
	Skills []SkillRef
	// NoContextFiles drops ContextFiles (--no-context-files / -nc).
	NoContextFiles bool
	// Guidelines are extra rules from extensions, added after the tools'
	// own guidelines.
	Guidelines []string
	// Extra are sections added by extensions. A name that is already
	// present replaces that section in place; a new name is appended.
	// Empty values and invalid names (see ValidateSectionName) are skipped.
	Extra []engine.Section
}

// Our own wording for the prose parts of the prompt. The conformance
// harness reduces these to a skeleton, so only their placement matters.
const (
	preambleText = "You are a coding assistant working inside pi, an agent harness for software work. " +
		"You help the user by reading files, running commands and changing code."
	noToolsText     = "(none)"
	moreToolsText   = "Other tools may also be available."
	shellRuleBash   = "Prefer bash for file operations such as ls, rg and find"
	shellRulePS     = "Prefer PowerShell for file operations such as listing, searching and finding files"
	shellRuleBoth   = "Prefer bash or PowerShell for file operations such as listing, searching and finding files"
	conciseRule     = "Keep your answers short and to the point"
	pathsRule       = "Name file paths explicitly whenever you work with files"
	projectIntro    = "Instructions and guidelines that apply to this project:"
	skillsIntro     = "Skills below hold specialised instructions for particular kinds of task."
	skillsReadHint  = "When a task fits a skill's description, load its file with the read tool."
	skillsBashHint  = "When a task fits a skill's description, load its file using bash."
	skillsPathsHint = "Relative paths inside a skill are relative to its directory (the folder holding SKILL.md); pass absolute paths to tools."
)

var sectionNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9_-]*$`) })

// ValidateSectionName reports whether an extension may use name as a
// prompt section. The error text is the reference's.
func ValidateSectionName(name string) error {
	if !sectionNameRE().MatchString(name) || name == SectionPreamble {
		return fmt.Errorf("Invalid system prompt section name: %s", name)
	}
	return nil
}

// Build returns the prompt's sections in order. Every section but the
// preamble is wrapped as "<name>\n…\n</name>".
func Build(o Options) engine.Sections {
	var raw []engine.Section
	add := func(name, text string) {
		for i := range raw {
			if raw[i].Name == name {
				raw[i].Value = &text
				return
			}
		}
		raw = append(raw, engine.Section{Name: name, Value: &text})
	}

	names := make([]string, 0, len(o.Tools))
	for _, t := range o.Tools {
		names = append(names, t.Name)
	}

	if o.CustomPrompt != "" {
		add(SectionPreamble, o.CustomPrompt)
	} else {
		add(SectionPreamble, preambleText)
		add(SectionTools, toolsBody(o.Tools))
		add(SectionRules, rulesBody(names, o.Tools, o.Guidelines))
		if o.DocsRoot != "" {
			add(SectionDocs, docsBody(o.DocsRoot))
		}
	}
	if s := strings.Join(o.Append, "\n\n"); s != "" {
		add(SectionAddendum, s)
	}
	if !o.NoContextFiles && len(o.ContextFiles) > 0 {
		add(SectionProjectContext, projectContextBody(o.ContextFiles))
	}
	if s := skillsBody(o.Skills, names); s != "" {
		add(SectionSkills, s)
	}
	add(SectionCwd, strings.ReplaceAll(o.Cwd, `\`, "/"))
	for _, sec := range o.Extra {
		if sec.Value == nil || *sec.Value == "" || ValidateSectionName(sec.Name) != nil {
			continue
		}
		add(sec.Name, *sec.Value)
	}

	out := make(engine.Sections, 0, len(raw))
	for _, sec := range raw {
		text := *sec.Value
		if sec.Name != SectionPreamble {
			text = "<" + sec.Name + ">\n" + text + "\n</" + sec.Name + ">"
		}
		out = append(out, engine.Section{Name: sec.Name, Value: &text})
	}
	return out
}

// Join renders sections as the provider receives them: the non-empty
// values joined by blank lines. Deleted (nil) sections are skipped.
func Join(s engine.Sections) string {
	parts := make([]string, 0, len(s))
	for _, sec := range s {
		if sec.Value != nil && *sec.Value != "" {
			parts = append(parts, *sec.Value)
		}
	}
	return strings.Join(parts, "\n\n")
}

// Diff returns the patch that turns prev into cur: changed or new sections
// with their new text (in cur's order), then removed sections with a nil
// value. It returns nil when nothing changed.
func Diff(prev, cur engine.Sections) engine.Sections {
	var patch engine.Sections
	for _, sec := range cur {
		if sec.Value == nil {
			continue
		}
		if old, ok := prev.Get(sec.Name); !ok || old != *sec.Value {
			patch = append(patch, sec)
		}
	}
	for _, sec := range prev {
		if sec.Value == nil {
			continue
		}
		if _, ok := cur.Get(sec.Name); !ok {
			patch = append(patch, engine.Section{Name: sec.Name})
		}
	}
	return patch
}

// oneLine folds a snippet onto a single line, as the tool list needs.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func toolsBody(tools []engine.ToolInfo) string {
	var lines []string
	for _, t := range tools {
		if s := oneLine(t.PromptSnippet); s != "" {
			lines = append(lines, "- "+t.Name+": "+s)
		}
	}
	list := noToolsText
	if len(lines) > 0 {
		list = strings.Join(lines, "\n")
	}
	return list + "\n\n" + moreToolsText
}

func rulesBody(names []string, tools []engine.ToolInfo, extra []string) string {
	var rules []string
	seen := map[string]bool{}
	addRule := func(r string) {
		r = strings.TrimSpace(r)
		if r == "" || seen[r] {
			return
		}
		seen[r] = true
		rules = append(rules, "- "+r)
	}
	has := func(n string) bool { return slices.Contains(names, n) }
	bash, ps := has("bash"), has("powershell")
	// A shell hint is only useful when no dedicated search tool is active.
	if (bash || ps) && !has("grep") && !has("find") && !has("ls") {
		switch {
		case bash && ps:
			addRule(shellRuleBoth)
		case ps:
			addRule(shellRulePS)
		default:
			addRule(shellRuleBash)
		}
	}
	for _, t := range tools {
		for _, g := range t.PromptGuidelines {
			addRule(g)
		}
	}
	for _, g := range extra {
		addRule(g)
	}
	addRule(conciseRule)
	addRule(pathsRule)
	return strings.Join(rules, "\n")
}

// docsBody points the model at our documentation: the index and each
// guide, named one by one so that every path it lists is a file that
// docs.Extract wrote (TestDocsSectionPathsExist stats them).
func docsBody(root string) string {
	root = strings.TrimRight(root, "/")
	lines := []string{
		"Documentation for pi itself (consult it only when the user asks about pi, its extensions, skills, prompt templates, settings, RPC mode or Go SDK):",
		"- Overview: " + root + "/" + docs.Index,
	}
	for _, p := range docs.Pages {
		lines = append(lines, "- Guide: "+root+"/"+p)
	}
	lines = append(lines,
		"- These are files in pi's own folder, not in the working directory",
		"- Read the relevant guide completely before changing how pi is set up or extended.",
	)
	return strings.Join(lines, "\n")
}

func projectContextBody(files []ContextFile) string {
	parts := []string{projectIntro}
	for _, f := range files {
		parts = append(parts, `<project_instructions path="`+f.Path+`">`+"\n"+f.Content+"\n</project_instructions>")
	}
	return strings.Join(parts, "\n\n")
}

// skillsBody lists the skills the model may load itself. The hint names the
// tool that can read a skill's file; without read or bash the model has no
// way to load one, so the section is left out.
func skillsBody(skills []SkillRef, names []string) string {
	hint := ""
	switch {
	case slices.Contains(names, "read"):
		hint = skillsReadHint
	case slices.Contains(names, "bash"):
		hint = skillsBashHint
	default:
		return ""
	}
	lines := []string{skillsIntro, hint, skillsPathsHint, "", "<available_skills>"}
	n := 0
	for _, s := range skills {
		if s.DisableModelInvocation {
			continue
		}
		n++
		lines = append(lines,
			"  <skill>",
			"    <name>"+escapeXML(s.Name)+"</name>",
			"    <description>"+escapeXML(s.Description)+"</description>",
			"    <location>"+escapeXML(s.Location)+"</location>",
			"  </skill>")
	}
	if n == 0 {
		return ""
	}
	lines = append(lines, "</available_skills>")
	return strings.Join(lines, "\n")
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;")

func escapeXML(s string) string { return xmlEscaper.Replace(s) }
