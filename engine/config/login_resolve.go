package config

import (
	"errors"

	"github.com/pi-go/pi/engine"
)

// ResolveAuthModel resolves `pi auth … --model` as the startup --model
// does (every model counts, a bad thinking suffix stays part of the id),
// with --provider narrowing it. The error's text is the reference's
// message without the "Error: " prefix. Unless byAuth is set, no provider
// counts as authenticated, so an id several providers share is ambiguous,
// as in the reference's `pi auth check`.
func ResolveAuthModel(reg *Registry, cliProvider, cliModel string, byAuth bool) (*engine.Model, error) {
	m, _, _, err := resolveCLIModel(reg, cliProvider, cliModel, "", !byAuth)
	var sel *SelectionError
	if errors.As(err, &sel) {
		return nil, errors.New(sel.Msg)
	}
	return m, err
}

// ResolveProviderModel resolves a model reference among one provider's
// models (fuzzy, strict thinking suffix), as `pi auth print-api-key
// --model` does for each provider with stored credentials. It is nil
// when the reference does not resolve there.
func ResolveProviderModel(reg *Registry, provider, text string) *engine.Model {
	res := resolveReference(refRequest{text: text, provider: provider, suffix: suffixStrict, fuzzy: true}, reg.All(), func(string) bool { return true })
	if res.status != statusResolved {
		return nil
	}
	return res.model
}

// StoredCredentialTypes lists auth.json's providers and credential types
// ("api_key" or "oauth"), read from the file now.
func (r *Registry) StoredCredentialTypes() (map[string]string, error) {
	creds, err := readAuthFile(r.AuthPath())
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(creds))
	for id, c := range creds {
		out[id] = c.Type
	}
	return out, nil
}
