package jsruntime

import (
	"encoding/json"
	"fmt"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/compaction"
	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/prompts"
	"github.com/pi-go/pi/skills"
)

// installSDKFunctionsHost gives the coding-agent package's session and
// compaction functions (hostjs/pi_internal_sdk_functions.js) the engine's
// own computations: the context a branch projects to, and compaction's
// cut point, so an extension sees what the agent itself would send.
func (r *Runtime) installSDKFunctionsHost() {
	vm := r.vm
	decode := func(what, s string) []*engine.Entry {
		var es []*engine.Entry
		if err := json.Unmarshal([]byte(s), &es); err != nil {
			panic(vm.NewTypeError(fmt.Sprintf("%s: entries are not session entries: %v", what, err)))
		}
		out := es[:0]
		for _, e := range es {
			if e != nil {
				out = append(out, e)
			}
		}
		return out
	}
	encode := func(v any) string {
		b, err := engine.MarshalJSON(v)
		if err != nil {
			panic(vm.NewGoError(err))
		}
		return string(b)
	}
	// sdkSessionContext answers buildSessionContext (kind "context"),
	// buildSessionProjection ("projection") and buildContextEntries
	// ("entries") for a branch, root first.
	_ = r.host.Set("sdkSessionContext", func(kind, branchJSON string) string {
		branch := decode(kind, branchJSON)
		switch kind {
		case "entries":
			return encode(nonNilEntries(engine.ContextEntries(branch)))
		case "projection":
			projected := []any{}
			for _, pe := range engine.ProjectContext(branch) {
				projected = append(projected, ordered{{"sourceEntry", pe.Entry}, {"messages", nonNilMessages(pe.Messages)}})
			}
			return encode(sessionContextFields(engine.BuildContext(branch), projected))
		}
		return encode(sessionContextFields(engine.BuildContext(branch), nil))
	})
	_ = r.host.Set("sdkFindCutPoint", func(entriesJSON string, start, end, keep int) string {
		es := decode("findCutPoint", entriesJSON)
		ces := make([]engine.ContextEntry, len(es))
		for i, e := range es {
			ces[i] = engine.ContextEntry{Entry: e, Messages: engine.EntryMessages(e)}
		}
		start, end = max(0, min(start, len(ces))), max(0, min(end, len(ces)))
		cp := compaction.FindCutPoint(ces, start, end, keep)
		return encode(ordered{{"firstKeptEntryIndex", cp.FirstKeptIndex}, {"turnStartIndex", cp.TurnStartIndex}, {"isSplitTurn", cp.SplitTurn}})
	})
	// The trust check and context files are the ones the host itself
	// runs at start (engine/config, prompts), so an extension asking
	// about a folder gets the host's answer.
	_ = r.host.Set("hasTrustRequiringProjectResources", func(cwd string) bool { return config.NeedsTrust(absDir(cwd)) })
	_ = r.host.Set("sdkProjectContextFiles", func(cwd, agentDir string) string {
		if agentDir == "" {
			agentDir = r.opts.AgentDir
		}
		files, err := prompts.LoadContextFiles(absDir(agentDir), absDir(cwd), true)
		if err != nil && len(files) == 0 {
			panic(vm.NewGoError(err))
		}
		out := make([]ordered, len(files))
		for i, f := range files {
			out[i] = ordered{{"path", f.Path}, {"content", f.Content}}
		}
		return encode(out)
	})
	_ = r.host.Set("sdkFormatSkills", func(skillsJSON, tool string) string {
		var in []struct {
			Name                   string `json:"name"`
			Description            string `json:"description"`
			FilePath               string `json:"filePath"`
			DisableModelInvocation bool   `json:"disableModelInvocation"`
		}
		if err := json.Unmarshal([]byte(skillsJSON), &in); err != nil {
			panic(vm.NewTypeError("formatSkillsForPrompt: skills are not a list of skills: " + err.Error()))
		}
		refs := make([]prompts.SkillRef, len(in))
		for i, s := range in {
			refs[i] = prompts.SkillRef{Name: s.Name, Description: s.Description, Location: s.FilePath, DisableModelInvocation: s.DisableModelInvocation}
		}
		return prompts.FormatSkills(refs, tool)
	})
	// sdkEntryMessages are the context messages of each entry
	// (sessionEntryToContextMessages, findTurnStartIndex).
	_ = r.host.Set("sdkEntryMessages", func(entriesJSON string) string {
		es := decode("sessionEntryToContextMessages", entriesJSON)
		out := make([][]*engine.Message, len(es))
		for i, e := range es {
			out[i] = nonNilMessages(engine.EntryMessages(e))
		}
		return encode(out)
	})
	// sdkLoadSkills is loadSkills and loadSkillsFromDir: the host's skill
	// discovery (the same rules as its own start). Like the reference's
	// function it looks in the project's folders without asking about
	// trust: its caller decides whether to call it.
	_ = r.host.Set("sdkLoadSkills", func(cwd, agentDir, pathsJSON string, defaults bool, source string) string {
		var paths []string
		_ = json.Unmarshal([]byte(pathsJSON), &paths)
		if agentDir == "" {
			agentDir = r.opts.AgentDir
		}
		found, diags := skills.Discover(skills.Options{
			AgentDir: absDir(agentDir), Cwd: absDir(cwd), ProjectTrusted: defaults,
			CLIPaths: paths, NoSkills: !defaults,
		})
		list := make([]ordered, len(found))
		for i, sk := range found {
			info := sk.SourceInfo
			if source != "" {
				info.Source = source
			}
			list[i] = ordered{{"name", sk.Name}, {"description", sk.Description}, {"filePath", sk.FilePath}, {"baseDir", sk.BaseDir},
				{"sourceInfo", info}, {"disableModelInvocation", sk.DisableModelInvocation}}
		}
		if diags == nil {
			diags = []skills.Diagnostic{}
		}
		return encode(ordered{{"skills", list}, {"diagnostics", diags}})
	})
}
