package config

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/pi-go/pi/engine"
)

// OAuthHandler is the code side of a provider's OAuth support, as an
// extension's pi.registerProvider(name, {oauth}) supplies it. Credentials
// travel as the JSON objects auth.json stores ({"type":"oauth", "refresh",
// "access", "expires", ...}), so keys the provider adds survive a refresh.
type OAuthHandler interface {
	// RefreshToken exchanges an expiring credential for a new one. The
	// result is stored as given and must carry "type":"oauth".
	RefreshToken(ctx context.Context, credential json.RawMessage) (json.RawMessage, error)
	// APIKey derives the key a request carries from a credential.
	APIKey(ctx context.Context, credential json.RawMessage) (string, error)
}

// ModelsError is a credential failure with the reference's message and the
// error that caused it. Its text is both, as the reference reports it on an
// assistant message; getApiKeyAndHeaders shows only the cause.
type ModelsError struct {
	Msg   string
	Cause error
}

func (e *ModelsError) Error() string {
	if e.Cause == nil {
		return e.Msg
	}
	return e.Msg + ": " + e.Cause.Error()
}

func (e *ModelsError) Unwrap() error { return e.Cause }

// ModelsCause is the message getApiKeyAndHeaders reports for the error.
func (e *ModelsError) ModelsCause() string {
	if e.Cause == nil {
		return e.Msg
	}
	return e.Cause.Error()
}

const (
	// oauthMinValidity is how long a token must still be valid to be used
	// as it is; a shorter-lived one is refreshed first, as the reference
	// does.
	oauthMinValidity = 5 * time.Minute
	// oauthRefreshTimeout bounds one refresh. It does not follow the
	// caller's cancellation: the provider may already have rotated the
	// refresh token, and the new one must reach auth.json.
	oauthRefreshTimeout = 15 * time.Second
)

// oauthState is the OAuth part of a Registry. It lives beside the Registry
// (keyed by its pointer) because the Registry struct belongs to models.go.
type oauthState struct {
	mu       sync.Mutex
	handlers map[string]OAuthHandler
	// refresh serialises refreshes per provider inside this process; the
	// auth.json lock serialises them between processes.
	refresh map[string]*sync.Mutex
}

var oauthStates sync.Map // *Registry -> *oauthState

func (r *Registry) oauth() *oauthState {
	if v, ok := oauthStates.Load(r); ok {
		return v.(*oauthState)
	}
	v, _ := oauthStates.LoadOrStore(r, &oauthState{handlers: map[string]OAuthHandler{}, refresh: map[string]*sync.Mutex{}})
	return v.(*oauthState)
}

// SetOAuthHandler installs the OAuth code of a registered provider; nil
// removes it. Stored OAuth credentials of the provider are then used for
// its requests.
func (r *Registry) SetOAuthHandler(provider string, h OAuthHandler) {
	st := r.oauth()
	st.mu.Lock()
	defer st.mu.Unlock()
	if h == nil {
		delete(st.handlers, provider)
		return
	}
	st.handlers[provider] = h
}

// OAuthHandlerFor returns the provider's OAuth handler, or nil: an
// extension's, else the built-in one (auth_builtin.go) when enabled.
func (r *Registry) OAuthHandlerFor(provider string) OAuthHandler {
	st := r.oauth()
	st.mu.Lock()
	h := st.handlers[provider]
	st.mu.Unlock()
	if h == nil {
		return r.builtinOAuthHandler(provider)
	}
	return h
}

// AuthPath is the auth.json next to models.json.
func (r *Registry) AuthPath() string {
	return filepath.Join(filepath.Dir(r.modelsPath), "auth.json")
}

// StoredCredential returns the provider's auth.json entry as stored, read
// from the file now (another process may have refreshed it), or nil.
func (r *Registry) StoredCredential(provider string) json.RawMessage {
	return readProviderEntry(r.AuthPath(), provider)
}

// oauthCredential is the part of an OAuth credential the registry reads.
type oauthCredential struct {
	Type    string  `json:"type"`
	Expires float64 `json:"expires"`
}

func parseOAuth(raw json.RawMessage) (oauthCredential, bool) {
	var c oauthCredential
	if len(raw) == 0 || json.Unmarshal(raw, &c) != nil || c.Type != "oauth" {
		return c, false
	}
	return c, true
}

// expiresSoon reports whether the credential must be refreshed before use.
func (c oauthCredential) expiresSoon(now time.Time) bool {
	return float64(now.Add(oauthMinValidity).UnixMilli()) >= c.Expires
}

// UsesOAuth reports whether the provider's requests take their key from a
// stored OAuth credential: it has an OAuth handler and an OAuth entry in
// auth.json, and no --api-key override.
func (r *Registry) UsesOAuth(provider string) bool {
	if r.OAuthHandlerFor(provider) == nil {
		return false
	}
	r.mu.RLock()
	override := r.overrides[provider]
	r.mu.RUnlock()
	if override != "" {
		return false
	}
	_, ok := parseOAuth(r.StoredCredential(provider))
	return ok
}

// ResolveOAuthKey returns the request key of a provider that has an OAuth
// handler and an OAuth credential in auth.json: an expiring credential is
// refreshed first, under the auth.json lock, and written back. ok is false
// when OAuth does not apply (no handler, no stored OAuth credential, or a
// --api-key override, which wins over stored credentials).
func (r *Registry) ResolveOAuthKey(ctx context.Context, provider string) (key string, ok bool, err error) {
	h := r.OAuthHandlerFor(provider)
	if h == nil {
		return "", false, nil
	}
	r.mu.RLock()
	override := r.overrides[provider]
	r.mu.RUnlock()
	if override != "" {
		return "", false, nil
	}
	stored := r.StoredCredential(provider)
	c, isOAuth := parseOAuth(stored)
	if !isOAuth {
		return "", false, nil
	}
	if c.expiresSoon(time.Now()) {
		stored, err = r.refreshOAuth(ctx, provider, h)
		if err != nil {
			return "", true, err
		}
		if stored == nil {
			// Logged out meanwhile.
			return "", false, nil
		}
	}
	key, err = h.APIKey(ctx, stored)
	if err != nil {
		return "", true, &ModelsError{Msg: "OAuth auth derivation failed for " + provider, Cause: err}
	}
	return key, true, nil
}

// RefreshedOAuthCredential is the provider's stored OAuth credential,
// refreshed first when it expires soon, as a model refresh with network
// uses it. It is nil when the provider has no OAuth credential or handler.
func (r *Registry) RefreshedOAuthCredential(ctx context.Context, provider string) (json.RawMessage, error) {
	h := r.OAuthHandlerFor(provider)
	stored := r.StoredCredential(provider)
	c, isOAuth := parseOAuth(stored)
	if h == nil || !isOAuth {
		return nil, nil
	}
	if time.Now().UnixMilli() < int64(c.Expires) {
		return stored, nil
	}
	return r.refreshOAuth(ctx, provider, h)
}

// refreshOAuth refreshes the provider's credential under the auth.json
// lock, checking again under the lock whether it is still needed (another
// request or process may have refreshed it), and returns the credential
// stored afterwards (nil when it is no longer an OAuth credential).
func (r *Registry) refreshOAuth(ctx context.Context, provider string, h OAuthHandler) (json.RawMessage, error) {
	st := r.oauth()
	st.mu.Lock()
	mu := st.refresh[provider]
	if mu == nil {
		mu = &sync.Mutex{}
		st.refresh[provider] = mu
	}
	st.mu.Unlock()
	mu.Lock()
	defer mu.Unlock()
	var refreshErr error
	post, err := r.ModifyCredential(ctx, provider, func(current json.RawMessage) (json.RawMessage, error) {
		c, isOAuth := parseOAuth(current)
		if !isOAuth || !c.expiresSoon(time.Now()) {
			return nil, nil
		}
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), oauthRefreshTimeout)
		defer cancel()
		next, err := h.RefreshToken(rctx, current)
		if err != nil {
			refreshErr = &ModelsError{Msg: "OAuth refresh failed for " + provider, Cause: err}
			return nil, refreshErr
		}
		return next, nil
	})
	if refreshErr != nil {
		return nil, refreshErr
	}
	if err != nil {
		return nil, &ModelsError{Msg: "Credential store modify failed for " + provider, Cause: err}
	}
	if _, ok := parseOAuth(post); !ok {
		return nil, nil
	}
	return post, nil
}

// ModifyCredential changes the provider's auth.json entry under the file's
// lock: fn sees the entry as stored now (nil when absent) and returns the
// new one, or nil to leave the file alone. The result is the entry stored
// afterwards. The file is written as the reference writes it (two-space
// indentation, other entries and their order untouched, mode 0600 when it
// is created) and the registry's view of the provider follows.
func (r *Registry) ModifyCredential(ctx context.Context, provider string, fn func(current json.RawMessage) (json.RawMessage, error)) (json.RawMessage, error) {
	next, current, err := modifyJSONEntry(ctx, r.AuthPath(), provider, false, fn)
	if err != nil || next == nil {
		return current, err
	}
	var c authCredential
	if json.Unmarshal(next, &c) == nil {
		r.mu.Lock()
		if r.authFile == nil {
			r.authFile = map[string]authCredential{}
		}
		r.authFile[provider] = c
		r.mu.Unlock()
	}
	return next, nil
}

// modifyJSONEntry changes one entry of a locked JSON object file (auth.json
// or models-store.json): fn's nil result leaves the file alone unless del
// is set, in which case the entry is removed. next is what was written.
func modifyJSONEntry(ctx context.Context, path, key string, del bool, fn func(current json.RawMessage) (json.RawMessage, error)) (next, current json.RawMessage, err error) {
	if err := ensureAuthFile(path); err != nil {
		return nil, nil, err
	}
	release, err := lockAuthFile(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, err
	}
	keys, vals, err := splitAuthObject(b)
	if err != nil {
		return nil, nil, err
	}
	i := slices.Index(keys, key)
	if i >= 0 {
		current = vals[i]
	}
	next, err = fn(current)
	if err != nil {
		return nil, current, err
	}
	switch {
	case next == nil && !del:
		return nil, current, nil
	case next == nil && i < 0:
		return nil, current, nil
	case next == nil:
		keys = slices.Delete(keys, i, i+1)
		vals = slices.Delete(vals, i, i+1)
	case i >= 0:
		vals[i] = next
	default:
		keys = append(keys, key)
		vals = append(vals, next)
	}
	out, err := indentObject(keys, vals)
	if err != nil {
		return nil, current, err
	}
	// ensureAuthFile made the file 0600, and the atomic write keeps that:
	// a request reading the entry without the lock never sees it half
	// written.
	if err := writeFileAtomic(path, out); err != nil {
		return nil, current, err
	}
	return next, current, nil
}

// ensureAuthFile creates auth.json ("{}", mode 0600) and its directory
// (mode 0700) when missing, as the reference does before locking it.
func ensureAuthFile(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = f.WriteString("{}")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// splitAuthObject splits auth.json's object into its entries, in order.
// An empty file is an empty object.
func splitAuthObject(b []byte) ([]string, []json.RawMessage, error) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, nil, nil
	}
	keys, vals, err := engine.SplitObject(b)
	if err != nil {
		return nil, nil, fmt.Errorf("Invalid auth.json: expected an object")
	}
	return keys, vals, nil
}

// indentObject writes an object as JSON.stringify(obj, null, 2) does.
func indentObject(keys []string, vals []json.RawMessage) ([]byte, error) {
	var compact bytes.Buffer
	compact.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			compact.WriteByte(',')
		}
		kb, err := engine.MarshalJSON(k)
		if err != nil {
			return nil, err
		}
		compact.Write(kb)
		compact.WriteByte(':')
		if err := json.Compact(&compact, vals[i]); err != nil {
			return nil, err
		}
	}
	compact.WriteByte('}')
	var out bytes.Buffer
	if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
