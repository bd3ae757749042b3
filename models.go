package pi

import (
	"context"
	"fmt"

	"github.com/pi-go/pi/engine"
)

// SetModel selects provider/modelID for the session, among the models
// with credentials, as RPC set_model and /model do.
func (app *Agent) SetModel(ctx context.Context, provider, modelID string) (*engine.Model, error) {
	for _, m := range app.AvailableModels() {
		if m.Provider == provider && m.ID == modelID {
			return m, app.session().SelectModel(ctx, m)
		}
	}
	// The reference looks only among models with credentials, so a known
	// model without a key is "not found" too.
	return nil, fmt.Errorf("Model not found: %s/%s", provider, modelID)
}

// CycleModel moves to the next model of the --models scope (or, without
// one, of the models with credentials), as Ctrl+P and RPC cycle_model do;
// ok is false when there is nothing to cycle to.
func (app *Agent) CycleModel(ctx context.Context) (model *engine.Model, level engine.ThinkingLevel, ok bool, err error) {
	choices := app.ScopedModels()
	scoped := len(choices) > 0
	if !scoped {
		for _, m := range app.AvailableModels() {
			choices = append(choices, engine.ModelChoice{Model: m})
		}
	}
	return app.session().CycleModel(ctx, choices, scoped)
}

// CycleThinkingLevel moves to the model's next thinking level; ok is false
// for a model without reasoning.
func (app *Agent) CycleThinkingLevel() (engine.ThinkingLevel, bool) {
	return app.session().CycleThinkingLevel()
}
