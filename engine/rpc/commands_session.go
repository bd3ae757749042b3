package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/session"
	"github.com/pi-go/pi/prompts"
	"github.com/pi-go/pi/skills"
)

// Errors whose text clients match on.
var (
	errExportMissing = errors.New("export_html not available yet")
)

type cancelledData struct {
	Cancelled bool `json:"cancelled"`
}

func handleNewSession(ctx context.Context, s *Server, cmd *Command) *Response {
	var f struct {
		ParentSession string `json:"parentSession"`
	}
	if err := fields(cmd, &f); err != nil {
		return fail(cmd, err)
	}
	cancelled, err := s.ctl.NewSession(ctx, f.ParentSession)
	if err != nil {
		return fail(cmd, err)
	}
	return ok(cmd, cancelledData{cancelled})
}

func handleSwitchSession(ctx context.Context, s *Server, cmd *Command) *Response {
	var f struct {
		SessionPath *string `json:"sessionPath"`
	}
	if err := fields(cmd, &f); err != nil {
		return fail(cmd, err)
	}
	if f.SessionPath == nil || *f.SessionPath == "" {
		return fail(cmd, errors.New("Invalid sessionPath: expected a path"))
	}
	cancelled, err := s.ctl.SwitchSession(ctx, *f.SessionPath)
	if err != nil {
		return fail(cmd, err)
	}
	return ok(cmd, cancelledData{cancelled})
}

type forkData struct {
	Text      string `json:"text"`
	Cancelled bool   `json:"cancelled"`
}

func handleFork(ctx context.Context, s *Server, cmd *Command) *Response {
	var f struct {
		EntryID string `json:"entryId"`
	}
	if err := fields(cmd, &f); err != nil {
		return fail(cmd, err)
	}
	cancelled, text, err := s.ctl.ForkUser(ctx, f.EntryID)
	if err != nil {
		return fail(cmd, err)
	}
	if cancelled {
		return ok(cmd, cancelledData{true})
	}
	return ok(cmd, forkData{Text: text})
}

func handleClone(ctx context.Context, s *Server, cmd *Command) *Response {
	cancelled, err := s.ctl.Clone(ctx)
	if err != nil {
		return fail(cmd, err)
	}
	return ok(cmd, cancelledData{cancelled})
}

type forkMessagesData struct {
	Messages []session.ForkMessage `json:"messages"`
}

func handleGetForkMessages(ctx context.Context, s *Server, cmd *Command) *Response {
	_, store := s.current()
	return ok(cmd, forkMessagesData{store.ForkMessages()})
}

type entriesData struct {
	Entries []json.RawMessage `json:"entries"`
	LeafID  *string           `json:"leafId"`
}

func leafOf(store *session.File) *string {
	if id := store.LeafID(); id != "" {
		return &id
	}
	return nil
}

func handleGetEntries(ctx context.Context, s *Server, cmd *Command) *Response {
	var f struct {
		Since json.RawMessage `json:"since"`
	}
	if err := fields(cmd, &f); err != nil {
		return fail(cmd, err)
	}
	since := ""
	if len(f.Since) > 0 {
		// A non-string cursor matches no entry; the error names it as sent.
		if json.Unmarshal(f.Since, &since) != nil {
			return fail(cmd, fmt.Errorf("Entry not found: %s", f.Since))
		}
	}
	_, store := s.current()
	entries, err := store.EntriesSince(since)
	if err != nil {
		return fail(cmd, err)
	}
	out := make([]json.RawMessage, 0, len(entries))
	for _, e := range entries {
		raw := store.EntryJSON(e.ID)
		if raw == nil {
			raw, _ = engine.MarshalJSON(e)
		}
		out = append(out, raw)
	}
	return ok(cmd, entriesData{Entries: out, LeafID: leafOf(store)})
}

type treeData struct {
	Tree   []*session.TreeNode `json:"tree"`
	LeafID *string             `json:"leafId"`
}

func handleGetTree(ctx context.Context, s *Server, cmd *Command) *Response {
	_, store := s.current()
	return ok(cmd, treeData{Tree: store.Tree(), LeafID: leafOf(store)})
}

type lastTextData struct {
	Text string `json:"text,omitempty"`
}

// LastAssistantText is the reference's pick: the last assistant message
// that ended normally or has non-blank text, its text blocks joined and
// trimmed.
func LastAssistantText(msgs []*engine.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Role != engine.RoleAssistant {
			continue
		}
		hasText := false
		for _, c := range m.Content.Blocks {
			if c.Type == engine.ContentText && strings.TrimSpace(c.Text) != "" {
				hasText = true
			}
		}
		if m.StopReason != engine.StopStop && !hasText {
			continue
		}
		var b strings.Builder
		for _, c := range m.Content.Blocks {
			if c.Type == engine.ContentText {
				b.WriteString(c.Text)
			}
		}
		return strings.TrimSpace(b.String())
	}
	return ""
}

func handleGetLastAssistantText(ctx context.Context, s *Server, cmd *Command) *Response {
	sess, _ := s.current()
	return ok(cmd, lastTextData{LastAssistantText(sess.Messages())})
}

func handleSetSessionName(ctx context.Context, s *Server, cmd *Command) *Response {
	var f struct {
		Name string `json:"name"`
	}
	if err := fields(cmd, &f); err != nil {
		return fail(cmd, err)
	}
	sess, _ := s.current()
	if _, err := sess.SetSessionName(f.Name); err != nil {
		return fail(cmd, err)
	}
	return ok(cmd, nil)
}

type commandsData struct {
	Commands []prompts.CommandInfo `json:"commands"`
}

func handleGetCommands(ctx context.Context, s *Server, cmd *Command) *Response {
	out := []prompts.CommandInfo{}
	out = append(out, s.ctl.Commands()...)
	templates, sk := s.resources()
	out = append(out, prompts.TemplateCommands(templates)...)
	out = append(out, skills.Commands(sk)...)
	return ok(cmd, commandsData{out})
}

type pathData struct {
	Path string `json:"path"`
}

func handleExportHTML(ctx context.Context, s *Server, cmd *Command) *Response {
	var f struct {
		OutputPath string `json:"outputPath"`
	}
	if err := fields(cmd, &f); err != nil {
		return fail(cmd, err)
	}
	_, store := s.current()
	if !store.Persisted() {
		return fail(cmd, ErrExportInMemory)
	}
	if !store.Flushed() {
		return fail(cmd, ErrNothingToExport)
	}
	out := f.OutputPath
	if out == "" {
		out = "pi-session-" + strings.TrimSuffix(filepath.Base(store.Path()), ".jsonl") + ".html"
	}
	if s.ExportHTML == nil {
		return fail(cmd, errExportMissing)
	}
	path, err := s.ExportHTML(store.Header(), store.Entries(), out)
	if err != nil {
		return fail(cmd, err)
	}
	return ok(cmd, pathData{path})
}
