package main

import (
	"fmt"
	"io"

	"github.com/pi-go/pi/prompts"
	"github.com/pi-go/pi/skills"
)

// loadResources discovers skills and prompt templates (settings, project
// folders when trusted, --skill and --prompt-template) and reports their
// problems on stderr; none of them stops the run.
func (app *App) loadResources() {
	gSkills, pSkills := app.settings.Resources("skills")
	sk, diags := skills.Discover(skills.Options{
		AgentDir: app.agentDir, Cwd: app.cwd, ProjectTrusted: app.trusted,
		SettingsGlobal: gSkills, SettingsProject: pSkills,
		CLIPaths: app.args.Skills, NoSkills: app.args.NoSkills,
	})
	app.skills = sk
	gTmpl, pTmpl := app.settings.Resources("prompts")
	tm, tdiags := prompts.LoadTemplates(prompts.TemplateOptions{
		AgentDir: app.agentDir, Cwd: app.cwd, ProjectTrusted: app.trusted,
		SettingsGlobal: gTmpl, SettingsProject: pTmpl,
		CLIPaths: app.args.PromptTemplates, NoTemplates: app.args.NoPromptTmpl,
	})
	app.templates = tm
	writeDiagnostics(app.stderr, append(diags, tdiags...))
}

// writeDiagnostics prints resource problems, one line each.
func writeDiagnostics(w io.Writer, diags []prompts.Diagnostic) {
	for _, d := range diags {
		label := "Warning"
		if d.Type == "error" {
			label = "Error"
		}
		if d.Path != "" {
			fmt.Fprintf(w, "%s: %s (%s)\n", label, d.Message, d.Path)
		} else {
			fmt.Fprintf(w, "%s: %s\n", label, d.Message)
		}
	}
}

// expandInput applies /skill:name and /template expansion to a prompt, as
// the reference does before sending it.
func (app *App) expandInput(text string) string {
	if app.ext.isCommand(text) {
		// Extension commands run before any expansion.
		return text
	}
	if out, ok, err := skills.Expand(text, app.skills); err != nil {
		fmt.Fprintf(app.stderr, "Error: %v\n", err)
	} else if ok {
		return out
	}
	if out, ok := prompts.ExpandTemplate(text, app.templates); ok {
		return out
	}
	return text
}
