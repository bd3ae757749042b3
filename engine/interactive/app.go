package interactive

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/session"
	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/engine/tui/editor"
	"github.com/pi-go/pi/engine/tui/theme"
)

// Options configure Run.
type Options struct {
	// Version is shown in the header.
	Version string
	// Fullscreen selects the alternate-screen renderer; nil follows the
	// tuiMode setting (fullscreen unless it says "regular").
	Fullscreen *bool
	// Terminal and Input are the terminal to draw on and its input.
	Terminal tui.Terminal
	Input    io.Reader
	// Stdout receives what is printed after the UI closes (the resume
	// hint); nil is os.Stdout.
	Stdout io.Writer
	// UI is the ctx.ui backend the agent was built with (NewUI); Run
	// attaches it to the screen. Nil: extensions see no UI of this mode.
	UI *UI
	// Theme colours everything; nil draws without colours.
	Theme *theme.Theme
	// Initial is the prompt to submit at start (pi "prompt"), with its
	// images; Messages are further prompts, each sent once the previous
	// one settled.
	Initial       string
	InitialImages []engine.Content
	Messages      []string
	// Resume opens the session picker at start (-r).
	Resume bool
	// Warnings are shown in the header (start-up diagnostics).
	Warnings []string
	// DefaultSessionDir is the session directory pi uses without
	// --session-dir; a session elsewhere gets --session-dir in the
	// resume hint.
	DefaultSessionDir string
}

// uiProgram is the part of *tui.Program the app uses.
type uiProgram interface {
	SetBody(c tui.Component)
	SetDock(c tui.Component)
	SetFocus(c tui.Component)
	Post(fn func())
	RequestRender()
	Reprint()
	Quit()
	Run(ctx context.Context, onEvent func(tui.Event)) error
	Every(d time.Duration, fn func()) (stop func())
	After(d time.Duration, fn func()) (stop func())
	ReleaseTerminal() error
	RestoreTerminal() error
	Suspend() error
	WriteRaw(s string)
	SetProgress(active bool)
	SetColorSchemeNotifications(on bool)
	SetProgramStatus(s tui.ProgramStatus)
}

// app is the interactive mode's state; every field is owned by the UI
// goroutine.
type app struct {
	ctx  context.Context
	c    Controller
	o    Options
	p    uiProgram
	km   *tui.Keymap
	v    *view
	term tui.Terminal

	tr          *Transcript
	head        *header
	foot        *footer
	queue       *pendingArea
	above       *widgetArea
	below       *widgetArea
	editor      *editor.Editor
	commands    *editor.CommandProvider
	dialog      tui.Component // shown in the editor's place, when set
	dialogStack []tui.Component
	stopTicks   func()
	dock        *tui.Container
	sess        *engine.Session
	status      *noticeItem // the last status line, updated in place
	exitCode    int

	streaming    bool
	spinner      int
	stopSpinner  func()
	stopProgress func() // the OSC 9;4 keepalive while a turn or compaction runs

	colors           *colorReplies         // the terminal colour query under way
	termColors       *theme.TerminalColors // what the terminal reported, nil before
	scheme           string                // the terminal's last light/dark report, "" before
	themeFromSetting bool
	bugHinted        bool            // the /bug hint was shown
	pstatus          *programStatus  // the OSC 7501 program status
	clipboard        clipboardReader // the system clipboard (tests give a fake)                  // the theme is the setting's (not Options.Theme), so it follows the terminal
	working          string          // the top rule's label while working
	lastCtrlC        time.Time
	lastEscape       time.Time
	bashCancel       context.CancelFunc
	messages         []string // prompts still to send (Options.Messages)
	unsub            func()
	quitting         bool
}

// Run runs the interactive mode until the user exits. It returns nil on
// a normal exit.
func Run(ctx context.Context, c Controller, o Options) error {
	a, err := newApp(ctx, c, o)
	if err != nil {
		return err
	}
	return a.run()
}

func newApp(ctx context.Context, c Controller, o Options) (*app, error) {
	km, kwarn := buildKeymap(c.AgentDir())
	fromSetting := o.Theme == nil
	if o.Theme == nil {
		name, _ := c.Setting("theme").(string)
		th, err := theme.Load(name, []string{filepath.Join(c.AgentDir(), "themes"), filepath.Join(c.Cwd(), ".pi", "themes")})
		if err != nil {
			kwarn = append(kwarn, "Warning: theme: "+err.Error())
			th = theme.Dark()
		}
		o.Theme = th
	}
	home, _ := os.UserHomeDir()
	v := &view{th: o.Theme, expandKey: firstKey(km, "app.tools.expand"), cwd: c.Cwd(), home: home,
		thinkingLabel: "Thinking...", hideThinking: settingBool(c, "hideThinkingBlock")}
	a := &app{ctx: ctx, c: c, o: o, km: km, v: v, term: o.Terminal, messages: o.Messages, themeFromSetting: fromSetting,
		pstatus: newProgramStatus()}
	a.loadImageSettings()
	a.tr = newTranscript(v)
	a.tr.costs = &costNotices{
		on: func() bool { return settingBool(c, "showCacheMissNotices") },
		entries: func() []*engine.Entry {
			if _, store := c.Current(); store != nil {
				return store.Entries()
			}
			return nil
		},
		branch: func() []*engine.Entry {
			if _, store := c.Current(); store != nil {
				return store.Branch()
			}
			return nil
		},
		models: func(provider, id string) *engine.Model {
			// Past requests are priced by any model the registry knows,
			// signed in or not, as the reference's model runtime does.
			if f, ok := c.(interface {
				FindModel(provider, id string) *engine.Model
			}); ok {
				return f.FindModel(provider, id)
			}
			for _, m := range c.AvailableModels() {
				if m.Provider == provider && m.ID == id {
					return m
				}
			}
			return nil
		},
	}
	a.head = &header{v: v, version: o.Version, keys: func(action string) string { return firstKey(km, action) },
		logo: os.Getenv("TERM_PROGRAM") != "Apple_Terminal"}
	a.head.warnings = append(append(append([]string(nil), o.Warnings...), kwarn...), c.SettingWarnings()...)
	a.head.resources = a.resourceGroups()
	a.foot = &footer{v: v, cwd: c.Cwd(), branch: gitBranch(c.Cwd()), statuses: map[string]string{}}
	a.queue = &pendingArea{v: v, dequeue: firstKey(km, "app.message.dequeue")}
	a.above, a.below = &widgetArea{v: v}, &widgetArea{v: v}
	a.editor = a.newEditor()
	a.dock = &tui.Container{}
	a.layoutDock()

	return a, nil
}

// resourceGroups are the header's listings of what was loaded.
func (a *app) resourceGroups() []resourceGroup {
	templates, skills := a.c.Resources()
	var tp, sp []string
	for _, t := range templates {
		tp = append(tp, t.FilePath)
	}
	for _, s := range skills {
		sp = append(sp, s.FilePath)
	}
	return []resourceGroup{
		{"Context", a.c.ContextFiles()}, {"Skills", sp}, {"Prompts", tp}, {"Extensions", a.c.LoadedExtensions()},
	}
}

// newEditor builds the prompt editor with its completions: slash
// commands (built-in, extension, templates, skills) and @ files.
func (a *app) newEditor() *editor.Editor {
	maxVisible := 0
	if n, ok := a.c.Setting("autocompleteMaxVisible").(float64); ok {
		maxVisible = int(n)
	}
	th := a.v.th
	ed := editor.New(a.km, editor.Options{
		PaddingX:               settingInt(a.c, "editorPaddingX"),
		AutocompleteMaxVisible: maxVisible,
		TerminalRows: func() int {
			if a.term != nil {
				if _, h, err := a.term.Size(); err == nil {
					return h
				}
			}
			return 24
		},
		AppKeys: a.appKey,
		Post:    func(fn func()) { a.p.Post(fn) },
		RequestRender: func() {
			if a.p != nil {
				a.p.RequestRender()
			}
		},
		Styles: editor.Styles{
			Selected:    func(s string) string { return th.Fg("accent", s) },
			Description: func(s string) string { return th.Fg("muted", s) },
			ScrollInfo:  func(s string) string { return th.Fg("dim", s) },
		},
	})
	ed.OnSubmit = a.submit
	ed.OnChange = a.editorChanged
	a.commands = editor.NewCommandProvider(a.commandList())
	ed.SetProviders(a.commands, editor.NewFileProvider(a.c.Cwd()))
	return ed
}

// commandList is what "/" completes: the built-in commands, then the
// extensions', the prompt templates and the skills.
func (a *app) commandList() []editor.Command {
	var out []editor.Command
	out = append(out, a.builtinCommands()...)
	for _, c := range a.c.Commands() {
		d := ""
		if c.Description != nil {
			d = *c.Description
		}
		out = append(out, editor.Command{Name: c.Name, Description: d})
	}
	templates, skills := a.c.Resources()
	for _, t := range templates {
		out = append(out, editor.Command{Name: t.Name, Description: t.Description, ArgumentHint: t.ArgumentHint})
	}
	// enableSkillCommands (default true) decides whether skills are
	// offered here, as in the reference; typed, they expand either way.
	if on, set := a.c.Setting("enableSkillCommands").(bool); on || !set {
		for _, s := range skills {
			out = append(out, editor.Command{Name: "skill:" + s.Name, Description: s.Description})
		}
	}
	return out
}

func settingInt(c Controller, path string) int {
	n, _ := c.Setting(path).(float64)
	return int(n)
}

func settingBool(c Controller, path string) bool {
	b, _ := c.Setting(path).(bool)
	return b
}

// layoutDock stacks the bottom of the screen: queued messages, widgets
// above the editor, the editor (or a dialog in its place), widgets below
// it, the footer.
func (a *app) layoutDock() {
	a.dock.Clear()
	slot := tui.Component(a.editor)
	if a.dialog != nil {
		slot = a.dialog
	}
	a.dock.Add(a.queue, a.above, spacer(1), slot, a.below, a.foot)
}

// programOptions are the renderer's options from the settings.
func (a *app) programOptions() tui.ProgramOptions {
	full := true
	if a.o.Fullscreen != nil {
		full = *a.o.Fullscreen
	} else if m, _ := a.c.Setting("tuiMode").(string); m == "regular" {
		full = false
	}
	boolSetting := func(path string, def bool) bool {
		if b, ok := a.c.Setting(path).(bool); ok {
			return b
		}
		return def
	}
	wheel := 0
	if n, ok := a.c.Setting("fullscreenWheelScrollLines").(float64); ok && n > 0 {
		wheel = int(n)
	}
	exitOut, _ := a.c.Setting("fullscreenExitOutput").(string)
	// fullscreenScrollbar is "auto" (the default: shown while scrolling),
	// "always" or "hidden".
	bar, _ := a.c.Setting("fullscreenScrollbar").(string)
	th := a.v.th
	return tui.ProgramOptions{
		Fullscreen: full, Keymap: a.km, ProgramStatus: os.Getenv("PI_PROGRAM_STATUS"),
		ShowHardwareCursor: boolSetting("showHardwareCursor", os.Getenv("PI_HARDWARE_CURSOR") == "1"),
		ClearOnShrink:      boolSetting("terminal.clearOnShrink", os.Getenv("PI_CLEAR_ON_SHRINK") == "1"),
		Scrollbar:          bar == "always",
		ScrollbarAuto:      bar != "always" && bar != "hidden",
		WheelLines:         wheel,
		CopyOnSelect:       boolSetting("fullscreenCopyOnSelect", true),
		PrintBodyOnExit:    full && exitOut != "none",
		JumpLabelStyle:     func(s string) string { return th.Fg("accent", s) },
		ScrollbarStyle:     func(s string) string { return th.Fg("scrollbarThumb", s) },
		// The search's matches on searchMatchBg, underlined; the selected
		// one in bold reverse video, as the reference draws them.
		SearchMatchStyle: func(s string) string {
			return "\x1b[4m" + th.Bg("searchMatchBg", th.Fg("searchMatchText", s)) + "\x1b[24m"
		},
		SearchCurrentStyle: func(s string) string {
			return "\x1b[1m\x1b[7m" + th.Bg("searchMatchBg", th.Fg("searchMatchText", s)) + "\x1b[27m\x1b[22m"
		},
	}
}

func (a *app) run() error {
	term, in := a.o.Terminal, a.o.Input
	if term == nil {
		pt, err := tui.NewProcessTerminal(os.Stdin, os.Stdout)
		if err != nil {
			return err
		}
		term, in = pt, pt.Input()
	}
	a.term = term
	p := tui.NewProgram(term, in, a.programOptions())
	a.p = p
	a.setup()
	if a.o.UI != nil {
		defer a.o.UI.detach()
	}
	defer a.unsub()
	err := p.Run(a.ctx, a.onEvent)
	return a.finish(err)
}

// setup builds the screen on the program (before Run, or on its UI
// goroutine) and starts following the agent.
func (a *app) setup() {
	a.p.SetBody(a.tr)
	a.p.SetDock(a.dock)
	a.p.SetFocus(a.editor)
	a.sess = a.c.Session()
	a.replay()
	a.noteCompactions()
	a.refreshFooter()
	a.editorChanged()
	a.setTitle("π - " + filepath.Base(a.c.Cwd()))
	a.p.Post(func() { a.queryTerminalColors(); a.syncColorScheme(); a.reportStatus() })
	if a.v.images != tui.ImagesNone {
		// Images are sized by the cell's pixels: ask for them.
		a.p.Post(func() { a.p.WriteRaw(tui.CellSizeQuery) })
	}
	a.unsub = a.c.Subscribe(func(e engine.Event) { a.p.Post(func() { a.handleEvent(e) }) })
	if a.o.UI != nil {
		a.o.UI.attach(a)
	}
	if a.o.Resume {
		a.p.Post(func() {
			if !a.runSlash("resume", "", "/resume") {
				a.showError("Error: the session picker is not in this build yet")
			}
		})
	}
	if a.o.Initial != "" || len(a.o.InitialImages) > 0 {
		a.p.Post(func() { a.prompt(a.o.Initial, a.o.InitialImages) })
	}
}

// finish runs after the program's loop ended with err.
func (a *app) finish(err error) error {
	if a.stopSpinner != nil {
		a.stopSpinner()
	}
	a.setProgress(false)
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	a.printResumeHint()
	return nil
}

// printResumeHint tells how to come back to a saved session, as the
// reference does on exit.
func (a *app) printResumeHint() {
	_, store := a.c.Current()
	if store == nil || store.Path() == "" {
		return
	}
	if _, err := os.Stat(store.Path()); err != nil {
		return
	}
	out := a.o.Stdout
	if out == nil {
		out = os.Stdout
	}
	cmd := "pi"
	if dir := filepath.Dir(store.Path()); a.o.DefaultSessionDir != "" && filepath.Clean(dir) != filepath.Clean(a.o.DefaultSessionDir) {
		cmd += " --session-dir " + shellQuote(dir)
	}
	cmd += " --session " + store.Header().ID
	fmt.Fprintf(out, "%s\n%s\n", a.v.fg("dim", "To resume this session:"), cmd)
}

func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// replay rebuilds the transcript from the current session's branch.
func (a *app) replay() {
	_, store := a.c.Current()
	var branch []*engine.Entry
	if store != nil {
		branch = store.Branch()
	}
	keep := []tui.Component{}
	if !settingBool(a.c, "quietStartup") {
		keep = append(keep, a.head)
	}
	a.tr.Replay(branch, keep...)
	a.status = nil
	for _, e := range branch {
		if e.Type == engine.EntryMessage && e.Message != nil && e.Message.Role == engine.RoleUser {
			if t := userText(e.Message); t != "" {
				a.editor.AddHistory(t)
			}
		}
	}
	a.p.Reprint()
}

// noteCompactions says, when a session opens, how often it was compacted
// (its earlier history is then only in the summary).
func (a *app) noteCompactions() {
	_, store := a.c.Current()
	if store == nil {
		return
	}
	n := 0
	for _, e := range store.Entries() {
		if e.Type == engine.EntryCompaction {
			n++
		}
	}
	switch {
	case n == 1:
		a.showStatus("Session compacted 1 time")
	case n > 1:
		a.showStatus(fmt.Sprintf("Session compacted %d times", n))
	}
}

// refreshFooter recomputes the footer from the session (after a reply,
// a switch, a model change).
func (a *app) refreshFooter() {
	sess, store := a.c.Current()
	if sess == nil {
		return
	}
	st := sess.State()
	a.foot.model, a.foot.thinking, a.foot.autoCompact = st.Model, st.ThinkingLevel, st.AutoCompactionEnabled
	a.foot.sessionName = st.SessionName
	if sf, ok := any(store).(*session.File); ok && sf != nil {
		a.foot.stats = computeStats(sf, st.Model)
	}
	providers := map[string]bool{}
	for _, m := range a.c.AvailableModels() {
		providers[m.Provider] = true
	}
	a.foot.providers = len(providers)
	a.foot.changed()
	a.editorChanged()
	a.p.RequestRender()
}

// editorChanged recolours the editor's rules: bash mode when the text
// starts with "!", else the thinking level's colour.
func (a *app) editorChanged() {
	token := "thinking" + capitalize(string(a.foot.thinking))
	if a.foot.thinking == "" {
		token = "thinkingOff"
	}
	if strings.HasPrefix(a.editor.Text(), "!") {
		token = "bashMode"
	}
	th := a.v.th
	a.editor.SetBorderStyle(func(s string) string { return th.Fg(token, s) })
	if a.p != nil {
		a.p.RequestRender()
	}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// setTitle writes the terminal title (OSC 0). It runs on the UI
// goroutine, the only writer of the terminal.
func (a *app) setTitle(title string) {
	if a.term != nil {
		_, _ = io.WriteString(a.term, "\x1b]0;"+tui.Strip(title)+"\x07")
	}
}

// showStatus appends a dim status line, or updates the last one when it
// is still the newest item (as the reference does for repeated toggles).
func (a *app) showStatus(text string) {
	if a.status != nil && a.tr.Len() > 0 && a.tr.items[a.tr.Len()-1] == a.status {
		a.status.text = text
		a.status.c.valid = false
		a.tr.touch(a.status)
	} else {
		a.status = &noticeItem{v: a.v, token: "dim", text: text}
		a.tr.add(a.status)
	}
	a.p.RequestRender()
}

func (a *app) showError(text string) {
	a.tr.notice("error", text)
	a.p.RequestRender()
}

func (a *app) showWarning(text string) {
	a.tr.notice("warning", text)
	a.p.RequestRender()
}
