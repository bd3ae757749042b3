package jsruntime

import "encoding/json"

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
