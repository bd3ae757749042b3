package engine

import "context"

// ModelSelectHooks is implemented by Hooks that tell extensions about a
// model the user selected (the model_select event). It is a separate
// interface so that Hooks implementations without it need not change.
type ModelSelectHooks interface {
	// ModelSelect is told the new model, the one before it (nil when
	// there was none) and what selected it: "set" or "cycle".
	ModelSelect(ctx context.Context, model, previous *Model, source string)
}

// ModelSelected tells the session's hooks that source selected model in
// place of previous. Nothing happens when the model did not change.
func (s *Session) ModelSelected(ctx context.Context, model, previous *Model, source string) {
	if model == nil || (previous != nil && previous.Provider == model.Provider && previous.ID == model.ID) {
		return
	}
	if h, ok := s.hooks.(ModelSelectHooks); ok {
		h.ModelSelect(ctx, model, previous, source)
	}
}
