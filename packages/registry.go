package packages

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Packument is what the install reads of a registry's package document
// (the abbreviated "corgi" form npm requests has all of it).
type Packument struct {
	Name     string                    `json:"name"`
	DistTags map[string]string         `json:"dist-tags"`
	Versions map[string]PackageVersion `json:"versions"`
}

// PackageVersion is one published version's manifest.
type PackageVersion struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Dependencies         map[string]string `json:"dependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	PeerDependencies     map[string]string `json:"peerDependencies"`
	Bin                  json.RawMessage   `json:"bin"`
	Engines              json.RawMessage   `json:"engines"`
	License              json.RawMessage   `json:"license"`
	BundleDependencies   json.RawMessage   `json:"bundleDependencies"`
	BundledDependencies  json.RawMessage   `json:"bundledDependencies"`
	OS                   []string          `json:"os"`
	CPU                  []string          `json:"cpu"`
	Dist                 struct {
		Tarball   string `json:"tarball"`
		Integrity string `json:"integrity"`
		Shasum    string `json:"shasum"`
	} `json:"dist"`
}

// Registry fetches packuments and tarballs with npm's configuration.
type Registry struct {
	Config NpmConfig
	Client *http.Client
	// Timeout bounds each request (whole body included); zero means 60s.
	Timeout time.Duration
	// UserAgent is sent with each request.
	UserAgent string

	mu    sync.Mutex
	cache map[string]*packumentCall
}

// packumentCall is one packument fetch, shared by everyone who asks for
// the same name (the resolver prefetches a level's names side by side).
type packumentCall struct {
	done chan struct{}
	p    *Packument
	err  error
}

// HTTPError is a registry answer other than 200.
type HTTPError struct {
	Status int
	Text   string
	URL    string
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("%d %s - GET %s", e.Status, e.Text, e.URL)
}

func (r *Registry) client() *http.Client {
	if r.Client != nil {
		return r.Client
	}
	return http.DefaultClient
}

func (r *Registry) timeout() time.Duration {
	if r.Timeout > 0 {
		return r.Timeout
	}
	return 60 * time.Second
}

// get opens rawURL with the credentials configured for it. The caller
// closes the body and cancels.
func (r *Registry) get(ctx context.Context, rawURL, accept string) (*http.Response, context.CancelFunc, error) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		cancel()
		return nil, nil, fmt.Errorf("GET %s: %w", rawURL, err)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	if r.UserAgent != "" {
		req.Header.Set("User-Agent", r.UserAgent)
	}
	if auth := r.Config.AuthFor(rawURL); auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := r.client().Do(req)
	if err != nil {
		cancel()
		return nil, nil, fmt.Errorf("GET %s: %w", rawURL, err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		cancel()
		return nil, nil, &HTTPError{Status: resp.StatusCode, Text: http.StatusText(resp.StatusCode), URL: rawURL}
	}
	return resp, cancel, nil
}

// packumentURL is <registry>/<name> with a scoped name's "/" escaped, as
// npm requests it.
func packumentURL(registry, name string) string {
	return registry + strings.Replace(url.PathEscape(name), "%40", "@", 1)
}

// Packument fetches (once per Registry) the document of package name.
func (r *Registry) Packument(ctx context.Context, name string) (*Packument, error) {
	r.mu.Lock()
	c, ok := r.cache[name]
	if !ok {
		if r.cache == nil {
			r.cache = map[string]*packumentCall{}
		}
		c = &packumentCall{done: make(chan struct{})}
		r.cache[name] = c
	}
	r.mu.Unlock()
	if !ok {
		c.p, c.err = r.fetchPackument(ctx, name)
		close(c.done)
	}
	select {
	case <-c.done:
		return c.p, c.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Prefetch starts fetching the packuments of names in the background.
func (r *Registry) Prefetch(ctx context.Context, names ...string) {
	for _, n := range names {
		go func() { _, _ = r.Packument(ctx, n) }()
	}
}

func (r *Registry) fetchPackument(ctx context.Context, name string) (*Packument, error) {
	u := packumentURL(r.Config.RegistryFor(name), name)
	resp, cancel, err := r.get(ctx, u, "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*")
	if err != nil {
		return nil, err
	}
	defer cancel()
	defer resp.Body.Close()
	p := &Packument{}
	if err := json.NewDecoder(resp.Body).Decode(p); err != nil {
		return nil, fmt.Errorf("read %s: %w", u, err)
	}
	return p, nil
}

// Resolve picks the version of name that want (a range, version or
// dist-tag) installs.
func (r *Registry) Resolve(ctx context.Context, name, want string) (*PackageVersion, error) {
	p, err := r.Packument(ctx, name)
	if err != nil {
		return nil, err
	}
	versions := make([]string, 0, len(p.Versions))
	for v := range p.Versions {
		versions = append(versions, v)
	}
	v, ok := pickVersion(want, versions, p.DistTags)
	if !ok {
		if want == "" {
			want = "latest"
		}
		return nil, fmt.Errorf("no matching version found for %s@%s", name, want)
	}
	pv := p.Versions[v]
	if pv.Name == "" {
		pv.Name = name
	}
	if pv.Version == "" {
		pv.Version = v
	}
	return &pv, nil
}

// Versions lists the published versions of name.
func (r *Registry) Versions(ctx context.Context, name string) ([]string, map[string]string, error) {
	p, err := r.Packument(ctx, name)
	if err != nil {
		return nil, nil, err
	}
	out := make([]string, 0, len(p.Versions))
	for v := range p.Versions {
		out = append(out, v)
	}
	return out, p.DistTags, nil
}

// fetch streams rawURL's body to w.
func (r *Registry) fetch(ctx context.Context, rawURL string, w io.Writer) error {
	resp, cancel, err := r.get(ctx, rawURL, "")
	if err != nil {
		return err
	}
	defer cancel()
	defer resp.Body.Close()
	if _, err := io.Copy(w, resp.Body); err != nil {
		return fmt.Errorf("GET %s: %w", rawURL, err)
	}
	return nil
}

// bundled lists the dependencies a version ships inside its tarball
// (bundleDependencies: a list, or true for all of them).
func (v *PackageVersion) bundled() map[string]bool {
	out := map[string]bool{}
	for _, raw := range []json.RawMessage{v.BundleDependencies, v.BundledDependencies} {
		var all bool
		if json.Unmarshal(raw, &all) == nil && all {
			for k := range v.Dependencies {
				out[k] = true
			}
			continue
		}
		var list []string
		if json.Unmarshal(raw, &list) == nil {
			for _, k := range list {
				out[k] = true
			}
		}
	}
	return out
}
