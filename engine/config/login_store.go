package config

import (
	"context"
	"encoding/json"
)

// RemoveCredential deletes the provider's auth.json entry under the file's
// lock, as the reference's logout does, and returns what was stored (nil
// when there was nothing). Other entries and their order stay as they are.
func (r *Registry) RemoveCredential(ctx context.Context, provider string) (json.RawMessage, error) {
	_, current, err := modifyJSONEntry(ctx, r.AuthPath(), provider, true, func(json.RawMessage) (json.RawMessage, error) {
		return nil, nil
	})
	if err != nil {
		return current, err
	}
	r.mu.Lock()
	delete(r.authFile, provider)
	r.mu.Unlock()
	return current, nil
}

// SaveCredential stores the provider's credential in auth.json under the
// file's lock, replacing what was there, as a login does.
func (r *Registry) SaveCredential(ctx context.Context, provider string, credential json.RawMessage) error {
	_, err := r.ModifyCredential(ctx, provider, func(json.RawMessage) (json.RawMessage, error) {
		return credential, nil
	})
	return err
}

// EnsureAuthFile creates auth.json ("{}", mode 0600, its directory 0700)
// when it is missing, as the reference's credential store does whenever
// it opens the file for writing.
func (r *Registry) EnsureAuthFile() error { return ensureAuthFile(r.AuthPath()) }
