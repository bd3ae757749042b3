package interactive

import (
	"context"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/interactive/slash"
	"github.com/pi-go/pi/engine/session"
	"github.com/pi-go/pi/prompts"
	"github.com/pi-go/pi/skills"
)

// Controller is what the interactive mode needs from the agent;
// *pi.Agent implements it.
type Controller interface {
	// slash.Agent is what the built-in slash commands use.
	slash.Agent

	// Session is the current engine session; Current adds its store.
	Session() *engine.Session
	Current() (*engine.Session, *session.File)
	// Subscribe follows the current session and every session that
	// replaces it.
	Subscribe(fn func(engine.Event)) (unsubscribe func())

	// Prompt sends a prompt as typed (extension commands, skills and
	// templates expand) and waits until the session settles.
	Prompt(ctx context.Context, text string, images []engine.Content) error
	Steer(ctx context.Context, text string, images ...engine.Content) (string, error)
	FollowUp(ctx context.Context, text string, images ...engine.Content) (string, error)
	Abort()
	Expand(text string) string
	RunBash(ctx context.Context, command string, excludeFromContext bool, onChunk func(string)) (engine.BashResult, error)

	SetModel(ctx context.Context, provider, modelID string) (*engine.Model, error)
	CycleModel(ctx context.Context) (model *engine.Model, level engine.ThinkingLevel, ok bool, err error)
	CycleThinkingLevel() (engine.ThinkingLevel, bool)
	AvailableModels() []*engine.Model
	ScopedModels() []engine.ModelChoice
	HasAuth(m *engine.Model) bool
	SetGlobalSetting(path string, value any) error

	NewSession(ctx context.Context, parentSession string) (cancelled bool, err error)
	SwitchSession(ctx context.Context, path string) (cancelled bool, err error)
	Fork(ctx context.Context, entryID, position string) (cancelled bool, text string, err error)
	ForkUser(ctx context.Context, entryID string) (cancelled bool, text string, err error)
	Clone(ctx context.Context) (cancelled bool, err error)
	Reload(ctx context.Context) error
	ExportHTML(outPath string) (string, error)

	// Commands are the extension commands; Resources the prompt
	// templates and skills.
	Commands() []prompts.CommandInfo
	Resources() ([]prompts.Template, []skills.Skill)

	// What the header and the settings-driven behaviour read.
	Cwd() string
	AgentDir() string
	SettingWarnings() []string
	LoadedExtensions() []string
	ContextFiles() []string
}
