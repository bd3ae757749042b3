package config

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// toServer sends every request to the test server, whatever its host
// (the models' base URL stays OpenRouter's, as in the reference's run).
type toServer struct{ u *url.URL }

func (t toServer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host = t.u.Scheme, t.u.Host
	return http.DefaultTransport.RoundTrip(r)
}

// TestOpenRouterCatalog narrows OpenRouter's catalog with a key's
// /models/user answer and compares the result with what the reference's
// personalizeOpenRouterCatalog makes of the same answer
// (testdata/openrouter-personalized.jsonl, from
// testdata/openrouter-personalize.mjs): the same models, limits and prices
// (key order aside: the reference's runtime objects lead with "type").
// The list is kept in models-store.json and applied at the next start.
func TestOpenRouterCatalog(t *testing.T) {
	t.Parallel()
	answer, err := os.ReadFile(filepath.Join("testdata", "openrouter-user-models.json"))
	if err != nil {
		t.Fatal(err)
	}
	var gotAuth, gotPath string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth, gotPath = r.Header.Get("Authorization"), r.URL.Path
		_, _ = w.Write(answer)
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	client := &http.Client{Transport: toServer{u}}

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "auth.json"), []byte(`{"openrouter":{"type":"api_key","key":"sk-or-v1-test"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	reg, errs := LoadModels(dir)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if ok, err := reg.RefreshProviderCatalog(context.Background(), client, "openrouter"); !ok || err != nil {
		t.Fatalf("refresh: %v %v", ok, err)
	}
	if gotAuth != "Bearer sk-or-v1-test" || gotPath != "/api/v1/models/user" {
		t.Fatalf("request %q %q", gotAuth, gotPath)
	}
	want := readJSONLines(t, filepath.Join("testdata", "openrouter-personalized.jsonl"))
	var got []any
	for _, m := range reg.All() {
		if m.Provider == "openrouter" {
			var v any
			if err := json.Unmarshal(m.Raw, &v); err != nil {
				t.Fatal(err)
			}
			got = append(got, v)
		}
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Fatalf("models:\n%s\nwant:\n%s", g, w)
	}
	// The next start applies the kept list.
	next, _ := LoadModels(dir)
	next.ApplyStoredRadiusCatalogs()
	n := 0
	for _, m := range next.All() {
		if m.Provider == "openrouter" {
			n++
		}
	}
	if n != len(want) {
		t.Fatalf("%d openrouter models after a restart, want %d", n, len(want))
	}
}

func readJSONLines(t *testing.T, path string) []any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []any
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var v any
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}
