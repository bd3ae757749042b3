package slash

import (
	"context"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config/login"
	"github.com/pi-go/pi/engine/interactive/dialogs"
	"github.com/pi-go/pi/engine/interactive/slash/authinfo"
	"github.com/pi-go/pi/engine/session"
	"github.com/pi-go/pi/engine/tui"
)

// Level is a notice's severity.
type Level string

// Notice levels.
const (
	Info    Level = "info"
	Warning Level = "warning"
	Error   Level = "error"
)

// Host is what the commands need from the interactive app. Every method
// except Go is called on the UI goroutine; Post is how background work
// gets back to it.
type Host interface {
	// Agent is the session controller.
	Agent() Agent
	// Style is the theme and keymap dialogs draw and match with.
	Style() dialogs.Style
	// ShowDialog puts c in place of the editor and gives it the keys
	// (c implements tui.InputHandler, and maybe tui.PasteHandler and
	// dialogs.Timed) until CloseDialog. Showing a dialog while another
	// shows replaces it.
	ShowDialog(c tui.Component)
	// CloseDialog gives the editor back.
	CloseDialog()
	// Notify adds a one-line notice to the transcript ("Session name
	// set: …"), coloured by level.
	Notify(level Level, text string)
	// AppendMarkdown adds a Markdown block to the transcript (/session,
	// /hotkeys, /changelog).
	AppendMarkdown(md string)
	// EditorText and SetEditorText read and replace the editor's text.
	EditorText() string
	SetEditorText(text string)
	// Copy puts text on the clipboard (OSC 52, and a native helper when
	// the app has one).
	Copy(text string) error
	// Reprint rebuilds the transcript from the current session, after
	// the session was replaced or moved to another point of its tree.
	Reprint()
	// Reloaded tells the app that /reload reloaded the agent, so it
	// reloads what it owns (keybindings, themes, runtime settings).
	Reloaded()
	// CredentialsChanged tells the app that a login or logout changed
	// which providers have credentials, so it recounts them (the footer
	// names the provider when there are several).
	CredentialsChanged()
	// SettingChanged tells the app that /settings wrote key, so it
	// applies what it owns at once (theme, padding, hidden thinking…).
	SettingChanged(key string, value any)
	// Themes are the theme names /settings offers.
	Themes() []string
	// Quit ends the interactive mode.
	Quit()
	// Post runs fn on the UI goroutine; Go runs fn off it.
	Post(fn func())
	Go(fn func())
}

// ThemePreviewer is a Host that can show a theme without saving it, for
// the /settings theme list's live preview.
type ThemePreviewer interface {
	PreviewTheme(name string)
	// TerminalAppearance is "light" or "dark": which side of a
	// light/dark theme pair shows.
	TerminalAppearance() string
}

// TerminalSizer is a Host that knows the terminal's height (the tree
// shows half of it).
type TerminalSizer interface {
	TerminalRows() int
}

// ImageDrawer is a Host that knows whether the terminal draws inline
// images (/settings then offers the image rows).
type ImageDrawer interface {
	DrawsImages() bool
}

// Agent is the part of the session controller the commands use;
// *pi.Agent implements it.
type Agent interface {
	// Store is the current session's store.
	Store() *session.File
	Model() *engine.Model
	ThinkingLevel() engine.ThinkingLevel
	SetThinkingLevel(level engine.ThinkingLevel) engine.ThinkingLevel
	IsStreaming() bool
	IsCompacting() bool
	// Abort stops the running prompt (before /tree moves away from it).
	Abort()

	AvailableModels() []*engine.Model
	ScopedModels() []engine.ModelChoice
	SetModel(ctx context.Context, provider, modelID string) (*engine.Model, error)
	SetModelScope(ids []string)

	Setting(key string) any
	SetGlobalSetting(key string, value any) error
	AgentDir() string
	Cwd() string
	ProjectTrusted() bool

	NewSession(ctx context.Context, parentSession string) (cancelled bool, err error)
	SwitchSession(ctx context.Context, path string) (cancelled bool, err error)
	Fork(ctx context.Context, entryID, position string) (cancelled bool, text string, err error)
	Clone(ctx context.Context) (cancelled bool, err error)
	ImportSession(ctx context.Context, path string) (cancelled bool, err error)
	ListSessions(all bool) ([]session.Info, error)
	Reload(ctx context.Context) error

	Compact(ctx context.Context, instructions string) (*engine.CompactionResult, error)
	NavigateTree(ctx context.Context, entryID string, o engine.NavigateOptions) (engine.NavigateResult, error)
	SetSessionName(name string) (string, error)
	SetLabel(entryID, label string) error

	ExportHTML(path string) (string, error)
	ExportJSONL(path string) (string, error)

	AuthProviders() []AuthProvider
	Login(ctx context.Context, provider string, apiKey bool, ui login.Interaction) error
	// AfterLogin refreshes the provider's account-specific model list
	// and selects its default model when none is selected: the model
	// chosen, why none could be, and a failed refresh (a warning).
	AfterLogin(ctx context.Context, provider string) (selected, note string, refreshErr error)
	Logout(ctx context.Context, provider string) error
	AuthPath() string
}

// AuthProvider is one provider /login and /logout offer.
type AuthProvider = authinfo.Provider
