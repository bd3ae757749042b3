package jsruntime

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/dop251/goja"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/compaction"
)

// ctxRuns numbers the session's runs, so ctx.signal is one AbortSignal per
// run: handlers of the same run share it, the next run gets a new one.
type ctxRuns struct {
	last any
	id   int
}

// runState is G.runState(): "" when the session is idle, else
// "<run number>:<1 if aborted, else 0>". When a run is first seen, its end
// is watched: an aborted run aborts its JS signal even if no handler asks
// again (a handler may be waiting on it).
func (a *API) runState() string {
	s := a.session()
	if s == nil {
		return ""
	}
	run, aborted := s.RunState()
	if run == nil {
		return ""
	}
	a.mu.Lock()
	if run != a.runIDs.last {
		a.runIDs.last = run
		a.runIDs.id++
		if done, ok := run.(chan struct{}); ok {
			go a.watchRun(s, done, a.runIDs.id)
		}
	}
	id := a.runIDs.id
	a.mu.Unlock()
	ab := 0
	if aborted {
		ab = 1
	}
	return fmt.Sprintf("%d:%d", id, ab)
}

// watchRun aborts run id's signal (api.js G.abortRun) once the run ends
// aborted.
func (a *API) watchRun(s *engine.Session, done chan struct{}, id int) {
	<-done
	if !s.WasAborted() {
		return
	}
	_ = a.rt.loop.Do(context.Background(), func(vm *goja.Runtime) error {
		if a.bridgeObj == nil {
			return nil
		}
		if fn, ok := goja.AssertFunction(a.bridgeObj.Get("abortRun")); ok {
			_, err := fn(goja.Undefined(), vm.ToValue(fmt.Sprint(id)))
			return err
		}
		return nil
	})
}

// ctxCall answers the ctx getters that read the session's state. ok is
// false for other names.
func (a *API) ctxCall(name string, _ []json.RawMessage) (v any, ok bool, err error) {
	switch name {
	case "getContextUsage":
		s := a.session()
		if s == nil {
			return nil, true, nil
		}
		if u := contextUsage(s.Store().Branch(), s.UsageModel()); u != nil {
			return u, true, nil
		}
		return nil, true, nil
	case "getSystemPrompt":
		s := a.session()
		if s == nil {
			return "", true, nil
		}
		return s.SystemPromptText(), true, nil
	}
	return nil, false, nil
}

// ctxUsage is ctx.getContextUsage()'s object. Tokens and Percent are null
// after a compaction until a reply reports usage again.
type ctxUsage struct {
	Tokens        *int     `json:"tokens"`
	ContextWindow int      `json:"contextWindow"`
	Percent       *float64 `json:"percent"`
}

// contextUsage estimates how full the model's context is, as the
// reference does (and as get_session_stats reports it): undefined without
// a model or a context window.
func contextUsage(branch []*engine.Entry, model *engine.Model) *ctxUsage {
	if model == nil || model.ContextWindow <= 0 || !declaresContextWindow(model) {
		return nil
	}
	window := model.ContextWindow
	last := -1
	for i, e := range branch {
		if e.Type == engine.EntryCompaction {
			last = i
		}
	}
	if last >= 0 {
		index := map[string]int{}
		for i, e := range branch {
			index[e.ID] = i
		}
		trusted := false
		for _, pe := range engine.ProjectContext(branch) {
			for _, m := range pe.Messages {
				if usableUsage(m) && index[pe.Entry.ID] > last {
					trusted = true
				}
			}
		}
		if !trusted {
			return &ctxUsage{ContextWindow: window}
		}
	}
	tokens := compaction.ProjectedTokens(branch)
	pct := float64(tokens) / float64(window) * 100
	return &ctxUsage{Tokens: &tokens, ContextWindow: window, Percent: &pct}
}

// usableUsage reports whether an assistant reply's usage measures the
// context: a finished reply that counted tokens.
func usableUsage(m *engine.Message) bool {
	if m.Role != engine.RoleAssistant || m.StopReason == engine.StopAborted || m.StopReason == engine.StopError {
		return false
	}
	u := m.Usage
	if u.TotalTokens != 0 {
		return u.TotalTokens > 0
	}
	return u.Input+u.Output+u.CacheRead+u.CacheWrite > 0
}

// declaresContextWindow reports whether the model states its context
// window. An extension's model definition may leave it out; requests then
// use a default, but the reference reports no usage for it.
func declaresContextWindow(m *engine.Model) bool {
	if len(m.Raw) == 0 {
		return true
	}
	keys, _, err := engine.SplitObject(m.Raw)
	if err != nil {
		return true
	}
	for _, k := range keys {
		if k == "contextWindow" {
			return true
		}
	}
	return false
}
