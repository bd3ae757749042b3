package slash

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pi-go/pi/engine/interactive/dialogs"
	"github.com/pi-go/pi/engine/tui"
)

// Sharer is what /share and /bug need beyond Agent; *pi.Agent has it.
type Sharer interface {
	// ShareJSONL is the current branch as JSONL with the trailing
	// "pi.share" entry (system prompt and tools) the viewer reads.
	ShareJSONL() ([]byte, error)
	// RadiusToken is the Radius sign-in's bearer token, "" when not
	// signed in.
	RadiusToken(ctx context.Context) (string, error)
}

// The Radius gateway's address: PI_RADIUS_GATEWAY overrides the public
// one, as the reference's bug reports honour it.
const radiusGatewayEnv = "PI_RADIUS_GATEWAY"

func radiusGateway() string {
	g := os.Getenv(radiusGatewayEnv)
	if g == "" {
		g = "https://radius.pi.dev"
	}
	if !strings.HasPrefix(g, "http://") && !strings.HasPrefix(g, "https://") {
		g = "https://" + g
	}
	return strings.TrimRight(g, "/")
}

// shareViewerURL is where a gist is viewed: PI_SHARE_VIEWER_URL or the
// reference's viewer, with the gist id after "#".
func shareViewerURL(gistID string) string {
	base := os.Getenv("PI_SHARE_VIEWER_URL")
	if base == "" {
		base = "https://pi.dev/session/"
	}
	return base + "#" + gistID
}

// runShare is /share: the session goes to Radius as an artifact when
// Radius is signed in (unless sessionShareDestination is "gist"), else
// to a private GitHub gist of its HTML export through the GitHub CLI,
// as the reference does. "radius" without a Radius sign-in fails.
func runShare(ctx context.Context, h Host, _ string) error {
	a := h.Agent()
	sh, ok := a.(Sharer)
	if !ok {
		return fail(h, "Failed to export session: this agent cannot export a session for sharing")
	}
	jsonl, err := sh.ShareJSONL()
	if err != nil {
		return fail(h, "Failed to export session: %v", err)
	}
	dest := settingString(a, "sessionShareDestination")
	if dest != "gist" {
		token, err := sh.RadiusToken(ctx)
		if err != nil && dest == "radius" {
			return fail(h, "Failed to upload Radius artifact: %v", err)
		}
		if token != "" {
			shareRadius(ctx, h, token, jsonl)
			return nil
		}
		if dest == "radius" {
			return fail(h, "Radius authentication is not configured. Run '/login radius' first.")
		}
	}
	gh, err := exec.LookPath("gh")
	if err != nil {
		return fail(h, "GitHub CLI (gh) is not installed. Install it from https://cli.github.com/")
	}
	if err := exec.CommandContext(ctx, gh, "auth", "status").Run(); err != nil {
		return fail(h, "GitHub CLI is not logged in. Run 'gh auth login' first.")
	}
	dir, err := os.MkdirTemp("", "pi-share-")
	if err != nil {
		return fail(h, "Failed to export session: %v", err)
	}
	htmlPath, err := a.ExportHTML(filepath.Join(dir, "session.html"))
	if err != nil {
		_ = os.RemoveAll(dir)
		return fail(h, "Failed to export session: %v", err)
	}
	shareGist(ctx, h, gh, htmlPath, dir)
	return nil
}

// withLoader shows a loader in the editor's place while work runs off
// the UI goroutine; Escape cancels work's context and says cancelled.
// done runs on the UI goroutine unless the user cancelled.
func withLoader(ctx context.Context, h Host, message, cancelled string, work func(ctx context.Context) error, done func(err error)) {
	ctx, cancel := context.WithCancel(ctx)
	var l *dialogs.Loader
	l = dialogs.NewLoader(h.Style(), message, func() {
		cancel()
		h.CloseDialog()
		h.Notify(Info, cancelled)
	})
	h.ShowDialog(l)
	h.Go(func() {
		err := work(ctx)
		h.Post(func() {
			defer cancel()
			if l.Done() {
				return
			}
			l.Finish()
			h.CloseDialog()
			done(err)
		})
	})
}

func shareRadius(ctx context.Context, h Host, token string, body []byte) {
	var shareURL string
	withLoader(ctx, h, "Uploading to Radius...", "Share cancelled", func(ctx context.Context) error {
		u, err := url.Parse(radiusGateway() + "/v1/artifacts")
		if err != nil {
			return err
		}
		q := u.Query()
		q.Set("visibility", "organization")
		q.Set("title", "Pi session")
		u.RawQuery = q.Encode()
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/x-ndjson")
		req.Header.Set("Content-Length", strconv.Itoa(len(body)))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		var out struct {
			Error    string `json:"error"`
			Artifact *struct {
				CanonicalURL string `json:"canonical_url"`
			} `json:"artifact"`
		}
		_ = json.Unmarshal(raw, &out)
		if resp.StatusCode/100 != 2 || out.Artifact == nil {
			msg := out.Error
			if msg == "" {
				msg = strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode)+" ")
			}
			if msg == "" {
				msg = strconv.Itoa(resp.StatusCode)
			}
			return errors.New(msg)
		}
		shareURL = out.Artifact.CanonicalURL
		return nil
	}, func(err error) {
		if err != nil {
			_ = fail(h, "Failed to upload Radius artifact: %v", err)
			return
		}
		h.Notify(Info, "Share URL: "+tui.Hyperlink(shareURL, shareURL))
	})
}

func shareGist(ctx context.Context, h Host, gh, htmlPath, dir string) {
	var gistURL string
	withLoader(ctx, h, "Creating gist...", "Share cancelled", func(ctx context.Context) error {
		defer os.RemoveAll(dir)
		var stdout, stderr bytes.Buffer
		cmd := exec.CommandContext(ctx, gh, "gist", "create", "--public=false", htmlPath)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			msg := strings.TrimSpace(stderr.String())
			if msg == "" {
				msg = "Unknown error"
			}
			return fmt.Errorf("Failed to create gist: %s", msg)
		}
		gistURL = strings.TrimSpace(stdout.String())
		return nil
	}, func(err error) {
		if err != nil {
			h.Notify(Error, err.Error())
			return
		}
		id := gistURL[strings.LastIndexByte(gistURL, '/')+1:]
		if id == "" {
			h.Notify(Error, "Failed to parse gist ID from gh output")
			return
		}
		preview := shareViewerURL(id)
		h.Notify(Info, "Share URL: "+tui.Hyperlink(preview, preview)+"\nGist: "+tui.Hyperlink(gistURL, gistURL))
	})
}
