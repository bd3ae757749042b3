package rpc

import (
	"context"
	"errors"
	"fmt"

	"github.com/pi-go/pi/engine"
)

// errCompactionUnavailable answers compact until the compaction engine is
// wired in.
var errCompactionUnavailable = errors.New("compaction not available yet")

func handleGetState(ctx context.Context, s *Server, cmd *Command) *Response {
	sess, _ := s.current()
	st := sess.State()
	st.IsCompacting = s.compacting(sess)
	if st.Model == nil {
		st.Model = PlaceholderModel()
	}
	return ok(cmd, st)
}

// PlaceholderModel is the model the reference reports when none is
// configured at all; RPC mode starts with it and refuses prompts.
func PlaceholderModel() *engine.Model {
	return &engine.Model{ID: "unknown", Name: "unknown", API: "unknown", Provider: "unknown", Input: []string{}, Placeholder: true}
}

// isPlaceholder reports whether m is PlaceholderModel's model.
func isPlaceholder(m *engine.Model) bool {
	return m != nil && m.Provider == "unknown" && m.ID == "unknown" && m.API == "unknown"
}

type messagesData struct {
	Messages []*engine.Message `json:"messages"`
}

func handleGetMessages(ctx context.Context, s *Server, cmd *Command) *Response {
	sess, _ := s.current()
	msgs := sess.Messages()
	if msgs == nil {
		msgs = []*engine.Message{}
	}
	return ok(cmd, messagesData{msgs})
}

func handleSetModel(ctx context.Context, s *Server, cmd *Command) *Response {
	var f struct {
		Provider *string `json:"provider"`
		ModelID  *string `json:"modelId"`
	}
	if err := fields(cmd, &f); err != nil {
		return fail(cmd, err)
	}
	return setModel(s, cmd, jsString(f.Provider), jsString(f.ModelID))
}

// jsString prints a missing string field the way the reference's
// template strings do.
func jsString(p *string) string {
	if p == nil {
		return "undefined"
	}
	return *p
}

func setModel(s *Server, cmd *Command, provider, modelID string) *Response {
	f := struct{ Provider, ModelID string }{provider, modelID}
	var found *engine.Model
	for _, m := range s.ctl.AvailableModels() {
		if m.Provider == f.Provider && m.ID == f.ModelID {
			found = m
			break
		}
	}
	if found == nil {
		// The reference looks only among models with credentials, so a
		// known model without a key is "not found" too.
		return fail(cmd, fmt.Errorf("Model not found: %s/%s", f.Provider, f.ModelID))
	}
	sess, _ := s.current()
	if err := sess.SelectModel(context.Background(), found); err != nil {
		return fail(cmd, err)
	}
	return ok(cmd, found)
}

type cycleModelData struct {
	Model         *engine.Model        `json:"model"`
	ThinkingLevel engine.ThinkingLevel `json:"thinkingLevel"`
	IsScoped      bool                 `json:"isScoped"`
}

func handleCycleModel(ctx context.Context, s *Server, cmd *Command) *Response {
	sess, _ := s.current()
	choices := s.ctl.ScopedModels()
	scoped := len(choices) > 0
	if !scoped {
		for _, m := range s.ctl.AvailableModels() {
			choices = append(choices, ScopedModel{Model: m})
		}
	}
	next, level, moved, err := sess.CycleModel(ctx, choices, scoped)
	if err != nil {
		return fail(cmd, err)
	}
	if !moved {
		return okNull(cmd)
	}
	return ok(cmd, cycleModelData{Model: next, ThinkingLevel: level, IsScoped: scoped})
}

type modelsData struct {
	Models []*engine.Model `json:"models"`
}

func handleGetAvailableModels(ctx context.Context, s *Server, cmd *Command) *Response {
	models := s.ctl.AvailableModels()
	if models == nil {
		models = []*engine.Model{}
	}
	return ok(cmd, modelsData{models})
}

func handleSetThinkingLevel(ctx context.Context, s *Server, cmd *Command) *Response {
	var f struct {
		Level string `json:"level"`
	}
	if err := fields(cmd, &f); err != nil {
		return fail(cmd, err)
	}
	// Like the reference, the command never fails: an unknown level
	// changes nothing, a known one is clamped to the model.
	if level, valid := engine.ParseThinkingLevel(f.Level); valid {
		sess, _ := s.current()
		sess.SetThinkingLevel(level)
	}
	return ok(cmd, nil)
}

type levelData struct {
	Level engine.ThinkingLevel `json:"level"`
}

func handleCycleThinkingLevel(ctx context.Context, s *Server, cmd *Command) *Response {
	sess, _ := s.current()
	level, ok2 := sess.CycleThinkingLevel()
	if !ok2 {
		return okNull(cmd)
	}
	return ok(cmd, levelData{level})
}

type levelsData struct {
	Levels []engine.ThinkingLevel `json:"levels"`
}

func handleGetAvailableThinkingLevels(ctx context.Context, s *Server, cmd *Command) *Response {
	sess, _ := s.current()
	return ok(cmd, levelsData{engine.SupportedThinkingLevels(sess.Model())})
}

type modeFields struct {
	Mode string `json:"mode"`
}

func handleSetSteeringMode(ctx context.Context, s *Server, cmd *Command) *Response {
	var f modeFields
	if err := fields(cmd, &f); err != nil {
		return fail(cmd, err)
	}
	sess, _ := s.current()
	sess.SetSteeringMode(f.Mode)
	if err := s.ctl.SetGlobalSetting("steeringMode", f.Mode); err != nil {
		fmt.Fprintln(s.opts.Stderr, "Warning: could not save steeringMode:", err)
	}
	return ok(cmd, nil)
}

func handleSetFollowUpMode(ctx context.Context, s *Server, cmd *Command) *Response {
	var f modeFields
	if err := fields(cmd, &f); err != nil {
		return fail(cmd, err)
	}
	sess, _ := s.current()
	sess.SetFollowUpMode(f.Mode)
	if err := s.ctl.SetGlobalSetting("followUpMode", f.Mode); err != nil {
		fmt.Fprintln(s.opts.Stderr, "Warning: could not save followUpMode:", err)
	}
	return ok(cmd, nil)
}

type enabledFields struct {
	Enabled bool `json:"enabled"`
}

func handleSetAutoCompaction(ctx context.Context, s *Server, cmd *Command) *Response {
	var f enabledFields
	if err := fields(cmd, &f); err != nil {
		return fail(cmd, err)
	}
	sess, _ := s.current()
	sess.SetAutoCompaction(f.Enabled)
	if err := s.ctl.SetGlobalSetting("compaction.enabled", f.Enabled); err != nil {
		fmt.Fprintln(s.opts.Stderr, "Warning: could not save compaction.enabled:", err)
	}
	return ok(cmd, nil)
}

func handleSetAutoRetry(ctx context.Context, s *Server, cmd *Command) *Response {
	var f enabledFields
	if err := fields(cmd, &f); err != nil {
		return fail(cmd, err)
	}
	sess, _ := s.current()
	sess.SetAutoRetry(f.Enabled)
	if err := s.ctl.SetGlobalSetting("retry.enabled", f.Enabled); err != nil {
		fmt.Fprintln(s.opts.Stderr, "Warning: could not save retry.enabled:", err)
	}
	return ok(cmd, nil)
}

func handleAbortRetry(ctx context.Context, s *Server, cmd *Command) *Response {
	sess, _ := s.current()
	sess.AbortRetry()
	return ok(cmd, nil)
}

func handleCompact(ctx context.Context, s *Server, cmd *Command) *Response {
	var f struct {
		CustomInstructions string `json:"customInstructions"`
	}
	if err := fields(cmd, &f); err != nil {
		return fail(cmd, err)
	}
	if s.Compact == nil {
		return fail(cmd, errCompactionUnavailable)
	}
	sess, _ := s.current()
	res, err := s.Compact(ctx, sess, f.CustomInstructions)
	if err != nil {
		return fail(cmd, err)
	}
	return ok(cmd, res)
}
