package config

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/engine"
)

// fakeOAuth stands in for an extension's oauth object: refreshes append
// "+" to the refresh token and give a token valid for an hour.
type fakeOAuth struct {
	refreshes  atomic.Int32
	refreshErr error
	keyErr     error
}

func (f *fakeOAuth) RefreshToken(_ context.Context, cred json.RawMessage) (json.RawMessage, error) {
	f.refreshes.Add(1)
	if f.refreshErr != nil {
		return nil, f.refreshErr
	}
	var c struct{ Refresh string }
	_ = json.Unmarshal(cred, &c)
	exp := time.Now().Add(time.Hour).UnixMilli()
	return json.RawMessage(fmt.Sprintf(`{"refresh":%q,"access":"fresh","expires":%d,"type":"oauth"}`, c.Refresh+"+", exp)), nil
}

func (f *fakeOAuth) APIKey(_ context.Context, cred json.RawMessage) (string, error) {
	if f.keyErr != nil {
		return "", f.keyErr
	}
	var c struct{ Access string }
	_ = json.Unmarshal(cred, &c)
	return "KEY-" + c.Access, nil
}

func oauthRegistry(t *testing.T, auth string) (*Registry, string) {
	t.Helper()
	dir := t.TempDir()
	if auth != "" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "auth.json"), []byte(auth), 0o644))
	}
	r, errs := loadModels(dir, func(string) string { return "" })
	require.Empty(t, errs)
	r.AddModels("corp", nil, &engine.Model{ID: "c1", Provider: "corp", API: engine.APIOpenAICompletions, BaseURL: "http://c/v1"})
	return r, dir
}

func TestResolveOAuthKey(t *testing.T) {
	t.Parallel()
	valid := time.Now().Add(time.Hour).UnixMilli()
	tests := []struct {
		name      string
		auth      string
		handler   bool
		override  string
		wantKey   string
		wantOK    bool
		refreshes int32
		wantFile  string // "" when the file must stay as written
	}{
		{
			name:    "expired token is refreshed and written back in place",
			auth:    `{"other":{"type":"api_key","key":"k"},"corp":{"type":"oauth","refresh":"r","access":"old","expires":1000,"accountId":"a"},"last":{"type":"api_key","key":"z"}}`,
			handler: true, wantKey: "KEY-fresh", wantOK: true, refreshes: 1,
			wantFile: "{\n  \"other\": {\n    \"type\": \"api_key\",\n    \"key\": \"k\"\n  },\n  \"corp\": {\n    \"refresh\": \"r+\",\n    \"access\": \"fresh\",\n    \"expires\": EXP,\n    \"type\": \"oauth\"\n  },\n  \"last\": {\n    \"type\": \"api_key\",\n    \"key\": \"z\"\n  }\n}",
		},
		{
			name:    "valid token is used as stored",
			auth:    fmt.Sprintf(`{"corp":{"type":"oauth","refresh":"r","access":"live","expires":%d}}`, valid),
			handler: true, wantKey: "KEY-live", wantOK: true,
		},
		{
			name: "no handler: OAuth does not apply",
			auth: `{"corp":{"type":"oauth","refresh":"r","access":"old","expires":1000}}`,
		},
		{
			name:    "api key credential: OAuth does not apply",
			auth:    `{"corp":{"type":"api_key","key":"k"}}`,
			handler: true,
		},
		{
			name:    "--api-key wins over the stored credential",
			auth:    `{"corp":{"type":"oauth","refresh":"r","access":"old","expires":1000}}`,
			handler: true, override: "runtime",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, dir := oauthRegistry(t, tc.auth)
			f := &fakeOAuth{}
			if tc.handler {
				r.SetOAuthHandler("corp", f)
			}
			if tc.override != "" {
				r.SetAPIKeyOverride("corp", tc.override)
			}
			key, ok, err := r.ResolveOAuthKey(context.Background(), "corp")
			require.NoError(t, err)
			assert.Equal(t, tc.wantOK, ok)
			assert.Equal(t, tc.wantKey, key)
			assert.Equal(t, tc.wantOK, r.UsesOAuth("corp"))
			assert.Equal(t, tc.refreshes, f.refreshes.Load())
			b, err := os.ReadFile(filepath.Join(dir, "auth.json"))
			require.NoError(t, err)
			if tc.wantFile == "" {
				assert.Equal(t, tc.auth, string(b))
			} else {
				var c struct{ Expires int64 }
				require.NoError(t, json.Unmarshal(r.StoredCredential("corp"), &c))
				assert.Equal(t, tc.wantFile, string(replaceExp(b, c.Expires)))
				// A second request uses the refreshed token.
				key, _, err := r.ResolveOAuthKey(context.Background(), "corp")
				require.NoError(t, err)
				assert.Equal(t, tc.wantKey, key)
				assert.Equal(t, tc.refreshes, f.refreshes.Load())
			}
			_, err = os.Stat(filepath.Join(dir, "auth.json.lock"))
			assert.True(t, os.IsNotExist(err), "the lock is released")
		})
	}
}

func replaceExp(b []byte, exp int64) []byte {
	return []byte(strings.ReplaceAll(string(b), fmt.Sprint(exp), "EXP"))
}

func TestResolveOAuthKeyErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		handler *fakeOAuth
		want    string
		cause   string
	}{
		{"refresh fails", &fakeOAuth{refreshErr: errors.New("boom")}, "OAuth refresh failed for corp: boom", "boom"},
		{"getApiKey fails", &fakeOAuth{keyErr: errors.New("bad key")}, "OAuth auth derivation failed for corp: bad key", "bad key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			auth := `{"corp":{"type":"oauth","refresh":"r","access":"old","expires":1000}}`
			r, dir := oauthRegistry(t, auth)
			r.SetOAuthHandler("corp", tc.handler)
			_, _, err := r.RequestAuthContext(context.Background(), r.Find("corp", "c1"))
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
			var me *ModelsError
			require.ErrorAs(t, err, &me)
			assert.Equal(t, tc.cause, me.ModelsCause())
			if tc.handler.refreshErr != nil {
				b, _ := os.ReadFile(filepath.Join(dir, "auth.json"))
				assert.Equal(t, auth, string(b), "a failed refresh leaves the file alone")
			}
			// Without the context, the key is left for the request.
			key, _, err := r.RequestAuth(r.Find("corp", "c1"))
			require.NoError(t, err)
			assert.Empty(t, key)
		})
	}
}

func TestOAuthRefreshOnce(t *testing.T) {
	t.Parallel()
	r, _ := oauthRegistry(t, `{"corp":{"type":"oauth","refresh":"r","access":"old","expires":1000}}`)
	f := &fakeOAuth{}
	r.SetOAuthHandler("corp", f)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			key, ok, err := r.ResolveOAuthKey(context.Background(), "corp")
			assert.NoError(t, err)
			assert.True(t, ok)
			assert.Equal(t, "KEY-fresh", key)
		}()
	}
	wg.Wait()
	assert.Equal(t, int32(1), f.refreshes.Load(), "concurrent requests refresh once")
}

func TestAuthLock(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "auth.json")
	require.NoError(t, ensureAuthFile(path))
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), "created with mode 0600")

	// A lock abandoned long ago is taken over.
	lock := path + ".lock"
	require.NoError(t, os.Mkdir(lock, 0o777))
	old := time.Now().Add(-time.Minute)
	require.NoError(t, os.Chtimes(lock, old, old))
	release, err := lockAuthFile(context.Background(), path)
	require.NoError(t, err)

	// A held lock makes others wait; a cancelled wait gives up.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = lockAuthFile(ctx, path)
	assert.ErrorIs(t, err, context.Canceled)
	release()
	_, err = os.Stat(lock)
	assert.True(t, os.IsNotExist(err))
}

func TestModelsStoreAndProviderModels(t *testing.T) {
	t.Parallel()
	r, dir := oauthRegistry(t, "")
	require.NoError(t, r.WriteModelsStore("corp", json.RawMessage(`{"models":[{"id":"x"}],"checkedAt":1}`)))
	assert.JSONEq(t, `{"models":[{"id":"x"}],"checkedAt":1}`, string(r.ReadModelsStore("corp")))
	require.NoError(t, r.WriteModelsStore("corp", nil))
	assert.Nil(t, r.ReadModelsStore("corp"))
	b, err := os.ReadFile(filepath.Join(dir, "models-store.json"))
	require.NoError(t, err)
	assert.Equal(t, "{}", string(b))

	raw := json.RawMessage(`{"id":"c1","name":"C1 (sub)","api":"openai-completions","provider":"corp","baseUrl":"http://c/v1","reasoning":false,"input":["text"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":1000,"maxTokens":100}`)
	require.NoError(t, r.SetProviderModels("corp", []json.RawMessage{raw}))
	m := r.Find("corp", "c1")
	require.NotNil(t, m)
	assert.Equal(t, "C1 (sub)", m.Name)
	assert.Equal(t, 1000, m.ContextWindow)
	out, err := engine.MarshalJSON(m)
	require.NoError(t, err)
	assert.Equal(t, string(raw), string(out), "the model keeps its JSON")
	assert.Error(t, r.SetProviderModels("corp", []json.RawMessage{json.RawMessage(`{"name":"no id"}`)}))
}

func TestOAuthCredentialNeedsOAuthCode(t *testing.T) {
	t.Parallel()
	r, _ := oauthRegistry(t, `{"solo":{"type":"oauth","refresh":"r","access":"a","expires":1000}}`)
	require.NoError(t, r.RegisterProvider("solo", json.RawMessage(`{"baseUrl":"http://c/v1","api":"openai-completions","models":[{"id":"s1"}]}`)))
	assert.False(t, r.HasConfiguredAuth("solo"), "registered without oauth: the stored OAuth credential is unusable")
	r.SetOAuthHandler("solo", &fakeOAuth{})
	assert.True(t, r.HasConfiguredAuth("solo"))
	assert.Equal(t, AuthStatus{Configured: true, Source: "stored"}, r.ProviderAuthStatus("solo"))
}

// A symlinked auth.json is written through to its target and stays a link,
// and the target keeps its mode.
func TestModifyCredentialThroughSymlink(t *testing.T) {
	t.Parallel()
	r, dir := oauthRegistry(t, "")
	target := filepath.Join(t.TempDir(), "real-auth.json")
	require.NoError(t, os.WriteFile(target, []byte(`{"other":{"type":"api_key","key":"k"}}`), 0o600))
	link := filepath.Join(dir, "auth.json")
	require.NoError(t, os.Symlink(target, link))
	_, err := r.ModifyCredential(context.Background(), "corp", func(json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"type":"api_key","key":"new"}`), nil
	})
	require.NoError(t, err)
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&os.ModeSymlink, "auth.json is still a link")
	st, err := os.Stat(target)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	b, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "{\n  \"other\": {\n    \"type\": \"api_key\",\n    \"key\": \"k\"\n  },\n  \"corp\": {\n    \"type\": \"api_key\",\n    \"key\": \"new\"\n  }\n}", string(b))
}
