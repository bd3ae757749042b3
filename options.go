package pi

import (
	"io"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/engine/session"
)

// Mode is the face a pi runs behind. Extensions see it (ctx.hasUI, the
// RPC UI bridge), and a few start-up rules depend on it.
type Mode string

// The modes. The zero value behaves as ModePrint: an embedding program
// has no UI of its own unless it passes one (Options.UI).
const (
	ModeRPC         Mode = "rpc"
	ModeJSON        Mode = "json"
	ModePrint       Mode = "print"
	ModeInteractive Mode = "interactive"
)

// Options say what to assemble. The zero value is what `pi` does in the
// current directory: the user's settings, models.json, auth.json, context
// files, skills, templates and extensions, the default tools and model,
// and a new session file under the agent directory. Each field overrides
// one part; the CLI fills them from its flags.
type Options struct {
	// Cwd is the project directory; "" is the process's working
	// directory. An opened session runs in its own recorded directory.
	Cwd string
	// AgentDir is the agent's configuration directory; "" is
	// PI_CODING_AGENT_DIR or ~/.pi/agent.
	AgentDir string
	// Mode is the face; see Mode.
	Mode Mode
	// Stderr receives warnings and start-up diagnostics; nil is
	// os.Stderr.
	Stderr io.Writer
	// Argv is what extensions see as process.argv after "pi"; nil is the
	// process's own arguments.
	Argv []string

	// Settings, when set, replace the settings files (for example
	// config.FromMaps for an in-memory configuration). Writes a setter
	// makes stay in memory.
	Settings *config.Settings

	// Provider, Model, Thinking and APIKey choose the model as --provider,
	// --model, --thinking and --api-key do; Models is the --models scope.
	Provider string
	Model    string
	Thinking engine.ThinkingLevel
	APIKey   string
	Models   []string

	// Tools is the --tools allowlist (nil: the defaults; entries starting
	// with + or - modify the defaults); NoTools and NoBuiltinTools are
	// --no-tools and --no-builtin-tools; ExcludeTools removes names.
	Tools          []string
	NoTools        bool
	NoBuiltinTools bool
	ExcludeTools   []string
	// ExtraTools are Go tools added to the active set after the built-in
	// and extension tools; one named like an earlier tool replaces it.
	ExtraTools []engine.Tool

	// Extensions are -e paths; NoExtensions is -ne (no discovery, no
	// built-in extensions). ExtensionFlags are the command line's unknown
	// long flags, offered to the extensions that register them.
	Extensions   []string
	NoExtensions bool
	// NoMCP is --no-mcp: no built-in MCP support for this run.
	NoMCP          bool
	ExtensionFlags []Flag

	// Skills, PromptTemplates and their No* switches are --skill,
	// --prompt-template, --no-skills and --no-prompt-templates.
	Skills            []string
	NoSkills          bool
	PromptTemplates   []string
	NoPromptTemplates bool
	// SystemPrompt replaces the system prompt's preamble (text or a file
	// path, as --system-prompt); AppendSystemPrompt adds to it.
	SystemPrompt       *string
	AppendSystemPrompt []string
	NoContextFiles     bool

	// Store, when set, is the session store to use (session.InMemory with
	// seeded entries, or a file opened elsewhere); the selection fields
	// below are then ignored.
	Store *session.File
	// SessionDir, Continue, Resume, Session, SessionID, Fork, NoSession
	// and SessionName select the session as --session-dir, -c, -r,
	// --session, --session-id, --fork, --no-session and --name do.
	SessionDir  string
	Continue    bool
	Resume      bool
	Session     string
	SessionID   string
	Fork        string
	NoSession   bool
	SessionName *string

	// Approve is --approve (true) or --no-approve (false) for project
	// trust; nil asks the extensions and the trust file.
	Approve *bool
	// Offline is --offline: no network at start-up.
	Offline bool

	// ListModelsOnly stops New once the models and extensions are loaded:
	// only ListModels and Close are usable (--list-models).
	ListModelsOnly bool

	// UI is the extensions' ctx.ui backend; nil keeps the mode's default.
	UI engine.UI
}

// Flag is one command-line long flag the CLI did not know, with its value
// ("" and Bool when it took none). Extensions may claim it.
type Flag struct {
	Name  string
	Value string
	Bool  bool
}
