package slash

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/interactive/dialogs"
	"github.com/pi-go/pi/engine/llm"
)

// The bug report's format, as the reference's: a report.json (who and
// what), a diagnostics.json (failed turns, no conversation content) and,
// when the user agrees, the session as session.jsonl; uploaded as
// multipart form data to the Radius gateway's /v1/bug-reports, or written
// as pi-bug-report-<id>.zip in the working directory. The report is
// recorded in the session as a "pi.bug-report" custom entry.
const (
	bugReportEntryType = "pi.bug-report"
	bugSchemaVersion   = 1
	includeTranscript  = "Yes, include the transcript"
	uploadReport       = "Upload Report"
	exportZip          = "Export as Zip"
)

// bugOptions are the answers of the /bug dialogs.
type bugOptions struct {
	hint           string
	includeSession bool
	upload         bool
}

// bugFile is one file of a report.
type bugFile struct {
	name, contentType string
	data              []byte
}

// runBug is /bug [description]: what went wrong, whether to include the
// transcript, then upload or export.
func runBug(ctx context.Context, h Host, args string) error {
	a := h.Agent()
	if _, ok := a.(Sharer); !ok {
		return fail(h, "Failed to build bug report: this agent cannot export its session")
	}
	cancelled := func() { h.CloseDialog(); h.Notify(Info, "Bug report cancelled") }
	h.ShowDialog(dialogs.NewEditorDialog(h.Style(), dialogs.EditorOptions{
		Title: "Report a bug",
		Value: args,
		Message: "The report goes to the Pi developers (Earendil), not to the public. It holds the pi version, the " +
			"operating system, the model and provider settings (never API keys), the loaded extensions and the " +
			"provider errors of this session.\n\nWhat went wrong? (optional)",
		OnCancel: cancelled,
		OnSubmit: func(hint string) {
			h.CloseDialog()
			bugAskTranscript(ctx, h, strings.TrimSpace(hint), cancelled)
		},
	}))
	return nil
}

func bugAskTranscript(ctx context.Context, h Host, hint string, cancelled func()) {
	h.ShowDialog(dialogs.NewSelect(h.Style(), dialogs.SelectOptions{
		Title:    "Include the session transcript?",
		Message:  "The transcript holds your messages, the model's replies, and every tool call with its result, file contents and command output included.",
		Options:  []string{includeTranscript, "No"},
		OnCancel: cancelled,
		OnSelect: func(_ int, choice string) {
			h.CloseDialog()
			o := bugOptions{hint: hint, includeSession: choice == includeTranscript}
			bugAskDelivery(ctx, h, o, cancelled)
		},
	}))
}

func bugAskDelivery(ctx context.Context, h Host, o bugOptions, cancelled func()) {
	desc := o.hint
	if desc == "" {
		desc = "none"
	}
	tr := "not included"
	if o.includeSession {
		tr = "included"
	}
	host := radiusGateway()
	if u, err := url.Parse(host); err == nil {
		host = u.Host
	}
	h.ShowDialog(dialogs.NewSelect(h.Style(), dialogs.SelectOptions{
		Title: "Bug report",
		Message: fmt.Sprintf("Description: %s\nTranscript: %s\nSummary: none\n\nUpload sends the report to %s. "+
			"Export writes a zip archive to the current directory instead.", desc, tr, host),
		Options:  []string{uploadReport, exportZip, "Cancel"},
		OnCancel: cancelled,
		OnSelect: func(_ int, choice string) {
			if choice == "Cancel" {
				cancelled()
				return
			}
			h.CloseDialog()
			o.upload = choice == uploadReport
			bugDeliver(ctx, h, o)
		},
	}))
}

func bugDeliver(ctx context.Context, h Host, o bugOptions) {
	if o.upload && os.Getenv("PI_OFFLINE") != "" {
		_ = fail(h, "Uploading bug reports requires online mode. Use Export as Zip instead.")
		return
	}
	id, files, meta, err := buildBugReport(h, o)
	if err != nil {
		_ = fail(h, "Failed to build bug report: %v", err)
		return
	}
	if !o.upload {
		bugWriteZip(h, id, files, meta)
		return
	}
	sh := h.Agent().(Sharer)
	var reportID string
	withLoader(ctx, h, "Uploading bug report...", "Bug report cancelled", func(ctx context.Context) error {
		token, _ := sh.RadiusToken(ctx)
		var err error
		reportID, err = uploadBugReport(ctx, radiusGateway(), token, files)
		return err
	}, func(err error) {
		if err == nil {
			recordBugReport(h, meta, map[string]any{"delivery": "upload"})
			h.Notify(Info, "Bug report uploaded. Report ID: "+reportID)
			return
		}
		h.ShowDialog(dialogs.NewSelect(h.Style(), dialogs.SelectOptions{
			Title:    "Upload failed",
			Message:  err.Error() + "\n\nExport the report as a zip archive instead?",
			Options:  []string{exportZip, "Cancel"},
			OnCancel: func() { h.CloseDialog(); h.Notify(Info, "Bug report cancelled") },
			OnSelect: func(_ int, choice string) {
				h.CloseDialog()
				if choice != exportZip {
					h.Notify(Info, "Bug report cancelled")
					return
				}
				bugWriteZip(h, id, files, meta)
			},
		}))
	})
}

func bugWriteZip(h Host, id string, files []bugFile, meta bugMeta) {
	cwd, err := os.Getwd()
	if err != nil {
		cwd = h.Agent().Cwd()
	}
	path := filepath.Join(cwd, "pi-bug-report-"+id+".zip")
	if err := writeBugZip(path, files); err != nil {
		_ = fail(h, "Failed to write bug report: %v", err)
		return
	}
	recordBugReport(h, meta, map[string]any{"delivery": "zip", "path": path})
	h.Notify(Info, "Bug report exported to: "+path+"\nReport ID: "+id)
}

// bugMeta is what the session entry records of a report.
type bugMeta struct {
	id, createdAt, hint string
	sessionIncluded     bool
}

func recordBugReport(h Host, m bugMeta, delivery map[string]any) {
	store := h.Agent().Store()
	if store == nil {
		return
	}
	var hint any
	if m.hint != "" {
		hint = m.hint
	}
	data := orderedObject{{"id", m.id}, {"createdAt", m.createdAt}, {"hint", hint},
		{"sessionIncluded", m.sessionIncluded}, {"summaryIncluded", false}, {"delivery", delivery["delivery"]}}
	if p, ok := delivery["path"]; ok {
		data = append(data, kv{"path", p})
	}
	raw, err := engine.MarshalJSON(data)
	if err != nil {
		return
	}
	if err := store.Append(&engine.Entry{Type: engine.EntryCustom, CustomType: bugReportEntryType, Data: raw}); err != nil {
		h.Notify(Warning, "The bug report was not recorded in the session: "+err.Error())
	}
}

// kv and orderedObject write a JSON object in a fixed key order.
type kv struct {
	k string
	v any
}
type orderedObject []kv

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := engine.MarshalJSON(p.k)
		v, err := engine.MarshalJSON(p.v)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// buildBugReport collects the report's files.
func buildBugReport(h Host, o bugOptions) (string, []bugFile, bugMeta, error) {
	a := h.Agent()
	id := uuid.Must(uuid.NewV7()).String()
	created := time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	meta := bugMeta{id: id, createdAt: created, hint: o.hint, sessionIncluded: o.includeSession}
	store := a.Store()
	var entries []*engine.Entry
	sessionID := ""
	if store != nil {
		entries = store.Entries()
		sessionID = store.Header().ID
	}
	messages := 0
	for _, e := range entries {
		if e.Type == engine.EntryMessage && e.Message != nil {
			messages++
		}
	}
	var hint any
	if o.hint != "" {
		hint = o.hint
	}
	sess := orderedObject{{"id", sessionID}, {"included", o.includeSession}, {"summaryIncluded", false}, {"messageCount", messages}}
	if o.includeSession {
		sess = append(sess, kv{"cwd", a.Cwd()})
	}
	var model any
	if m := a.Model(); m != nil {
		model = orderedObject{{"provider", m.Provider}, {"id", m.ID}, {"name", m.Name}, {"api", m.API},
			{"baseUrl", redactURL(m.BaseURL)}, {"reasoning", m.Reasoning}, {"input", m.Input},
			{"contextWindow", m.ContextWindow}, {"maxTokens", m.MaxTokens}}
	}
	report := orderedObject{
		{"schemaVersion", bugSchemaVersion}, {"id", id}, {"createdAt", created}, {"hint", hint},
		{"environment", environment()}, {"session", sess}, {"model", model},
		{"thinkingLevel", string(a.ThinkingLevel())},
	}
	reportJSON, err := indentJSON(report)
	if err != nil {
		return "", nil, meta, err
	}
	diagJSON, err := indentJSON(bugDiagnostics(sessionID, entries))
	if err != nil {
		return "", nil, meta, err
	}
	files := []bugFile{
		{"report.json", "application/json", reportJSON},
		{"diagnostics.json", "application/json", diagJSON},
	}
	if o.includeSession {
		jsonl, err := a.(Sharer).ShareJSONL()
		if err != nil {
			return "", nil, meta, err
		}
		files = append(files, bugFile{"session.jsonl", "application/x-ndjson", jsonl})
	}
	return id, files, meta, nil
}

func indentJSON(v any) ([]byte, error) {
	raw, err := engine.MarshalJSON(v)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// environment describes the machine without anything private: the names
// of the PI_ variables, never their values.
func environment() orderedObject {
	env := func(k string) any {
		if v := os.Getenv(k); v != "" {
			return v
		}
		return nil
	}
	var names []string
	for _, kvp := range os.Environ() {
		if k, _, _ := strings.Cut(kvp, "="); strings.HasPrefix(k, "PI_") {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	if names == nil {
		names = []string{}
	}
	var shell any
	if s := os.Getenv("SHELL"); s != "" {
		shell = filepath.Base(s)
	}
	return orderedObject{
		{"version", llm.Version}, {"userAgent", llm.UserAgent()}, {"runtime", "go/" + strings.TrimPrefix(runtime.Version(), "go")},
		{"platform", runtime.GOOS}, {"arch", runtime.GOARCH}, {"shell", shell},
		{"terminal", orderedObject{{"term", env("TERM")}, {"program", env("TERM_PROGRAM")},
			{"programVersion", env("TERM_PROGRAM_VERSION")}, {"colorterm", env("COLORTERM")},
			{"tmux", os.Getenv("TMUX") != ""}, {"ssh", os.Getenv("SSH_CONNECTION") != "" || os.Getenv("SSH_CLIENT") != "" || os.Getenv("SSH_TTY") != ""},
			{"ci", os.Getenv("CI") != ""}}},
		{"piEnvironmentVariables", names},
	}
}

// bugDiagnostics lists the failed or diagnosed assistant turns, without
// their content.
func bugDiagnostics(sessionID string, entries []*engine.Entry) orderedObject {
	assistant := []orderedObject{}
	count := 0
	for _, e := range entries {
		if e.Type != engine.EntryMessage || e.Message == nil || e.Message.Role != engine.RoleAssistant {
			continue
		}
		count++
		m := e.Message
		hasDiag := len(m.Diagnostics) > 0 && string(m.Diagnostics) != "[]" && string(m.Diagnostics) != "null"
		if !hasDiag && m.StopReason != engine.StopError && m.StopReason != engine.StopAborted && m.ErrorMessage == "" {
			continue
		}
		diag := json.RawMessage("[]")
		if hasDiag {
			diag = m.Diagnostics
		}
		row := orderedObject{{"entryId", e.ID}, {"timestamp", e.Timestamp}, {"provider", m.Provider},
			{"model", m.Model}, {"api", m.API}, {"stopReason", string(m.StopReason)}}
		if m.ErrorMessage != "" {
			row = append(row, kv{"errorMessage", m.ErrorMessage})
		}
		assistant = append(assistant, append(row, kv{"diagnostics", diag}))
	}
	return orderedObject{{"schemaVersion", bugSchemaVersion}, {"sessionId", sessionID}, {"entryCount", len(entries)},
		{"assistantMessageCount", count}, {"assistant", assistant}, {"crashes", []any{}}}
}

// redactURL drops credentials and secret-looking query values from a URL.
func redactURL(v string) string {
	u, err := url.Parse(v)
	if err != nil || u.Scheme == "" {
		return v
	}
	changed := false
	if u.User != nil {
		u.User = nil
		changed = true
	}
	q := u.Query()
	for k := range q {
		l := strings.ToLower(k)
		for _, s := range []string{"key", "secret", "token", "password", "passwd", "credential", "authorization", "cookie"} {
			if strings.Contains(l, s) {
				q.Set(k, "<redacted>")
				changed = true
			}
		}
	}
	if !changed {
		return v
	}
	u.RawQuery = q.Encode()
	return u.String()
}

func writeBugZip(path string, files []bugFile) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	for _, bf := range files {
		w, err := zw.Create(bf.name)
		if err == nil {
			_, err = w.Write(bf.data)
		}
		if err != nil {
			_ = zw.Close()
			_ = f.Close()
			return err
		}
	}
	if err := zw.Close(); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// uploadBugReport posts the files as multipart form data, attributed to
// the Radius account when token is set, and returns the report's id.
func uploadBugReport(ctx context.Context, gateway, token string, files []bugFile) (string, error) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, f := range files {
		hdr := make(textproto.MIMEHeader)
		hdr.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, f.name, f.name))
		hdr.Set("Content-Type", f.contentType)
		w, err := mw.CreatePart(hdr)
		if err != nil {
			return "", err
		}
		if _, err := w.Write(f.data); err != nil {
			return "", err
		}
	}
	if err := mw.Close(); err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, gateway+"/v1/bug-reports", &body)
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("Bug report upload failed: %w", err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	var out struct {
		OK          bool   `json:"ok"`
		Error       string `json:"error"`
		Description string `json:"description"`
		BugReport   *struct {
			ID string `json:"id"`
		} `json:"bug_report"`
	}
	parsed := json.Unmarshal(raw, &out) == nil
	if resp.StatusCode/100 == 2 && out.OK && out.BugReport != nil && out.BugReport.ID != "" {
		return out.BugReport.ID, nil
	}
	detail := ""
	if parsed && !out.OK {
		detail = out.Description
		if detail == "" {
			detail = out.Error
		}
	}
	if detail == "" {
		detail = strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode)+" ")
	}
	if detail == "" {
		detail = strconv.Itoa(resp.StatusCode)
	}
	return "", errors.New("Bug report upload failed: " + detail)
}
