package slash

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config/login"
	"github.com/pi-go/pi/engine/interactive/dialogs"
	"github.com/pi-go/pi/engine/session"
	"github.com/pi-go/pi/engine/tui"
)

// fakeHost is the test Host: it keeps the dialog shown, the notices, the
// Markdown blocks and the editor text. Post and Go run their function at
// once unless async is set; then Go starts a goroutine and Post queues
// the function for pump.
type fakeHost struct {
	t       *testing.T
	agent   *fakeAgent
	dialog  tui.Component
	closed  int
	notices []string // "level: text"
	md      []string
	editor  string
	copied  []string
	copyErr error
	reprint int
	reload  int
	changed []string
	quit    bool
	keymap  *tui.Keymap

	async  bool
	posted chan func()
	wg     sync.WaitGroup
}

func newHost(t *testing.T, a *fakeAgent) *fakeHost {
	return &fakeHost{t: t, agent: a, posted: make(chan func(), 64)}
}

func (h *fakeHost) Agent() Agent                { return h.agent }
func (h *fakeHost) Style() dialogs.Style        { return dialogs.Style{Keymap: h.keymap} }
func (h *fakeHost) ShowDialog(c tui.Component)  { h.dialog = c }
func (h *fakeHost) CloseDialog()                { h.dialog = nil; h.closed++ }
func (h *fakeHost) Notify(l Level, text string) { h.notices = append(h.notices, string(l)+": "+text) }
func (h *fakeHost) AppendMarkdown(md string)    { h.md = append(h.md, md) }
func (h *fakeHost) EditorText() string          { return h.editor }
func (h *fakeHost) SetEditorText(s string)      { h.editor = s }
func (h *fakeHost) Copy(s string) error {
	if h.copyErr != nil {
		return h.copyErr
	}
	h.copied = append(h.copied, s)
	return nil
}
func (h *fakeHost) Reprint()                         { h.reprint++ }
func (h *fakeHost) Reloaded()                        { h.reload++ }
func (h *fakeHost) SettingChanged(key string, _ any) { h.changed = append(h.changed, key) }
func (h *fakeHost) Themes() []string                 { return []string{"dark", "light"} }
func (h *fakeHost) Quit()                            { h.quit = true }
func (h *fakeHost) Post(fn func()) {
	if h.async {
		h.posted <- fn
		return
	}
	fn()
}
func (h *fakeHost) Go(fn func()) {
	if h.async {
		h.wg.Add(1)
		go func() { defer h.wg.Done(); fn() }()
		return
	}
	fn()
}

// pump runs posted functions until cond holds.
func (h *fakeHost) pump(cond func() bool) {
	for !cond() {
		(<-h.posted)()
	}
}

func (h *fakeHost) last() string {
	if len(h.notices) == 0 {
		return ""
	}
	return h.notices[len(h.notices)-1]
}

// screen is the shown dialog's text at 100 columns.
func (h *fakeHost) screen() string {
	if h.dialog == nil {
		return ""
	}
	var b strings.Builder
	for _, r := range h.dialog.Render(100) {
		b.WriteString(tui.Strip(r) + "\n")
	}
	return b.String()
}

func (h *fakeHost) press(specs ...string) {
	h.t.Helper()
	for _, s := range specs {
		if h.dialog == nil {
			h.t.Fatalf("key %s with no dialog shown", s)
		}
		k, err := tui.ParseKey(s)
		if err != nil {
			h.t.Fatal(err)
		}
		key := tui.Key{Code: k.Code, Mod: k.Mod}
		if k.Mod == 0 && len(k.Code) == 1 {
			key.Text = k.Code
		}
		h.dialog.(tui.InputHandler).HandleKey(key)
	}
}

func (h *fakeHost) typeText(s string) {
	for _, r := range s {
		k := tui.Key{Code: strings.ToLower(string(r)), Text: string(r)}
		if r == ' ' {
			k.Code = "space"
		}
		h.dialog.(tui.InputHandler).HandleKey(k)
	}
}

// fakeAgent records the operations the commands call.
type fakeAgent struct {
	mu        sync.Mutex
	store     *session.File
	model     *engine.Model
	models    []*engine.Model
	scoped    []engine.ModelChoice
	scope     []string
	scopeSet  bool
	level     engine.ThinkingLevel
	settings  map[string]any
	calls     []string
	streaming bool
	agentDir  string
	cwd       string
	trusted   bool
	sessions  []session.Info
	all       []session.Info
	fail      error // returned by the next operation that can fail
	cancel    bool  // the next replacement is cancelled by an extension
	navResult engine.NavigateResult
	providers []AuthProvider
	loginFn   func(ctx context.Context, ui login.Interaction) error
	// afterLogin answers AfterLogin (nil: nothing selected, no error).
	afterLogin func(provider string) (string, string, error)
	radius     string // RadiusToken's answer
	refresh    map[string]string
}

func (a *fakeAgent) RefreshModelCatalogs(context.Context) map[string]string {
	a.call("RefreshModelCatalogs")
	return a.refresh
}

func (a *fakeAgent) ShareJSONL() ([]byte, error) {
	a.call("ShareJSONL")
	return []byte("{\"type\":\"session\"}\n"), a.took()
}

func (a *fakeAgent) RadiusToken(context.Context) (string, error) { return a.radius, nil }

func (a *fakeAgent) call(format string, args ...any) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.calls = append(a.calls, fmt.Sprintf(format, args...))
}

func (a *fakeAgent) took() error {
	err := a.fail
	a.fail = nil
	return err
}

func (a *fakeAgent) Store() *session.File                { return a.store }
func (a *fakeAgent) Model() *engine.Model                { return a.model }
func (a *fakeAgent) ThinkingLevel() engine.ThinkingLevel { return a.level }
func (a *fakeAgent) IsStreaming() bool                   { return a.streaming }
func (a *fakeAgent) IsCompacting() bool                  { return false }
func (a *fakeAgent) Abort()                              { a.call("Abort"); a.streaming = false }
func (a *fakeAgent) AvailableModels() []*engine.Model    { return a.models }
func (a *fakeAgent) ScopedModels() []engine.ModelChoice  { return a.scoped }
func (a *fakeAgent) Setting(key string) any              { return a.settings[key] }
func (a *fakeAgent) AgentDir() string                    { return a.agentDir }
func (a *fakeAgent) Cwd() string                         { return a.cwd }
func (a *fakeAgent) ProjectTrusted() bool                { return a.trusted }
func (a *fakeAgent) AuthProviders() []AuthProvider       { return a.providers }
func (a *fakeAgent) AuthPath() string                    { return "/agent/auth.json" }
func (a *fakeAgent) ExportHTML(p string) (string, error) {
	a.call("ExportHTML %s", p)
	return "/out/" + p + ".html", a.took()
}
func (a *fakeAgent) ExportJSONL(p string) (string, error) {
	a.call("ExportJSONL %s", p)
	return "/out/" + p, a.took()
}
func (a *fakeAgent) SetModelScope(ids []string) {
	a.call("SetModelScope %v", ids)
	a.scope, a.scopeSet = ids, true
}
func (a *fakeAgent) SetLabel(id, l string) error  { a.call("SetLabel %s %q", id, l); return a.took() }
func (a *fakeAgent) Reload(context.Context) error { a.call("Reload"); return a.took() }
func (a *fakeAgent) Logout(_ context.Context, p string) error {
	a.call("Logout %s", p)
	return a.took()
}

func (a *fakeAgent) SetThinkingLevel(l engine.ThinkingLevel) engine.ThinkingLevel {
	a.call("SetThinkingLevel %s", l)
	a.level = engine.ClampThinkingLevel(a.model, l)
	return a.level
}

func (a *fakeAgent) SetModel(_ context.Context, provider, id string) (*engine.Model, error) {
	a.call("SetModel %s/%s", provider, id)
	for _, m := range a.models {
		if m.Provider == provider && m.ID == id {
			a.model = m
			return m, a.took()
		}
	}
	return nil, errors.New("Model not found: " + provider + "/" + id)
}

func (a *fakeAgent) SetGlobalSetting(key string, v any) error {
	a.call("SetGlobalSetting %s=%v", key, v)
	if err := a.took(); err != nil {
		return err
	}
	a.settings[key] = v
	return nil
}

func (a *fakeAgent) replacement(name string) (bool, error) {
	a.call("%s", name)
	c := a.cancel
	a.cancel = false
	return c, a.took()
}

func (a *fakeAgent) NewSession(_ context.Context, parent string) (bool, error) {
	return a.replacement("NewSession")
}
func (a *fakeAgent) SwitchSession(_ context.Context, path string) (bool, error) {
	return a.replacement("SwitchSession " + path)
}
func (a *fakeAgent) Fork(_ context.Context, id, pos string) (bool, string, error) {
	c, err := a.replacement("Fork " + id + " " + pos)
	return c, "text of " + id, err
}
func (a *fakeAgent) Clone(context.Context) (bool, error) { return a.replacement("Clone") }
func (a *fakeAgent) ImportSession(_ context.Context, p string) (bool, error) {
	return a.replacement("ImportSession " + p)
}
func (a *fakeAgent) ListSessions(all bool) ([]session.Info, error) {
	if all {
		return a.all, nil
	}
	return a.sessions, nil
}
func (a *fakeAgent) Compact(_ context.Context, instr string) (*engine.CompactionResult, error) {
	a.call("Compact %q", instr)
	return nil, a.took()
}
func (a *fakeAgent) NavigateTree(_ context.Context, id string, o engine.NavigateOptions) (engine.NavigateResult, error) {
	instr := "<nil>"
	if o.CustomInstructions != nil {
		instr = *o.CustomInstructions
	}
	a.call("NavigateTree %s summarize=%v instructions=%s", id, o.Summarize, instr)
	return a.navResult, a.took()
}
func (a *fakeAgent) SetSessionName(name string) (string, error) {
	a.call("SetSessionName %q", name)
	clean := engine.SanitizeSessionName(name)
	if err := a.store.AppendSessionInfo(clean); err != nil {
		return "", err
	}
	return clean, a.took()
}
func (a *fakeAgent) Login(ctx context.Context, provider string, apiKey bool, ui login.Interaction) error {
	a.call("Login %s apiKey=%v", provider, apiKey)
	if a.loginFn != nil {
		return a.loginFn(ctx, ui)
	}
	return a.took()
}

func (a *fakeAgent) AfterLogin(_ context.Context, provider string) (string, string, error) {
	a.call("AfterLogin %s", provider)
	if a.afterLogin != nil {
		return a.afterLogin(provider)
	}
	return "", "", nil
}

func (a *fakeAgent) lastCall() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.calls) == 0 {
		return ""
	}
	return a.calls[len(a.calls)-1]
}

func (a *fakeAgent) allCalls() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return strings.Join(a.calls, "; ")
}
