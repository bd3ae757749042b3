package dialogs

import (
	"fmt"
	"maps"
	"strconv"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/tui"
)

// settingKind says how a row's settings.json value is read and written.
type settingKind int

const (
	kindBool        settingKind = iota // true/false
	kindEnum                           // a string of Values
	kindInt                            // a number of Values
	kindTimeout                        // httpIdleTimeoutMs: labels ↔ milliseconds
	kindTrust                          // defaultProjectTrust: labels ↔ ask/always/never
	kindQuiet                          // quietStartup: true, "header", false
	kindWheel                          // "auto" or a number
	kindTheme                          // a sub-list of theme names
	kindWarnings                       // a sub-list of warning toggles
	kindModelLevels                    // a model, then its level
)

type settingSpec struct {
	key, label, desc string
	kind             settingKind
	values           []string
	def              string
}

// piSettings are the rows of /settings in the reference's order, with the
// settings.json key each one writes. Descriptions are ours; a setting this
// build stores but does not act on says so in its description, so a
// change is never silently without effect.
var piSettings = []settingSpec{
	{"compaction.enabled", "Auto-compact", "Summarise older context automatically when the window fills up", kindBool, nil, "true"},
	{"images.autoResize", "Auto-resize images", "Shrink large images to at most 2000x2000 before sending them", kindBool, nil, "true"},
	{"images.blockImages", "Block images", "Never send images to the model provider", kindBool, nil, "false"},
	{"enableSkillCommands", "Skill commands", "Offer each skill as a /skill:name command", kindBool, nil, "true"},
	{"showHardwareCursor", "Show hardware cursor", "Show the terminal's own cursor instead of the drawn one", kindBool, nil, "false"},
	{"editorPaddingX", "Editor padding", "Left and right padding of the input editor, in cells", kindInt, []string{"0", "1", "2", "3"}, "0"},
	{"outputPad", "Output padding", "Left padding of messages, tool output and command output", kindInt, []string{"0", "1"}, "1"},
	{"autocompleteMaxVisible", "Autocomplete max items", "How many completion rows show at once", kindInt, []string{"3", "5", "7", "10", "15", "20"}, "5"},
	{"terminal.clearOnShrink", "Clear on shrink", "Blank the rows left over when the rendered area gets shorter", kindBool, nil, "false"},
	{"terminal.showTerminalProgress", "Terminal progress", "Report progress to the terminal tab (OSC 9;4) while the agent works", kindBool, nil, "false"},
	{"steeringMode", "Steering mode", "Messages sent while the agent works: 'one-at-a-time' delivers one per turn, 'all' delivers them together", kindEnum, []string{"one-at-a-time", "all"}, "one-at-a-time"},
	{"followUpMode", "Follow-up mode", "Follow-up messages (Alt+Enter): 'one-at-a-time' or 'all' at once when the agent finishes", kindEnum, []string{"one-at-a-time", "all"}, "one-at-a-time"},
	{"transport", "Transport", "Preferred wire transport for providers that offer several (this build streams over SSE whatever is chosen)", kindEnum, []string{"sse", "websocket", "websocket-cached", "auto"}, "auto"},
	{"sessionShareDestination", "Session share destination", "Where /share uploads sessions: auto tries Radius first, then a GitHub gist", kindEnum, []string{"auto", "gist", "radius"}, "auto"},
	{"httpIdleTimeoutMs", "HTTP idle timeout", "Longest silence allowed while waiting for a provider's response", kindTimeout, []string{"30 sec", "1 min", "2 min", "5 min", "disabled"}, "5 min"},
	{"cacheWarming", "Cache warming", "Keep provider prompt caches warm: off, while streaming, or also while idle", kindEnum, []string{"off", "streaming", "idle"}, "idle"},
	{"hideThinkingBlock", "Hide thinking", "Collapse the model's thinking in replies", kindBool, nil, "false"},
	{"markdown.mermaid", "Mermaid diagrams", "Draw Mermaid code blocks as text diagrams", kindEnum, []string{"off", "final", "streaming"}, "streaming"},
	{"showCacheMissNotices", "Cache miss notices", "Add transcript notices about cache misses, cache warming, summary costs and reasoning a provider dropped", kindBool, nil, "false"},
	{"collapseChangelog", "Collapse changelog", "Show a short changelog after an update (this build bundles no changelog)", kindBool, nil, "false"},
	{"quietStartup", "Quiet startup", "Hide the start-up listing ('header' keeps only the header)", kindQuiet, []string{"true", "header", "false"}, "false"},
	{"enableInstallTelemetry", "Install telemetry", "Send an anonymous version ping after an update (this build never sends one)", kindBool, nil, "true"},
	{"defaultProjectTrust", "Default project trust", "What to do with a project folder when nothing else has decided its trust", kindTrust, []string{"Ask", "Always trust", "Never trust"}, "Ask"},
	{"doubleEscapeAction", "Double-escape action", "What Escape twice on an empty editor opens", kindEnum, []string{"tree", "fork", "none"}, "tree"},
	{"treeFilterMode", "Tree filter mode", "The filter /tree opens with", kindEnum, []string{"default", "no-tools", "user-only", "labeled-only", "all"}, "default"},
	{"warnings", "Warnings", "Turn individual warnings on or off", kindWarnings, nil, ""},
	{"modelThinkingLevels", "Default thinking level per model", "The thinking level a model starts with when selected", kindModelLevels, nil, ""},
	{"tuiMode", "TUI mode", "Screen layout; regular mode keeps the terminal's own scrollback", kindEnum, []string{"regular", "fullscreen"}, "fullscreen"},
	{"fullscreenExitOutput", "Fullscreen exit output", "On leaving fullscreen, print the transcript or only how to resume", kindEnum, []string{"transcript", "resume-hint"}, "transcript"},
	{"fullscreenScrollbar", "Fullscreen scrollbar", "When fullscreen mode shows its scrollbar", kindEnum, []string{"auto", "always", "hidden"}, "auto"},
	{"fullscreenCopyOnSelect", "Fullscreen copy on select", "Copy text as soon as it is selected with the mouse; off means Ctrl+X copies", kindBool, nil, "true"},
	{"fullscreenWheelScrollLines", "Fullscreen wheel scrolling", "Rows per mouse-wheel step; 'auto' speeds up fast spins", kindWheel, []string{"auto", "1", "2", "3", "5", "10"}, "auto"},
	{"theme", "Theme", "Colour theme", kindTheme, nil, "system"},
}

var timeoutMs = map[string]int{"30 sec": 30000, "1 min": 60000, "2 min": 120000, "5 min": 300000, "disabled": 0}

var trustValues = map[string]string{"Ask": "ask", "Always trust": "always", "Never trust": "never"}

// warningSettings are the toggles under Warnings.
var warningSettings = []settingSpec{
	{"warnings.anthropicExtraUsage", "Anthropic extra usage", "Warn when an Anthropic subscription sign-in may draw on paid extra usage", kindBool, nil, "true"},
}

// PiSettingsEnv is what the /settings rows read and write.
type PiSettingsEnv struct {
	// Get is the effective value of a settings.json key (nil when unset).
	Get func(key string) any
	// Set writes a key to the global settings.json.
	Set func(key string, value any) error
	// Themes are the theme names offered under Theme.
	Themes []string
	// Models are the models offered under the per-model levels.
	Models []*engine.Model
	// Preview, when set, shows a theme while the theme list's selection
	// moves over it; cancelling the list previews the setting again.
	Preview func(theme string)
	// Appearance is the terminal's ("light" or "dark"): which theme of a
	// light/dark pair shows.
	Appearance string
	// Images adds the inline-image rows (Show images, Image width), as
	// the reference does only where the terminal draws images.
	Images bool
}

// imageSettings are the rows placed after Auto-compact when the
// terminal draws images.
var imageSettings = []settingSpec{
	{"terminal.showImages", "Show images", "Draw images inline in the terminal", kindBool, nil, "true"},
	{"terminal.imageWidthCells", "Image width", "Preferred width of inline images, in cells", kindInt, []string{"60", "80", "120"}, "60"},
}

// PiSettingsCount is the number of rows /settings lists.
var PiSettingsCount = len(piSettings)

func display(sp settingSpec, raw any) string {
	if raw == nil {
		return sp.def
	}
	switch sp.kind {
	case kindTimeout:
		switch v := raw.(type) {
		case string:
			if v == "disabled" {
				return "disabled"
			}
		case float64:
			for label, ms := range timeoutMs {
				if float64(ms) == v {
					return label
				}
			}
			return fmt.Sprintf("%g ms", v)
		}
		return sp.def
	case kindTrust:
		for label, v := range trustValues {
			if v == raw {
				return label
			}
		}
		return sp.def
	}
	switch v := raw.(type) {
	case bool:
		return strconv.FormatBool(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case int:
		return strconv.Itoa(v)
	case string:
		return v
	}
	return sp.def
}

func encode(sp settingSpec, v string) (any, error) {
	switch sp.kind {
	case kindBool:
		return v == "true", nil
	case kindInt:
		return strconv.Atoi(v)
	case kindTimeout:
		ms, ok := timeoutMs[v]
		if !ok {
			return nil, fmt.Errorf("unknown timeout %q", v)
		}
		return ms, nil
	case kindTrust:
		return trustValues[v], nil
	case kindQuiet:
		if v == "header" {
			return v, nil
		}
		return v == "true", nil
	case kindWheel:
		if v == "auto" {
			return v, nil
		}
		return strconv.Atoi(v)
	}
	return v, nil
}

// PiSettings builds the /settings dialog over env: the reference's rows
// with their current values; each change is written with env.Set.
func PiSettings(st Style, env PiSettingsEnv, onClose func()) *Settings {
	get := func(k string) any {
		if env.Get == nil {
			return nil
		}
		return env.Get(k)
	}
	specs := map[string]settingSpec{}
	var rows []SettingRow
	list := piSettings
	if env.Images {
		list = append(append(append([]settingSpec(nil), piSettings[:1]...), imageSettings...), piSettings[1:]...)
	}
	for _, sp := range append(append(append([]settingSpec(nil), list...), warningSettings...), imageSettings...) {
		specs[sp.key] = sp
	}
	for _, sp := range list {
		r := SettingRow{ID: sp.key, Label: sp.label, Description: sp.desc, Value: display(sp, get(sp.key)), Values: sp.values}
		switch sp.kind {
		case kindBool:
			r.Values = []string{"true", "false"}
		case kindWheel:
			if v := r.Value; v != "auto" && !contains(r.Values, v) {
				r.Values = append(r.Values, v)
			}
		case kindTheme:
			themes := env.Themes
			original := r.Value
			r.Open = func(done func(string, bool)) tui.Component {
				return NewThemeMenu(st, themes, original, env.Appearance, env.Preview, func(v string, ok bool) {
					if ok {
						original = v
					}
					done(v, ok)
				})
			}
		case kindWarnings:
			r.Value = ""
			r.Open = func(done func(string, bool)) tui.Component {
				var sub []SettingRow
				for _, w := range warningSettings {
					sub = append(sub, SettingRow{ID: w.key, Label: w.label, Description: w.desc, Value: display(w, get(w.key)), Values: []string{"true", "false"}})
				}
				return NewSettings(st, SettingsOptions{Title: "Warnings", Rows: sub,
					OnChange: func(id, v string) (string, error) { return v, write(env, specs[id], v) },
					OnClose:  func() { done("", false) }})
			}
		case kindModelLevels:
			r.Value = ""
			r.Open = func(done func(string, bool)) tui.Component {
				return modelLevels(st, env, get, func() { done("", false) })
			}
		}
		rows = append(rows, r)
	}
	return NewSettings(st, SettingsOptions{Rows: rows, OnClose: onClose,
		OnChange: func(id, v string) (string, error) {
			sp := specs[id]
			if sp.kind == kindModelLevels || sp.kind == kindWarnings {
				return "", nil
			}
			return v, write(env, sp, v)
		}})
}

func write(env PiSettingsEnv, sp settingSpec, v string) error {
	val, err := encode(sp, v)
	if err != nil {
		return err
	}
	if env.Set == nil {
		return fmt.Errorf("settings cannot be written here")
	}
	if err := env.Set(sp.key, val); err != nil {
		return fmt.Errorf("Could not save %s: %w", sp.label, err)
	}
	return nil
}

// modelLevels is the "Default thinking level per model" sub-dialog: a
// model list, then that model's levels with "(clear override)". The
// whole modelThinkingLevels object is written, because its keys
// ("provider/model-1.5") hold the dots and slashes a key path splits on.
func modelLevels(st Style, env PiSettingsEnv, get func(string) any, back func()) tui.Component {
	var names []string
	var models []*engine.Model
	current := map[string]any{}
	if m, ok := get("modelThinkingLevels").(map[string]any); ok {
		current = maps.Clone(m)
	}
	for _, m := range env.Models {
		if !m.Reasoning {
			continue
		}
		id := m.Provider + "/" + m.ID
		label := id
		if l, ok := current[id].(string); ok {
			label += "  (" + l + ")"
		}
		names = append(names, label)
		models = append(models, m)
	}
	if len(models) == 0 {
		return NewSelect(st, SelectOptions{Title: "Default thinking level per model",
			Message: "No models available: sign in to a provider or configure an API key first.",
			Options: []string{"Back"}, OnSelect: func(int, string) { back() }, OnCancel: back})
	}
	holder := &swap{}
	holder.c = NewSelect(st, SelectOptions{Title: "Default thinking level per model", Message: "Pick a model to configure",
		Options: names, OnCancel: back,
		OnSelect: func(i int, _ string) {
			m := models[i]
			id := m.Provider + "/" + m.ID
			opts := []string{"  (clear override)"}
			for _, l := range engine.SupportedThinkingLevels(m) {
				opts = append(opts, string(l))
			}
			holder.c = NewSelect(st, SelectOptions{Title: id, Message: "Thinking level this model starts with", Options: opts,
				OnCancel: back,
				OnSelect: func(j int, o string) {
					if j == 0 {
						delete(current, id)
					} else {
						current[id] = o
					}
					var err error
					if env.Set != nil {
						err = env.Set("modelThinkingLevels", current)
					}
					if err != nil {
						holder.c = NewSelect(st, SelectOptions{Title: "Could not save", Message: err.Error(),
							Options: []string{"Back"}, OnSelect: func(int, string) { back() }, OnCancel: back})
						return
					}
					back()
				}})
		}})
	return holder
}

// swap is a component whose content a callback replaces (a two-step
// sub-dialog).
type swap struct{ c tui.Component }

func (s *swap) Render(w int) []string { return s.c.Render(w) }
func (s *swap) HandleKey(k tui.Key) bool {
	if h, ok := s.c.(tui.InputHandler); ok {
		return h.HandleKey(k)
	}
	return false
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
