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
