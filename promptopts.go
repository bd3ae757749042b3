package pi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/pi-go/pi/builtins"
	"github.com/pi-go/pi/engine"
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
	w := &jsonObj{}
	if o.CustomPrompt != "" {
		w.field("customPrompt", o.CustomPrompt)
	}
	names := make([]string, 0, len(tools))
	for _, t := range tools {
		names = append(names, t.Name)
	}
	w.field("selectedTools", names)
	w.field("hiddenTools", []string{})
	snippets := &jsonObj{}
	guidelines := &jsonObj{}
	for _, t := range registry {
		if t.PromptSnippet != "" {
			snippets.field(t.Name, t.PromptSnippet)
		}
		if len(t.PromptGuidelines) > 0 {
			guidelines.field(t.Name, t.PromptGuidelines)
		}
	}
	w.raw("toolSnippets", snippets.bytes())
	w.raw("toolGuidelines", guidelines.bytes())
	g := o.Guidelines
	if g == nil {
		g = []string{}
	}
	w.field("promptGuidelines", g)
	w.field("appendSystemPrompt", strings.Join(o.Append, "\n\n"))
	sections := &jsonObj{}
	for _, s := range o.Extra {
		if s.Value != nil {
			sections.field(s.Name, *s.Value)
		}
	}
	w.raw("sections", sections.bytes())
	w.field("cwd", o.Cwd)
	files := make([]json.RawMessage, 0, len(o.ContextFiles))
	if !o.NoContextFiles {
		for _, f := range o.ContextFiles {
			fo := &jsonObj{}
			fo.field("path", f.Path)
			fo.field("content", f.Content)
			files = append(files, fo.bytes())
		}
	}
	w.field("contextFiles", files)
	skills := make([]json.RawMessage, 0, len(o.Skills))
	for _, s := range o.Skills {
		so := &jsonObj{}
		so.field("name", s.Name)
		so.field("description", s.Description)
		so.field("filePath", s.Location)
		so.field("baseDir", filepath.Dir(s.Location))
		so.field("disableModelInvocation", s.DisableModelInvocation)
		skills = append(skills, so.bytes())
	}
	w.field("skills", skills)
	return w.bytes()
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
// non-string values are skipped.
func orderedStrings(raw json.RawMessage) ([]engine.Section, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	var out []engine.Section
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if s, ok := v.(string); ok {
			out = append(out, engine.Section{Name: k.(string), Value: &s})
		}
	}
	return out, nil
}

// jsonObj writes a JSON object with keys in insertion order.
type jsonObj struct{ buf bytes.Buffer }

func (o *jsonObj) raw(key string, v []byte) {
	if o.buf.Len() == 0 {
		o.buf.WriteByte('{')
	} else {
		o.buf.WriteByte(',')
	}
	k, _ := engine.MarshalJSON(key)
	o.buf.Write(k)
	o.buf.WriteByte(':')
	o.buf.Write(v)
}

func (o *jsonObj) field(key string, v any) {
	b, err := engine.MarshalJSON(v)
	if err != nil {
		b = []byte("null")
	}
	o.raw(key, b)
}

func (o *jsonObj) bytes() json.RawMessage {
	if o.buf.Len() == 0 {
		return json.RawMessage("{}")
	}
	return append(append(json.RawMessage(nil), o.buf.Bytes()...), '}')
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
