package mcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/pi-go/pi/engine/config"

	"github.com/pi-go/pi/internal/jsonx"
)

// mcp-auth.json holds one OAuth state per server, as the reference writes
// it: an object keyed "<namespace>|<server URL>" (older files key by the
// URL alone; the first server to read such a state takes it over), each
// value {serverUrl, oauthState, discovery, clientInformation,
// codeVerifier, tokens, tokensExpireAt} in the order they were first
// written. The file is JSON.stringify(states, null, 2) plus a newline,
// mode 0600 in a 0700 directory, and every read-modify-write holds the
// proper-lockfile lock "mcp-auth.json.lock" that the reference takes too.

// CredentialsPath is where MCP OAuth credentials are kept.
func CredentialsPath(agentDir string) string { return filepath.Join(agentDir, "mcp-auth.json") }

// Refresh lock timing, the reference's: a lock whose holder stopped
// renewing it is taken over after refreshLockStale, and a refresh waits
// up to refreshLockWait for another process's.
const (
	refreshLockStale = 20 * time.Second
	refreshLockWait  = 25 * time.Second
	refreshLockRetry = 100 * time.Millisecond
	fileLockStale    = 10 * time.Second
)

// errRefreshLockBusy is another process holding a server's refresh lock
// for the whole wait.
var errRefreshLockBusy = errors.New("Another process is refreshing the MCP server's tokens")

// CredentialStore is mcp-auth.json of one agent directory.
type CredentialStore struct {
	path, lockDir string
	// mu serialises this process's writers; the lock file keeps other
	// processes out.
	mu sync.Mutex
}

// NewCredentialStore is the store of agentDir.
func NewCredentialStore(agentDir string) *CredentialStore {
	return &CredentialStore{path: CredentialsPath(agentDir), lockDir: agentDir}
}

// storeKeys are a server's key and the legacy key (its URL alone).
func storeKeys(name, serverURL string) (key, legacy string) {
	legacy = normalizeURL(serverURL)
	return Namespace(name) + "|" + legacy, legacy
}

// normalizeURL is a URL as the WHATWG parser writes it back: an empty
// path becomes "/". Unparseable input is kept as it is.
func normalizeURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	if u.Path == "" && u.Opaque == "" {
		u.Path = "/"
	}
	return u.String()
}

// withFile runs fn on the decoded file under the lock; fn returns
// whether to write the states back.
func (cs *CredentialStore) withFile(fn func(states jsonx.Object) (jsonx.Object, bool)) error {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(cs.path), 0o700); err != nil {
		return err
	}
	if _, err := os.Stat(cs.path); errors.Is(err, fs.ErrNotExist) {
		if err := os.WriteFile(cs.path, []byte("{}"), 0o600); err != nil {
			return err
		}
	}
	release, err := lockDirectory(context.Background(), cs.path+".lock", fileLockStale, 10, 20*time.Millisecond)
	if err != nil {
		return err
	}
	defer release()
	b, err := os.ReadFile(cs.path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	states := jsonx.Object{}
	if len(bytes.TrimSpace(b)) > 0 {
		v, err := jsonx.Decode(b)
		if err != nil {
			return err
		}
		if o, ok := v.(jsonx.Object); ok {
			states = o
		}
	}
	next, write := fn(states)
	if !write {
		return nil
	}
	out, err := marshalIndent(next)
	if err != nil {
		return err
	}
	return os.WriteFile(cs.path, out, 0o600)
}

// marshalIndent is JSON.stringify(v, null, 2) and a newline.
func marshalIndent(v any) ([]byte, error) {
	compact, err := jsonx.Marshal(v)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, compact, "", "  "); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// Remove deletes a server's state (or the legacy one it would take over)
// and reports whether there was one.
func (cs *CredentialStore) Remove(name, serverURL string) (bool, error) {
	if _, err := os.Stat(cs.path); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	key, legacy := storeKeys(name, serverURL)
	removed := false
	err := cs.withFile(func(states jsonx.Object) (jsonx.Object, bool) {
		switch {
		case states.Index(key) >= 0:
			states = states.Delete(key)
		case states.Index(legacy) >= 0:
			states = states.Delete(legacy)
		default:
			return states, false
		}
		removed = true
		return states, true
	})
	return removed, err
}

// AccessToken is the server's stored access token ("" when none), for
// noticing a sign-in made by another process.
func (cs *CredentialStore) AccessToken(name, serverURL string) string {
	b, err := os.ReadFile(cs.path)
	if err != nil {
		return ""
	}
	v, err := jsonx.Decode(b)
	if err != nil {
		return ""
	}
	states, _ := v.(jsonx.Object)
	key, legacy := storeKeys(name, serverURL)
	st, ok := states.Get(key)
	if !ok {
		st, _ = states.Get(legacy)
	}
	return oauthState(asObject(st)).accessToken()
}

// ForServer is the state of one server.
func (cs *CredentialStore) ForServer(name, serverURL string) *serverStore {
	key, legacy := storeKeys(name, serverURL)
	return &serverStore{cs: cs, key: key, legacy: legacy, serverURL: normalizeURL(serverURL)}
}

// serverStore reads and writes one server's state.
type serverStore struct {
	cs                     *CredentialStore
	key, legacy, serverURL string
	// refresh serialises this process's refreshes of the server.
	refresh sync.Mutex
}

// load is the server's state, empty but for serverUrl when none is
// stored for this URL (state of another URL never leaks across).
func (ss *serverStore) load() (oauthState, error) {
	var st oauthState
	err := ss.cs.withFile(func(states jsonx.Object) (jsonx.Object, bool) {
		if v, ok := states.Get(ss.key); ok || states.Index(ss.legacy) < 0 {
			st = oauthState(asObject(v))
			return states, false
		}
		v, _ := states.Get(ss.legacy)
		states = states.Delete(ss.legacy).Put(ss.key, v)
		st = oauthState(asObject(v))
		return states, true
	})
	if err != nil {
		return nil, err
	}
	if u, _ := st.get("serverUrl").(string); u != ss.serverURL {
		return oauthState{{Key: "serverUrl", Value: ss.serverURL}}, nil
	}
	return st, nil
}

// update applies fn to the stored state and saves it.
func (ss *serverStore) update(fn func(oauthState) oauthState) error {
	return ss.cs.withFile(func(states jsonx.Object) (jsonx.Object, bool) {
		v, _ := states.Get(ss.key)
		st := oauthState(asObject(v))
		if u, _ := st.get("serverUrl").(string); u != ss.serverURL {
			st = oauthState{{Key: "serverUrl", Value: ss.serverURL}}
		}
		return states.Put(ss.key, jsonx.Object(fn(st))), true
	})
}

// save replaces the stored state.
func (ss *serverStore) save(st oauthState) error {
	return ss.update(func(oauthState) oauthState { return st })
}

// withRefreshLock runs fn holding the server's refresh lock: refresh
// tokens rotate, so two refreshes with one token lose the grant.
func (ss *serverStore) withRefreshLock(ctx context.Context, fn func() error) error {
	ss.refresh.Lock()
	defer ss.refresh.Unlock()
	if err := os.MkdirAll(ss.cs.lockDir, 0o700); err != nil {
		return err
	}
	sum := sha256.Sum256([]byte(ss.key))
	lock := filepath.Join(ss.cs.lockDir, "mcp-auth-refresh-"+hex.EncodeToString(sum[:])[:16]+".lock")
	release, err := lockDirectory(ctx, lock, refreshLockStale, int(refreshLockWait/refreshLockRetry), refreshLockRetry)
	if err != nil {
		return err
	}
	defer release()
	return fn()
}

// lockDirectory takes a proper-lockfile lock (a directory made with
// mkdir, its mtime renewed while held, taken over once older than
// stale), retrying every step up to retries times.
func lockDirectory(ctx context.Context, lock string, stale time.Duration, retries int, step time.Duration) (func(), error) {
	for attempt := 0; ; attempt++ {
		err := os.Mkdir(lock, 0o777)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if st, serr := os.Stat(lock); serr == nil && time.Since(st.ModTime()) > stale {
			_ = os.Remove(lock)
			continue
		}
		if attempt >= retries {
			return nil, errRefreshLockBusy
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(step):
		}
	}
	return config.HoldLockDir(lock, stale), nil
}

func asObject(v any) jsonx.Object {
	o, _ := v.(jsonx.Object)
	return o
}

// oauthState is one server's stored state, key order kept.
type oauthState jsonx.Object

func (st oauthState) get(key string) any {
	v, _ := jsonx.Object(st).Get(key)
	return v
}

func (st oauthState) obj(key string) jsonx.Object { return asObject(st.get(key)) }

func (st oauthState) put(key string, v any) oauthState {
	return oauthState(jsonx.Object(st).Put(key, v))
}

func (st oauthState) del(keys ...string) oauthState {
	o := jsonx.Object(st)
	for _, k := range keys {
		o = o.Delete(k)
	}
	return oauthState(o)
}

func (st oauthState) tokens() jsonx.Object { return st.obj("tokens") }

func (st oauthState) accessToken() string { return objString(st.tokens(), "access_token") }

func (st oauthState) refreshToken() string { return objString(st.tokens(), "refresh_token") }

// expireAt is tokensExpireAt in Unix milliseconds, 0 when unset.
func (st oauthState) expireAt() int64 {
	n, _ := st.get("tokensExpireAt").(json.Number)
	f, _ := n.Float64()
	return int64(f)
}

func objString(o jsonx.Object, key string) string {
	v, _ := o.Get(key)
	s, _ := v.(string)
	return s
}
