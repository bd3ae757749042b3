package main

import "github.com/pi-go/pi/engine"

// tools builds the active tool set from the selection flags.
func (app *App) tools() ([]engine.Tool, error) {
	defaults, _ := app.settings.DefaultTools()
	names := SelectTools(ToolSelectionInput{Args: app.args, SettingDefaults: defaults, Available: allToolNames()})
	return toolsByName(app.cwd, names)
}
