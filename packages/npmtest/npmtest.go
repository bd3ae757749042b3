// Package npmtest is a fake npm registry for tests: an httptest server
// that serves packuments and tarballs built in the test, so that no test
// reaches the network.
package npmtest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"
)

// Registry is a running fake registry.
type Registry struct {
	*httptest.Server
	// Token, when set, is the bearer token every request must carry.
	Token string
	// Delay holds every answer back this long (a slow registry).
	Delay time.Duration

	mu       sync.Mutex
	docs     map[string]map[string]any // name → version → manifest
	tags     map[string]map[string]string
	tarballs map[string][]byte
	requests []string
}

// New starts a registry; the test's cleanup closes it.
func New(t interface{ Cleanup(func()) }) *Registry {
	r := &Registry{docs: map[string]map[string]any{}, tags: map[string]map[string]string{}, tarballs: map[string][]byte{}}
	r.Server = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.Close)
	return r
}

// URL is the registry URL with a final slash, as npm configures it.
func (r *Registry) URLSlash() string { return r.URL + "/" }

// Pkg describes one version to publish.
type Pkg struct {
	Name, Version string
	// Files are the tarball's files under package/ (package.json is
	// written from the fields below plus Extra).
	Files        map[string]string
	Dependencies map[string]string
	Peer         map[string]string
	// Extra are more package.json fields ("pi": {...}).
	Extra map[string]any
	// BadIntegrity publishes a wrong integrity for the tarball.
	BadIntegrity bool
}

// Publish adds a version and makes it the latest.
func (r *Registry) Publish(p Pkg) {
	pj := map[string]any{"name": p.Name, "version": p.Version}
	if len(p.Dependencies) > 0 {
		pj["dependencies"] = p.Dependencies
	}
	if len(p.Peer) > 0 {
		pj["peerDependencies"] = p.Peer
	}
	for k, v := range p.Extra {
		pj[k] = v
	}
	pjb, _ := json.MarshalIndent(pj, "", "  ")
	files := map[string]string{"package.json": string(pjb)}
	for k, v := range p.Files {
		files[k] = v
	}
	tgz := Tarball(files)
	sum := sha512.Sum512(tgz)
	integrity := "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
	if p.BadIntegrity {
		bad := sha512.Sum512([]byte("not the tarball"))
		integrity = "sha512-" + base64.StdEncoding.EncodeToString(bad[:])
	}
	sh := sha1.Sum(tgz)
	base := p.Name
	if i := strings.LastIndex(base, "/"); i >= 0 {
		base = base[i+1:]
	}
	file := p.Name + "/-/" + base + "-" + p.Version + ".tgz"
	manifest := map[string]any{}
	for k, v := range pj {
		manifest[k] = v
	}
	manifest["dist"] = map[string]any{"tarball": r.URL + "/" + file, "integrity": integrity, "shasum": hex.EncodeToString(sh[:])}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.docs[p.Name] == nil {
		r.docs[p.Name] = map[string]any{}
		r.tags[p.Name] = map[string]string{}
	}
	r.docs[p.Name][p.Version] = manifest
	r.tags[p.Name]["latest"] = p.Version
	r.tarballs[file] = tgz
}

// Requests lists the paths requested so far.
func (r *Registry) Requests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.requests...)
}

func (r *Registry) serve(w http.ResponseWriter, req *http.Request) {
	p, _ := url.PathUnescape(strings.TrimPrefix(req.URL.EscapedPath(), "/"))
	r.mu.Lock()
	r.requests = append(r.requests, p)
	r.mu.Unlock()
	if r.Delay > 0 {
		select {
		case <-time.After(r.Delay):
		case <-req.Context().Done():
			return
		}
	}
	if r.Token != "" && req.Header.Get("Authorization") != "Bearer "+r.Token {
		http.Error(w, `{"error":"unauthorized"}`, http.StatusUnauthorized)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if tgz, ok := r.tarballs[p]; ok {
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write(tgz)
		return
	}
	versions, ok := r.docs[p]
	if !ok {
		http.Error(w, `{"error":"Not found"}`, http.StatusNotFound)
		return
	}
	doc := map[string]any{"name": p, "dist-tags": r.tags[p], "versions": versions}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(doc)
}

// Tarball builds a gzipped npm tarball with files under package/.
func Tarball(files map[string]string) []byte {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		b := []byte(files[n])
		_ = tw.WriteHeader(&tar.Header{Name: "package/" + n, Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg})
		_, _ = tw.Write(b)
	}
	_ = tw.Close()
	_ = gz.Close()
	return buf.Bytes()
}
