package slash

import (
	"archive/zip"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/interactive/dialogs"
	"github.com/pi-go/pi/engine/tui"
)

// fakeGH writes a gh script into a fresh directory and puts only that
// directory on PATH: "auth status" exits with authStatus, "gist create"
// prints out (or fails with stderr "boom" when out is ""); every call is
// logged to the returned file.
func fakeGH(t *testing.T, authStatus int, out string) string {
	t.Helper()
	dir := t.TempDir()
	log := filepath.Join(dir, "calls.log")
	script := "#!/bin/sh\necho \"$@\" >> " + log + "\n" +
		"if [ \"$1\" = auth ]; then exit " + string(rune('0'+authStatus)) + "; fi\n"
	if out == "" {
		script += "echo boom >&2\nexit 1\n"
	} else {
		script += "echo " + out + "\n"
	}
	if err := os.WriteFile(filepath.Join(dir, "gh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	return log
}

// radiusServer records the artifact upload and answers status and body.
type radiusServer struct {
	mu     sync.Mutex
	query  string
	auth   string
	ctype  string
	body   string
	status int
	reply  string
}

func (rs *radiusServer) start(t *testing.T) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rs.mu.Lock()
		rs.query, rs.auth, rs.ctype, rs.body = r.URL.Path+"?"+r.URL.RawQuery, r.Header.Get("Authorization"), r.Header.Get("Content-Type"), string(b)
		rs.mu.Unlock()
		w.WriteHeader(rs.status)
		_, _ = io.WriteString(w, rs.reply)
	}))
	t.Cleanup(srv.Close)
	t.Setenv("PI_RADIUS_GATEWAY", srv.URL)
}

// /share goes to Radius when signed in (unless the destination is
// "gist"), else to a private gist through gh; each missing piece is a
// clear error. Not parallel: PATH and PI_RADIUS_GATEWAY are set.
func TestShare(t *testing.T) {
	cases := []struct {
		name        string
		token, dest string
		auth        int    // gh auth status exit code; -1: no gh at all
		gistOut     string // gh gist create's output; "": it fails
		status      int
		reply       string
		want        string
		radius      bool
	}{
		{name: "radius", token: "tok", status: 200, reply: `{"artifact":{"canonical_url":"https://radius.example/a/1"}}`,
			want: "info: Share URL: " + tui.Hyperlink("https://radius.example/a/1", "https://radius.example/a/1"), radius: true},
		{name: "radius error", token: "tok", status: 401, reply: `{"error":"bad token"}`,
			want: "error: Failed to upload Radius artifact: bad token", radius: true},
		{name: "radius without sign-in", dest: "radius", want: "error: Radius authentication is not configured. Run '/login radius' first."},
		{name: "gist", auth: 0, gistOut: "https://gist.github.com/u/abc123",
			want: "info: Share URL: " + tui.Hyperlink("https://pi.dev/session/#abc123", "https://pi.dev/session/#abc123") +
				"\nGist: " + tui.Hyperlink("https://gist.github.com/u/abc123", "https://gist.github.com/u/abc123")},
		{name: "gist chosen over radius", token: "tok", dest: "gist", auth: 0, gistOut: "https://gist.github.com/u/x9",
			want: "info: Share URL: " + tui.Hyperlink("https://pi.dev/session/#x9", "https://pi.dev/session/#x9") +
				"\nGist: " + tui.Hyperlink("https://gist.github.com/u/x9", "https://gist.github.com/u/x9")},
		{name: "gist fails", auth: 0, gistOut: "", want: "error: Failed to create gist: boom"},
		{name: "gh not logged in", auth: 1, want: "error: GitHub CLI is not logged in. Run 'gh auth login' first."},
		{name: "no gh", auth: -1, want: "error: GitHub CLI (gh) is not installed. Install it from https://cli.github.com/"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := newAgent(t)
			a.radius = tc.token
			if tc.dest != "" {
				a.settings["sessionShareDestination"] = tc.dest
			}
			rs := &radiusServer{status: tc.status, reply: tc.reply}
			rs.start(t)
			var log string
			if tc.auth >= 0 {
				log = fakeGH(t, tc.auth, tc.gistOut)
			} else {
				t.Setenv("PATH", t.TempDir())
			}
			h := newHost(t, a)
			if !run(t, h, "/share") {
				t.Fatal("/share not handled")
			}
			if h.last() != tc.want {
				t.Fatalf("notice %q, want %q", h.last(), tc.want)
			}
			if h.dialog != nil {
				t.Fatal("the loader is still up")
			}
			rs.mu.Lock()
			defer rs.mu.Unlock()
			if tc.radius {
				if rs.query != "/v1/artifacts?title=Pi+session&visibility=organization" || rs.auth != "Bearer tok" ||
					rs.ctype != "application/x-ndjson" || rs.body != "{\"type\":\"session\"}\n" {
					t.Fatalf("upload %q %q %q %q", rs.query, rs.auth, rs.ctype, rs.body)
				}
			} else if rs.query != "" {
				t.Fatalf("uploaded to Radius: %q", rs.query)
			}
			if tc.gistOut != "" {
				calls, _ := os.ReadFile(log)
				if !strings.Contains(string(calls), "auth status\ngist create --public=false /out/") {
					t.Fatalf("gh calls: %q", calls)
				}
			}
		})
	}
}

// The /bug dialogs lead to a zip in the working directory with the
// report, the diagnostics and (when agreed) the session, recorded in the
// session; an upload posts the same files to the gateway.
func TestBugReport(t *testing.T) {
	for _, upload := range []bool{false, true} {
		name := "zip"
		if upload {
			name = "upload"
		}
		t.Run(name, func(t *testing.T) {
			a := newAgent(t)
			a.radius = "tok"
			files := map[string]string{}
			var auth string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				auth = r.Header.Get("Authorization")
				_, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
				mr := multipart.NewReader(r.Body, params["boundary"])
				for {
					p, err := mr.NextPart()
					if err != nil {
						break
					}
					b, _ := io.ReadAll(p)
					files[p.FormName()] = string(b)
				}
				_, _ = io.WriteString(w, `{"ok":true,"bug_report":{"id":"br-1"}}`)
			}))
			defer srv.Close()
			t.Setenv("PI_RADIUS_GATEWAY", srv.URL)
			cwd := t.TempDir()
			t.Chdir(cwd)
			h := newHost(t, a)
			if !run(t, h, "/bug the diff was wrong") {
				t.Fatal("/bug not handled")
			}
			ed, ok := h.dialog.(*dialogs.EditorDialog)
			if !ok || ed.Text() != "the diff was wrong" {
				t.Fatalf("first dialog %T", h.dialog)
			}
			ed.HandleKey(tui.Key{Code: "enter"})
			press(t, h, "enter") // include the transcript
			if upload {
				press(t, h, "enter") // Upload Report
			} else {
				press(t, h, "down", "enter") // Export as Zip
			}
			last := h.last()
			if upload {
				if last != "info: Bug report uploaded. Report ID: br-1" || auth != "Bearer tok" {
					t.Fatalf("notice %q, auth %q", last, auth)
				}
			} else {
				id := strings.TrimPrefix(last[strings.LastIndex(last, "Report ID: "):], "Report ID: ")
				zpath := filepath.Join(cwd, "pi-bug-report-"+id+".zip")
				if last != "info: Bug report exported to: "+zpath+"\nReport ID: "+id {
					t.Fatalf("notice %q", last)
				}
				zr, err := zip.OpenReader(zpath)
				if err != nil {
					t.Fatal(err)
				}
				defer zr.Close()
				for _, f := range zr.File {
					rc, _ := f.Open()
					b, _ := io.ReadAll(rc)
					rc.Close()
					files[f.Name] = string(b)
				}
			}
			var report struct {
				SchemaVersion int    `json:"schemaVersion"`
				Hint          string `json:"hint"`
				Session       struct {
					ID       string `json:"id"`
					Included bool   `json:"included"`
				} `json:"session"`
			}
			if err := json.Unmarshal([]byte(files["report.json"]), &report); err != nil || report.SchemaVersion != 1 ||
				report.Hint != "the diff was wrong" || report.Session.ID != "sess-1" || !report.Session.Included {
				t.Fatalf("report.json %v: %s", err, files["report.json"])
			}
			if !strings.Contains(files["diagnostics.json"], `"assistantMessageCount": 2`) || files["session.jsonl"] != "{\"type\":\"session\"}\n" {
				t.Fatalf("files: %q", files)
			}
			leaf := a.store.Entries()[len(a.store.Entries())-1]
			if leaf.Type != engine.EntryCustom || leaf.CustomType != "pi.bug-report" || !strings.Contains(string(leaf.Data), `"sessionIncluded":true`) {
				t.Fatalf("session entry %+v %s", leaf, leaf.Data)
			}
		})
	}
}

// press sends keys to the dialog shown.
func press(t *testing.T, h *fakeHost, keys ...string) {
	t.Helper()
	for _, k := range keys {
		ih, ok := h.dialog.(tui.InputHandler)
		if !ok {
			t.Fatalf("no dialog for %q (notices %q)", k, h.notices)
		}
		ih.HandleKey(tui.Key{Code: k})
	}
}

// The model picker refreshes the catalogues while it shows and says how
// that went, as the reference's.
func TestModelPickerRefresh(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		errs map[string]string
		want string
	}{
		{nil, "Model catalogs refreshed."},
		{map[string]string{"radius": "401"}, "Could not refresh radius; showing cached models."},
		{map[string]string{"b": "x", "a": "y"}, "Could not refresh 2 model catalogs (a, b); showing cached models."},
	} {
		a := newAgent(t)
		a.refresh = tc.errs
		h := newHost(t, a)
		if !run(t, h, "/model") {
			t.Fatal("/model not handled")
		}
		text := tui.Strip(strings.Join(h.dialog.Render(100), "\n"))
		if !strings.Contains(text, tc.want) {
			t.Errorf("picker lacks %q:\n%s", tc.want, text)
		}
		if (tc.errs == nil) != strings.Contains(text, "Model Name: Mock One") {
			t.Errorf("model name line with errors %v:\n%s", tc.errs, text)
		}
	}
}
