package jsruntime

import (
	"context"
	"encoding/json"
	"errors"
)

// TypedModelRegistry lists models of other kinds than chat (classifiers),
// for ctx.modelRegistry's getModelsOfType, getAvailableOfType and
// findOfType. Each model is its JSON form.
type TypedModelRegistry interface {
	TypedModels(kind string, available bool) []json.RawMessage
}

// typedCall answers models.ofType(kind, available).
func (a *API) typedCall(av []json.RawMessage) any {
	reg, _ := a.opts.Models.(TypedModelRegistry)
	if reg == nil {
		return []json.RawMessage{}
	}
	var available bool
	if len(av) > 1 {
		_ = json.Unmarshal(av[1], &available)
	}
	out := reg.TypedModels(argString(av, 0), available)
	if out == nil {
		out = []json.RawMessage{}
	}
	return out
}

// ClassifierRegistry runs classifier models (ctx.modelRegistry.classify).
// model is the classifier model's JSON, request {state, questions,
// images}; the result is the classify() result object.
type ClassifierRegistry interface {
	Classify(ctx context.Context, model, request json.RawMessage, temperature *float64) (json.RawMessage, error)
}

// classify answers models.classify(model, context, {temperature}).
func (a *API) classify(ctx context.Context, av []json.RawMessage) (any, error) {
	reg, _ := a.opts.Models.(ClassifierRegistry)
	if reg == nil || len(av) < 2 {
		return nil, errors.New("modelRegistry.classify is not supported here")
	}
	var o struct {
		Temperature *float64 `json:"temperature"`
	}
	if len(av) > 2 {
		_ = json.Unmarshal(av[2], &o)
	}
	return reg.Classify(ctx, av[0], av[1], o.Temperature)
}
