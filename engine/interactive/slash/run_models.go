package slash

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/interactive/dialogs"
)

func settingString(a Agent, key string) string {
	s, _ := a.Setting(key).(string)
	return s
}

func runSettings(_ context.Context, h Host, _ string) error {
	a := h.Agent()
	env := dialogs.PiSettingsEnv{
		Get: a.Setting,
		Set: func(key string, v any) error {
			if err := a.SetGlobalSetting(key, v); err != nil {
				return err
			}
			h.SettingChanged(key, v)
			return nil
		},
		Themes: h.Themes(),
		Models: a.AvailableModels(),
	}
	if p, ok := h.(ThemePreviewer); ok {
		env.Preview = p.PreviewTheme
		env.Appearance = p.TerminalAppearance()
	}
	if im, ok := h.(ImageDrawer); ok {
		env.Images = im.DrawsImages()
	}
	h.ShowDialog(dialogs.PiSettings(h.Style(), env, h.CloseDialog))
	return nil
}

// setModel selects m for the session (and, with persist, as the
// default). The switch runs the extensions' model_select handlers, so it
// runs off the UI goroutine.
func setModel(ctx context.Context, h Host, m *engine.Model, persist bool) {
	a := h.Agent()
	background(h, func() error {
		_, err := a.SetModel(ctx, m.Provider, m.ID)
		return err
	}, func(err error) {
		if err != nil {
			_ = fail(h, "%s", err.Error())
			return
		}
		_ = modelSet(h, m, persist)
	})
}

func modelSet(h Host, m *engine.Model, persist bool) error {
	a := h.Agent()
	if persist {
		if err := a.SetGlobalSetting("defaultProvider", m.Provider); err != nil {
			return fail(h, "Could not save the default model: %w", err)
		}
		if err := a.SetGlobalSetting("defaultModel", m.ID); err != nil {
			return fail(h, "Could not save the default model: %w", err)
		}
		h.Notify(Info, fmt.Sprintf("Default model: %s/%s", m.Provider, m.ID))
		return nil
	}
	h.Notify(Info, "Model: "+m.ID)
	return nil
}

// matchModel finds the one model a /model argument names: provider/id,
// or an id that only one provider has.
func matchModel(models []*engine.Model, ref string) *engine.Model {
	var byID []*engine.Model
	for _, m := range models {
		if strings.EqualFold(m.Provider+"/"+m.ID, ref) {
			return m
		}
		if strings.EqualFold(m.ID, ref) {
			byID = append(byID, m)
		}
	}
	if len(byID) == 1 {
		return byID[0]
	}
	return nil
}

func runModel(ctx context.Context, h Host, args string) error {
	a := h.Agent()
	models := a.AvailableModels()
	if args != "" {
		if m := matchModel(models, args); m != nil {
			setModel(ctx, h, m, false)
			return nil
		}
	}
	ShowModelSelector(ctx, h, args)
	return nil
}

// ShowModelSelector opens the model picker (/model, and Ctrl+L) with query
// in its search field; with a --models or enabledModels scope it opens on
// the scoped models (Tab shows all).
func ShowModelSelector(ctx context.Context, h Host, query string) {
	a := h.Agent()
	var scoped []*engine.Model
	for _, c := range a.ScopedModels() {
		scoped = append(scoped, c.Model)
	}
	refresher, canRefresh := a.(CatalogRefresher)
	ctx, stop := context.WithCancel(ctx)
	status := ""
	if canRefresh {
		status = "Refreshing model catalogs…"
	}
	var ms *dialogs.ModelSelector
	ms = dialogs.NewModelSelector(h.Style(), dialogs.ModelSelectorOptions{
		Models: a.AvailableModels(), Scoped: scoped, Current: dialogs.Of(a.Model()),
		Default: dialogs.ModelKey{Provider: settingString(a, "defaultProvider"), ID: settingString(a, "defaultModel")},
		Query:   query,
		Status:  status,
		OnSelect: func(m *engine.Model) {
			stop()
			h.CloseDialog()
			setModel(ctx, h, m, false)
		},
		OnSetDefault: func(m *engine.Model) {
			stop()
			h.CloseDialog()
			setModel(ctx, h, m, true)
		},
		OnCancel: func() { stop(); h.CloseDialog() },
	})
	h.ShowDialog(ms)
	if !canRefresh {
		stop()
		return
	}
	// The picker refreshes the catalogues of providers that load their
	// models (Radius, extension providers with refreshModels) while it
	// shows, as the reference's does; closing it cancels the refresh.
	rctx, cancel := context.WithTimeout(ctx, catalogRefreshTimeout)
	h.Go(func() {
		errs := refresher.RefreshModelCatalogs(rctx)
		timedOut := errors.Is(rctx.Err(), context.DeadlineExceeded)
		cancel()
		h.Post(func() {
			if ms.Done() {
				return
			}
			ok, errText := refreshOutcome(errs, timedOut)
			if ok {
				ms.SetRefreshResult("Model catalogs refreshed.", true, "", a.AvailableModels())
			} else {
				ms.SetRefreshResult("", false, errText, a.AvailableModels())
			}
		})
	})
}

// catalogRefreshTimeout bounds the picker's catalogue refresh, as the
// reference's 15 seconds.
const catalogRefreshTimeout = 15 * time.Second

// CatalogRefresher is an agent that can refresh the model catalogues of
// the providers that load them; it returns the failures by provider.
type CatalogRefresher interface {
	RefreshModelCatalogs(ctx context.Context) map[string]string
}

// refreshOutcome words a refresh's result as the picker shows it.
func refreshOutcome(errs map[string]string, timedOut bool) (ok bool, errText string) {
	switch {
	case timedOut:
		return false, "Model refresh timed out; showing cached models."
	case len(errs) == 1:
		for name := range errs {
			return false, "Could not refresh " + name + "; showing cached models."
		}
	case len(errs) > 1:
		names := make([]string, 0, len(errs))
		for name := range errs {
			names = append(names, name)
		}
		sort.Strings(names)
		return false, fmt.Sprintf("Could not refresh %d model catalogs (%s); showing cached models.", len(errs), strings.Join(names, ", "))
	}
	return true, ""
}

func setThinking(h Host, l engine.ThinkingLevel, persist bool) error {
	a := h.Agent()
	eff := a.SetThinkingLevel(l)
	if persist {
		if err := a.SetGlobalSetting("defaultThinkingLevel", string(eff)); err != nil {
			return fail(h, "Could not save the default thinking level: %w", err)
		}
		h.Notify(Info, "Default thinking level: "+string(eff))
		return nil
	}
	h.Notify(Info, "Thinking level: "+string(eff))
	return nil
}

func runThinking(_ context.Context, h Host, args string) error {
	a := h.Agent()
	levels := engine.SupportedThinkingLevels(a.Model())
	if args != "" {
		l, ok := engine.ParseThinkingLevel(strings.ToLower(args))
		supported := false
		for _, s := range levels {
			supported = supported || s == l
		}
		if !ok || !supported {
			names := make([]string, len(levels))
			for i, s := range levels {
				names[i] = string(s)
			}
			return fail(h, "Unknown thinking level %q for this model. Levels: %s", args, strings.Join(names, ", "))
		}
		return setThinking(h, l, false)
	}
	def, _ := engine.ParseThinkingLevel(settingString(a, "defaultThinkingLevel"))
	h.ShowDialog(dialogs.NewThinkingSelector(h.Style(), dialogs.ThinkingSelectorOptions{
		Levels: levels, Current: a.ThinkingLevel(), Default: def,
		OnSelect: func(l engine.ThinkingLevel) { h.CloseDialog(); _ = setThinking(h, l, false) },
		OnSave:   func(l engine.ThinkingLevel) { h.CloseDialog(); _ = setThinking(h, l, true) },
		OnCancel: h.CloseDialog,
	}))
	return nil
}

func runScopedModels(_ context.Context, h Host, _ string) error {
	a := h.Agent()
	var enabled []string
	if sc := a.ScopedModels(); len(sc) > 0 {
		enabled = []string{}
		for _, c := range sc {
			enabled = append(enabled, c.Model.Provider+"/"+c.Model.ID)
		}
	}
	h.ShowDialog(dialogs.NewScopedModels(h.Style(), dialogs.ScopedModelsOptions{
		Models: a.AvailableModels(), Enabled: enabled,
		OnChange: a.SetModelScope,
		OnSave: func(ids []string) {
			var v any = ids
			if ids == nil {
				// Every model: the setting says so by listing none.
				v = []string{}
			}
			if err := a.SetGlobalSetting("enabledModels", v); err != nil {
				_ = fail(h, "Could not save the model scope: %w", err)
				return
			}
			h.Notify(Info, "Saved the model scope to settings")
		},
		OnClose: h.CloseDialog,
	}))
	return nil
}
