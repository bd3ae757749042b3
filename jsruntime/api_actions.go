package jsruntime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/dop251/goja"

	"github.com/pi-go/pi/engine"
)

// errNoSession is returned by actions that need the bound session.
var errNoSession = errors.New("Extension runtime not initialized. Action methods cannot be called during extension loading.")

// args decodes a JSON array of call arguments.
func args(raw json.RawMessage) []json.RawMessage {
	var out []json.RawMessage
	_ = json.Unmarshal(raw, &out)
	return out
}

func argString(a []json.RawMessage, i int) string {
	if i >= len(a) {
		return ""
	}
	var s string
	_ = json.Unmarshal(a[i], &s)
	return s
}

// call answers a synchronous bridge call on the loop goroutine. Actions
// take effect here and now, in program order, as the reference's do: their
// records reach subscribers before the event whose handler took them. They
// never wait for extension hooks (the session may be waiting for this very
// loop); events they raise are queued on the loop (api_order.go).
func (a *API) call(name string, raw json.RawMessage) (any, error) {
	s := a.session()
	av := args(raw)
	if v, ok, err := a.providerCall(name, av); ok {
		return v, err
	}
	if v, ok, err := a.ctxCall(name, av); ok {
		return v, err
	}
	if v, ok, err := a.mcpCall(name, av); ok {
		return v, err
	}
	if v, ok, err := a.virtualCall(name, av); ok {
		return v, err
	}
	switch name {
	case "getFlag":
		a.mu.Lock()
		v, ok := a.flagValues[argString(av, 0)]
		a.mu.Unlock()
		if !ok {
			return nil, nil
		}
		return v, nil
	case "hasUI":
		return a.currentUI().HasUI(), nil
	case "isProjectTrusted":
		return a.opts.Trusted, nil
	case "getSettings":
		if a.opts.Settings == nil {
			return map[string]any{}, nil
		}
		return a.opts.Settings(), nil
	case "getCommands":
		return a.commandsForJS(), nil
	case "ui.notify":
		var p struct{ Message, Type string }
		_ = json.Unmarshal(raw, &p)
		a.currentUI().Notify(p.Message, p.Type)
		return nil, nil
	case "ui.setStatus":
		var p struct {
			Key  string  `json:"key"`
			Text *string `json:"text"`
		}
		_ = json.Unmarshal(raw, &p)
		a.currentUI().SetStatus(p.Key, p.Text)
		return nil, nil
	case "ui.setWidget":
		var p struct {
			Key       string   `json:"key"`
			Lines     []string `json:"lines"`
			Placement string   `json:"placement"`
		}
		_ = json.Unmarshal(raw, &p)
		a.currentUI().SetWidget(p.Key, p.Lines, engine.WidgetOptions{Placement: p.Placement})
		return nil, nil
	case "ui.setTitle":
		var p struct{ Title string }
		_ = json.Unmarshal(raw, &p)
		a.currentUI().SetTitle(p.Title)
		return nil, nil
	case "ui.setEditorText":
		var p struct{ Text string }
		_ = json.Unmarshal(raw, &p)
		a.currentUI().SetEditorText(p.Text)
		return nil, nil
	case "shutdown":
		if a.opts.Shutdown != nil {
			go a.opts.Shutdown()
		}
		return nil, nil
	case "getSystemPromptOptions":
		return map[string]any{"cwd": a.opts.Cwd}, nil
	case "scopedModels":
		return []any{}, nil
	}
	if s == nil {
		switch name {
		case "model", "sm.getSessionName", "getSessionName":
			return nil, nil
		case "isIdle":
			return true, nil
		case "hasPendingMessages":
			return false, nil
		case "getThinkingLevel":
			return "off", nil
		}
		return nil, errNoSession
	}
	switch name {
	case "model":
		if m := s.Model(); m != nil {
			return extModel{m}, nil
		}
		return nil, nil
	case "isIdle":
		return s.IsIdle(), nil
	case "hasPendingMessages":
		return s.PendingMessageCount() > 0, nil
	case "abort":
		go s.Abort()
		return nil, nil
	case "getThinkingLevel":
		return string(s.ThinkingLevel()), nil
	case "setThinkingLevel":
		level := engine.ThinkingLevel(argString(av, 0))
		s.SetThinkingLevel(level)
		return nil, nil
	case "getActiveTools":
		names := []string{}
		for _, t := range s.Tools() {
			names = append(names, t.Info().Name)
		}
		return names, nil
	case "getAllTools":
		return a.allToolsForJS(), nil
	case "setActiveTools":
		var names []string
		if len(av) > 0 {
			_ = json.Unmarshal(av[0], &names)
		}
		s.SetTools(a.resolveTools(names))
		return nil, nil
	case "getSessionName", "sm.getSessionName":
		a.mu.Lock()
		n := a.name
		a.mu.Unlock()
		if n != nil {
			return *n, nil
		}
		if st := s.State(); st.SessionName != "" {
			return st.SessionName, nil
		}
		return nil, nil
	case "setSessionName":
		n := argString(av, 0)
		a.mu.Lock()
		a.name = &n
		a.mu.Unlock()
		_, _ = s.SetSessionName(n)
		return nil, nil
	case "appendEntry":
		e := &engine.Entry{Type: engine.EntryCustom, CustomType: argString(av, 0)}
		if len(av) > 1 && string(av[1]) != "null" {
			e.Data = av[1]
		}
		return nil, s.AppendEntry(e)
	case "setLabel":
		var label *string
		if len(av) > 1 && string(av[1]) != "null" {
			l := argString(av, 1)
			label = &l
		}
		return nil, s.AppendLabel(argString(av, 0), label)
	case "sendMessage":
		return nil, a.sendMessage(s, av)
	case "sendUserMessage":
		return nil, a.sendUserMessage(s, av)
	}
	if v, ok, err := a.sessionManagerCall(s, name, av); ok {
		return v, err
	}
	return nil, fmt.Errorf("pi: unknown host call %q", name)
}

// sendMessage delivers {customType, content, display, details} as a
// custom message (engine.Session.SendCustom says when and how); a
// failure is an extension error, as the reference catches it. An absent
// triggerTurn differs from false while a run is active, so it stays nil.
func (a *API) sendMessage(s *engine.Session, av []json.RawMessage) error {
	var msg struct {
		CustomType string          `json:"customType"`
		Content    json.RawMessage `json:"content"`
		Display    *bool           `json:"display"`
		Details    json.RawMessage `json:"details"`
	}
	var opts struct {
		TriggerTurn *bool  `json:"triggerTurn"`
		DeliverAs   string `json:"deliverAs"`
	}
	if len(av) > 0 {
		_ = json.Unmarshal(av[0], &msg)
	}
	if len(av) > 1 {
		_ = json.Unmarshal(av[1], &opts)
	}
	m := &engine.Message{Role: engine.RoleCustom, CustomType: msg.CustomType, Display: msg.Display != nil && *msg.Display,
		DisplayOmitted: msg.Display == nil, Details: msg.Details}
	if len(msg.Content) > 0 {
		var c engine.Contents
		if err := json.Unmarshal(msg.Content, &c); err != nil {
			return fmt.Errorf("sendMessage: invalid content: %w", err)
		}
		m.Content = c
	}
	if err := s.SendCustom(m, opts.DeliverAs, opts.TriggerTurn); err != nil {
		a.reportError("<runtime>", "send_message", err.Error())
	}
	return nil
}

// sendUserMessage prompts the session as source "extension". While a run
// is active deliverAs is required, as in the reference.
func (a *API) sendUserMessage(s *engine.Session, av []json.RawMessage) error {
	text, images, deliverAs, err := userMessageArgs(av)
	if err != nil {
		return fmt.Errorf("sendUserMessage: invalid content: %w", err)
	}
	if deliverAs == "" && s.IsStreaming() && (text == "" || text[0] != '/') {
		// The reference's refusal surfaces a few promise hops later: after
		// the event being dispatched, before the run's next one, and
		// after a steer sent alongside it (api_order.go).
		e := ExtensionError{Path: "<runtime>", Event: "send_user_message", Error: engine.ErrAlreadyProcessing.Error()}
		if !a.batchSend(nil, &e) {
			a.reportAtNextEvent(e.Path, e.Event, e.Error)
		}
		return nil
	}
	if s.IsStreaming() && !a.HasHandlers("input") && (text == "" || text[0] != '/') {
		// Nothing can intercept the message, so it is queued before the
		// running handler settles (in its task's promise jobs, after its
		// synchronous code, api_order.go): a boundary handler
		// (agent_before_settle) that queues a follow-up sees the run
		// continue for it (api_session.go).
		queue := func() {
			if deliverAs == "followUp" {
				s.FollowUp(text, images)
			} else {
				s.Steer(text, images)
			}
		}
		if !a.batchSend(queue, nil) {
			queue()
		}
		return nil
	}
	s.PromptAsync(context.Background(), text, images, engine.PromptOptions{StreamingBehavior: deliverAs, Source: "extension"}, func(_ string, err error) {
		if err != nil {
			// The reference reports it for the runtime, not the extension.
			a.reportError("<runtime>", "send_user_message", err.Error())
		}
	})
	return nil
}

// callAsync answers bridge calls that return promises; it runs on its own
// goroutine, never on the loop.
func (a *API) callAsync(ctx context.Context, name string, raw json.RawMessage) (any, error) {
	s := a.session()
	switch name {
	case "waitForIdle":
		if s != nil {
			_ = s.WaitIdle(ctx)
		}
		return nil, nil
	case "setModel":
		var m engine.Model
		_ = json.Unmarshal(raw, &m)
		if s == nil || a.opts.Models == nil {
			return false, nil
		}
		found := a.opts.Models.Find(m.Provider, m.ID)
		if found == nil || !a.opts.Models.HasAuth(found) {
			return false, nil
		}
		prev := s.Model()
		if err := s.SetModel(found); err != nil {
			return false, err
		}
		fields := []Field{{"model", found}}
		if prev != nil {
			fields = append(fields, Field{"previousModel", prev})
		}
		fields = append(fields, Field{"source", "set"})
		a.Emit(ctx, "model_select", fields...)
		return true, nil
	}
	if v, ok, err := a.sessionCallAsync(ctx, name, raw); ok {
		return v, err
	}
	if v, ok, err := a.providerCallAsync(ctx, name, raw); ok {
		return v, err
	}
	if name == "models.classify" {
		return a.classify(ctx, args(raw))
	}
	return nil, fmt.Errorf("pi: unknown async host call %q", name)
}

// dialog opens a ctx.ui dialog on a goroutine and settles its promise.
func (a *API) dialog(method, raw string, ok, fail goja.Callable) int {
	var p struct {
		Title       string   `json:"title"`
		Options     []string `json:"options"`
		Message     string   `json:"message"`
		Placeholder string   `json:"placeholder"`
		Prefill     string   `json:"prefill"`
		Timeout     *float64 `json:"timeout"`
	}
	_ = json.Unmarshal([]byte(raw), &p)
	ctx, cancel := context.WithCancel(context.Background())
	a.mu.Lock()
	a.nextDialog++
	id := a.nextDialog
	a.dialogs[id] = cancel
	a.mu.Unlock()
	o := engine.DialogOptions{}
	if p.Timeout != nil && *p.Timeout > 0 {
		o.TimeoutMs = int64(*p.Timeout)
	}
	ui := a.currentUI()
	settle := a.rt.loop.Reserve()
	go func() {
		defer func() {
			cancel()
			a.mu.Lock()
			delete(a.dialogs, id)
			a.mu.Unlock()
		}()
		var v any
		switch method {
		case "select":
			if s, ok := ui.Select(ctx, p.Title, p.Options, o); ok {
				v = s
			}
		case "confirm":
			v = ui.Confirm(ctx, p.Title, p.Message, o)
		case "input":
			if s, ok := ui.Input(ctx, p.Title, p.Placeholder, o); ok {
				v = s
			}
		case "editor":
			if s, ok := ui.Editor(ctx, p.Title, p.Prefill); ok {
				v = s
			}
		}
		out := ""
		if v != nil {
			b, _ := json.Marshal(v)
			out = string(b)
		}
		settle(func(vm *goja.Runtime) { _, _ = ok(goja.Undefined(), vm.ToValue(out)) })
	}()
	return id
}

// resolveTools maps names to tools (extension tools first, then built-ins);
// unknown names are ignored.
func (a *API) resolveTools(names []string) []engine.Tool {
	var out []engine.Tool
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		if t := a.extTool(n); t != nil {
			out = append(out, t)
			continue
		}
		if a.opts.Builtin != nil {
			if t, ok := a.opts.Builtin(n, a.opts.Cwd); ok {
				out = append(out, t)
				continue
			}
		}
		if t := a.hostTool(n); t != nil {
			out = append(out, t)
		}
	}
	return out
}

// allToolsForJS is pi.getAllTools(): built-ins, then extension tools.
func (a *API) allToolsForJS() []any {
	var out []any
	// promptGuidelines and sourceInfo.baseDir travel as null where the
	// reference has undefined; the views host module restores that.
	add := func(info engine.ToolInfo, exposure string, si ordered) {
		item := ordered{{"name", info.Name}, {"description", info.Description}, {"parameters", json.RawMessage(orEmptyObject(info.Parameters))}}
		var guidelines any
		if info.PromptGuidelines != nil {
			guidelines = info.PromptGuidelines
		}
		item = append(item, Field{"promptGuidelines", guidelines}, Field{"exposure", exposure}, Field{"sourceInfo", si})
		out = append(out, item)
	}
	ext := map[string]bool{}
	for _, t := range a.ExtTools() {
		ext[t.info.Name] = true
	}
	if a.opts.Builtin != nil {
		for _, n := range a.opts.BuiltinNames {
			if ext[n] {
				continue
			}
			if t, ok := a.opts.Builtin(n, a.opts.Cwd); ok {
				add(t.Info(), "direct", ordered{{"path", "builtin:" + n}, {"source", "builtin"}, {"scope", "temporary"}, {"origin", "top-level"}, {"baseDir", nil}})
			}
		}
	}
	for _, t := range a.ExtTools() {
		add(t.info, t.Exposure(), a.extSourceInfo(t.path))
	}
	if a.opts.BuiltinExtTools != nil {
		infos, paths := a.opts.BuiltinExtTools()
		for i, info := range infos {
			add(info, "model-only", ordered{{"path", paths[i]}, {"source", "builtin"}, {"scope", "temporary"}, {"origin", "top-level"}, {"baseDir", nil}})
		}
	}
	out = append(out, a.hostToolsForJS()...)
	return out
}

// extSourceInfo is the sourceInfo of what the extension at path
// registered, labelled as the reference labels extension resources (and
// as get_commands does): CLI extensions are temporary, and the user and
// project scopes name the folder they were found under.
func (a *API) extSourceInfo(path string) ordered {
	var src Source
	if a.rt != nil {
		for _, e := range a.rt.Extensions() {
			if e.Path == path {
				src = e.Source
				break
			}
		}
	}
	scope := src.Scope
	if scope == ScopeCLI || scope == "" {
		scope = "temporary"
	}
	source := src.Source
	if source == "" {
		source = SourceCLI
	}
	var baseDir any
	switch src.Scope {
	case ScopeProject:
		baseDir = filepath.Join(a.opts.Cwd, ".pi")
	case ScopeUser:
		if a.rt != nil && a.rt.opts.AgentDir != "" {
			baseDir = a.rt.opts.AgentDir
		}
	}
	if src.Origin != "" {
		// A pi package's extension (packages.Resolved): its declared
		// source, scope and package root.
		return ordered{{"path", path}, {"source", source}, {"scope", src.Scope}, {"origin", src.Origin}, {"baseDir", src.BaseDir}}
	}
	return ordered{{"path", path}, {"source", source}, {"scope", scope}, {"origin", "top-level"}, {"baseDir", baseDir}}
}

func orEmptyObject(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("{}")
	}
	return b
}

// commandsForJS is pi.getCommands(): extension commands, then templates
// and skills.
func (a *API) commandsForJS() []any {
	var out []any
	ctx := context.Background()
	_ = ctx
	for _, c := range a.commandsOnLoop() {
		item := ordered{{"name", c.Name}}
		if c.Description != nil {
			item = append(item, Field{"description", *c.Description})
		}
		item = append(item, Field{"source", "extension"}, Field{"sourceInfo", a.extSourceInfo(c.Path)})
		out = append(out, item)
	}
	if a.opts.ExtraCommands != nil {
		for _, c := range a.opts.ExtraCommands() {
			item := ordered{{"name", c.Name}}
			if c.Description != nil {
				item = append(item, Field{"description", *c.Description})
			}
			item = append(item, Field{"source", c.Source})
			if c.SourceInfo != nil {
				item = append(item, Field{"sourceInfo", c.SourceInfo})
			}
			out = append(out, item)
		}
	}
	return out
}

// commandsOnLoop lists commands from the loop goroutine itself.
func (a *API) commandsOnLoop() []CommandInfo {
	v, err := a.commandListFn(goja.Undefined())
	if err != nil {
		return nil
	}
	var list []struct {
		Name        string  `json:"name"`
		Description *string `json:"description"`
		Path        string  `json:"path"`
	}
	b, _ := json.Marshal(v.Export())
	_ = json.Unmarshal(b, &list)
	out := make([]CommandInfo, 0, len(list))
	for _, c := range list {
		out = append(out, CommandInfo{Name: c.Name, Description: c.Description, Source: "extension", Path: c.Path})
	}
	return out
}
