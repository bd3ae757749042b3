package pi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/pi-go/pi/builtins"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/jsonx"
	"github.com/pi-go/pi/prompts"
)

// This file translates between prompts.Options and the reference's
// BuildSystemPromptOptions, the object before_agent_start handlers see as
// event.systemPromptOptions and may change in place (add a section,
// select other tools, drop skills …). Key order is the reference's.

// promptOptionsJSON renders o, with the active tools, as the reference's
// systemPromptOptions. toolSnippets and toolGuidelines list every tool of
// the registry (built-ins first, then extension tools), active or not,
// as the reference fills them from all tool definitions; without a
// registry the active tools stand in.
func promptOptionsJSON(o prompts.Options, tools []engine.ToolInfo, registry ...engine.ToolInfo) json.RawMessage {
	if registry == nil {
		registry = tools
	}
	var w jsonx.Object
	if o.CustomPrompt != "" {
		w = w.Set("customPrompt", o.CustomPrompt)
	}
	names := make([]string, 0, len(tools))
	for _, t := range tools {
		names = append(names, t.Name)
	}
	w = w.Set("selectedTools", names).Set("hiddenTools", []string{})
	snippets, guidelines := jsonx.Object{}, jsonx.Object{}
	for _, t := range registry {
		if t.PromptSnippet != "" {
			snippets = snippets.Set(t.Name, t.PromptSnippet)
		}
		if len(t.PromptGuidelines) > 0 {
			guidelines = guidelines.Set(t.Name, t.PromptGuidelines)
		}
	}
	g := o.Guidelines
	if g == nil {
		g = []string{}
	}
	w = w.Set("toolSnippets", snippets).Set("toolGuidelines", guidelines).
		Set("promptGuidelines", g).Set("appendSystemPrompt", strings.Join(o.Append, "\n\n"))
	sections := jsonx.Object{}
	for _, s := range o.Extra {
		if s.Value != nil {
			sections = sections.Set(s.Name, *s.Value)
		}
	}
	w = w.Set("sections", sections).Set("cwd", o.Cwd)
	files := make([]jsonx.Object, 0, len(o.ContextFiles))
	if !o.NoContextFiles {
		for _, f := range o.ContextFiles {
			files = append(files, jsonx.Object{}.Set("path", f.Path).Set("content", f.Content))
		}
	}
	w = w.Set("contextFiles", files)
	skills := make([]jsonx.Object, 0, len(o.Skills))
	for _, s := range o.Skills {
		skills = append(skills, jsonx.Object{}.Set("name", s.Name).Set("description", s.Description).
			Set("filePath", s.Location).Set("baseDir", filepath.Dir(s.Location)).
			Set("disableModelInvocation", s.DisableModelInvocation))
	}
	w = w.Set("skills", skills)
	b, err := w.MarshalJSON()
	if err != nil {
		// Strings, lists and objects of them cannot fail to encode.
		return json.RawMessage("{}")
	}
	return b
}

// promptOptionsWire is systemPromptOptions as handlers may leave it.
type promptOptionsWire struct {
	CustomPrompt       *string             `json:"customPrompt"`
	SelectedTools      []string            `json:"selectedTools"`
	HiddenTools        []string            `json:"hiddenTools"`
	ToolSnippets       map[string]string   `json:"toolSnippets"`
	ToolGuidelines     map[string][]string `json:"toolGuidelines"`
	PromptGuidelines   []string            `json:"promptGuidelines"`
	AppendSystemPrompt string              `json:"appendSystemPrompt"`
	Sections           json.RawMessage     `json:"sections"`
	Cwd                string              `json:"cwd"`
	ContextFiles       []struct {
		Path    string `json:"path"`
		Content string `json:"content"`
	} `json:"contextFiles"`
	Skills []struct {
		Name                   string `json:"name"`
		Description            string `json:"description"`
		FilePath               string `json:"filePath"`
		DisableModelInvocation bool   `json:"disableModelInvocation"`
	} `json:"skills"`
}

// renderPromptOptions rebuilds the prompt's sections from changed
// systemPromptOptions; base supplies what the options do not carry (the
// docs folder). Section names are checked as the reference checks them.
func renderPromptOptions(base prompts.Options, raw json.RawMessage) (engine.Sections, error) {
	var w promptOptionsWire
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, fmt.Errorf("systemPromptOptions: %w", err)
	}
	o := prompts.Options{Cwd: w.Cwd, AgentDir: base.AgentDir, DocsRoot: base.DocsRoot, Guidelines: w.PromptGuidelines}
	if w.CustomPrompt != nil {
		o.CustomPrompt = *w.CustomPrompt
	}
	if w.AppendSystemPrompt != "" {
		o.Append = []string{w.AppendSystemPrompt}
	}
	hidden := map[string]bool{}
	for _, h := range w.HiddenTools {
		hidden[h] = true
	}
	for _, name := range w.SelectedTools {
		if hidden[name] {
			continue
		}
		o.Tools = append(o.Tools, engine.ToolInfo{Name: name, PromptSnippet: w.ToolSnippets[name], PromptGuidelines: w.ToolGuidelines[name]})
	}
	for _, f := range w.ContextFiles {
		o.ContextFiles = append(o.ContextFiles, prompts.ContextFile{Path: f.Path, Content: f.Content})
	}
	for _, s := range w.Skills {
		o.Skills = append(o.Skills, prompts.SkillRef{Name: s.Name, Description: s.Description, Location: s.FilePath, DisableModelInvocation: s.DisableModelInvocation})
	}
	extra, err := orderedStrings(w.Sections)
	if err != nil {
		return nil, fmt.Errorf("systemPromptOptions.sections: %w", err)
	}
	for _, sec := range extra {
		if err := prompts.ValidateSectionName(sec.Name); err != nil {
			return nil, err
		}
	}
	o.Extra = extra
	return prompts.Build(o), nil
}

// orderedStrings decodes a JSON object of strings keeping its key order;
// non-string values are skipped, and anything but an object gives none.
func orderedStrings(raw json.RawMessage) ([]engine.Section, error) {
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return nil, nil
	}
	var out []engine.Section
	err := jsonx.EachMember(raw, func(k string, v json.RawMessage) error {
		// Decoded as any, not string: null must not pass as "".
		var x any
		if err := json.Unmarshal(v, &x); err != nil {
			return err
		}
		if s, ok := x.(string); ok {
			out = append(out, engine.Section{Name: k, Value: &s})
		}
		return nil
	})
	return out, err
}

// registryToolInfos lists the tools a session could use, in the
// reference's registry order: the built-ins, then extension tools (one
// named like a built-in takes its place).
func (app *Agent) registryToolInfos() []engine.ToolInfo {
	var out []engine.ToolInfo
	for _, name := range builtins.AllNames {
		if t := app.builtin(name); t != nil {
			out = append(out, t.Info())
		}
	}
	for _, t := range app.ext.Tools() {
		info := t.Info()
		replaced := false
		for i := range out {
			if out[i].Name == info.Name {
				out[i], replaced = info, true
			}
		}
		if !replaced {
			out = append(out, info)
		}
	}
	return out
}
