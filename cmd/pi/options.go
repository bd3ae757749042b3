package main

import (
	"os"
	"path/filepath"

	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/engine/config"
)

// optionsFromArgs says with pi.Options what the command line asked for.
func optionsFromArgs(a *Args, mode pi.Mode) pi.Options {
	return pi.Options{
		Mode:     mode,
		Provider: a.Provider, Model: a.Model, Thinking: a.Thinking, APIKey: a.APIKey, Models: a.Models,
		Tools: a.Tools, NoTools: a.NoTools, NoBuiltinTools: a.NoBuiltinTools, ExcludeTools: a.ExcludeTools,
		Extensions: a.Extensions, NoExtensions: a.NoExtensions, NoMCP: a.NoMCP, ExtensionFlags: a.UnknownFlags,
		Skills: a.Skills, NoSkills: a.NoSkills, PromptTemplates: a.PromptTemplates, NoPromptTemplates: a.NoPromptTmpl,
		SystemPrompt: a.SystemPrompt, AppendSystemPrompt: a.AppendSystem, NoContextFiles: a.NoContextFiles,
		SessionDir: a.SessionDir, Continue: a.Continue, Resume: a.Resume, Session: a.Session,
		SessionID: a.SessionID, Fork: a.Fork, NoSession: a.NoSession, SessionName: a.Name,
		Approve: a.Approve, Offline: a.Offline,
		ListModelsOnly: a.ListModels != nil,
	}
}

// extensionsLikely is a cheap guess, before settings are read, whether
// extensions will load: -e paths, or an extensions folder in the agent
// directory or the project. It only decides whether to start parsing the
// host code early (jsruntime.Prewarm); a wrong guess costs a little CPU or
// a little latency, nothing else.
func extensionsLikely(a *Args) bool {
	if len(a.Extensions) > 0 {
		return true
	}
	if a.NoExtensions {
		return false
	}
	dirs := []string{filepath.Join(config.AgentDir(), "extensions")}
	if cwd, err := os.Getwd(); err == nil {
		dirs = append(dirs, filepath.Join(cwd, ".pi", "extensions"), filepath.Join(cwd, ".pi", "agent", "extensions"))
	}
	for _, d := range dirs {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return true
		}
	}
	return false
}
