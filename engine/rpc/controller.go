package rpc

import (
	"context"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/session"
	"github.com/pi-go/pi/prompts"
	"github.com/pi-go/pi/skills"
)

// Controller is the session controller the server drives: it owns the
// active session and replaces it, runs user bash commands, knows the
// models, commands and resources. The root package's pi.Agent is the
// controller of every face; the server only speaks the wire protocol
// over it.
type Controller interface {
	// Current is the active session and its store.
	Current() (*engine.Session, *session.File)
	// Subscribe calls fn for every event of the active session and of
	// each session that replaces it, until unsubscribed.
	Subscribe(fn func(engine.Event)) (unsubscribe func())

	// NewSession, SwitchSession, ForkUser and Clone replace the active
	// session (new_session, switch_session, fork, clone); cancelled is
	// true when an extension cancelled.
	NewSession(ctx context.Context, parentSession string) (cancelled bool, err error)
	SwitchSession(ctx context.Context, path string) (cancelled bool, err error)
	ForkUser(ctx context.Context, entryID string) (cancelled bool, text string, err error)
	Clone(ctx context.Context) (cancelled bool, err error)

	// Steer and FollowUp queue a message (expanded, through the rules
	// the controller applies to queued input) and return the
	// disposition.
	Steer(ctx context.Context, text string, images ...engine.Content) (string, error)
	FollowUp(ctx context.Context, text string, images ...engine.Content) (string, error)
	// Expand applies skill and template expansion to a prompt after the
	// input hook saw it.
	Expand(text string) string
	// RunBash runs a user command (the extensions' user_bash handlers
	// decide first), streams cleaned output chunks to onChunk and records
	// the result in the session; ctx is cancelled by abort_bash.
	RunBash(ctx context.Context, command string, excludeFromContext bool, onChunk func(string)) (engine.BashResult, error)

	// AvailableModels are the models whose provider has usable auth, in
	// catalogue order; ScopedModels is the --models scope (nil without
	// one).
	AvailableModels() []*engine.Model
	ScopedModels() []ScopedModel
	// SetGlobalSetting persists one setting to the global settings.json.
	SetGlobalSetting(path string, value any) error
	// Commands are the extension commands, listed first by get_commands;
	// Resources are the prompt templates and skills after them.
	Commands() []prompts.CommandInfo
	Resources() ([]prompts.Template, []skills.Skill)
}

// ScopedModel is one entry of the --models scope with its optional
// thinking level.
type ScopedModel = engine.ModelChoice

// BashResult is the outcome of a user bash command.
type BashResult = engine.BashResult
