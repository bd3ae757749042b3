package engine

import "context"

// ModelSelected tells the session's hooks that source selected model in
// place of previous. Nothing happens when the model did not change.
func (s *Session) ModelSelected(ctx context.Context, model, previous *Model, source string) {
	if model == nil || (previous != nil && previous.Provider == model.Provider && previous.ID == model.ID) {
		return
	}
	s.hooks.ModelSelect(ctx, model, previous, source)
}

// ModelChoice is one model a cycle goes through, with the thinking level
// a --models scope gave it ("" for none).
type ModelChoice struct {
	Model         *Model
	ThinkingLevel ThinkingLevel
}

// SelectModel makes m the session's model as the user's choice: the
// switch is recorded (with the level the switch rules pick) and the
// extensions see model_select with source "set".
func (s *Session) SelectModel(ctx context.Context, m *Model) error {
	prev := s.Model()
	if err := s.SetModel(m); err != nil {
		return err
	}
	s.ModelSelected(ctx, m, prev, "set")
	return nil
}

// CycleModel moves to the choice after the current model (the first when
// the current one is not among them), as Ctrl+P and RPC cycle_model do. A
// scoped choice's own level wins over the level the switch picked.
// ok is false when there are fewer than two choices: nothing changes.
func (s *Session) CycleModel(ctx context.Context, choices []ModelChoice, scoped bool) (next *Model, level ThinkingLevel, ok bool, err error) {
	if len(choices) < 2 {
		return nil, "", false, nil
	}
	cur := s.Model()
	idx := -1
	for i, c := range choices {
		if cur != nil && c.Model.Provider == cur.Provider && c.Model.ID == cur.ID {
			idx = i
			break
		}
	}
	n := choices[(idx+1)%len(choices)]
	if err := s.SetModel(n.Model); err != nil {
		return nil, "", false, err
	}
	level = s.ThinkingLevel()
	if scoped && n.ThinkingLevel != "" {
		level = s.SetThinkingLevel(n.ThinkingLevel)
	}
	s.ModelSelected(ctx, n.Model, cur, "cycle")
	return n.Model, level, true, nil
}

// CycleThinkingLevel moves to the next level the model supports (Shift+Tab
// and RPC cycle_thinking_level); ok is false for a model without
// reasoning.
func (s *Session) CycleThinkingLevel() (ThinkingLevel, bool) {
	m := s.Model()
	if m == nil || !m.Reasoning {
		return "", false
	}
	levels := SupportedThinkingLevels(m)
	cur := s.ThinkingLevel()
	next := levels[0]
	for i, l := range levels {
		if l == cur {
			next = levels[(i+1)%len(levels)]
		}
	}
	return s.SetThinkingLevel(next), true
}
