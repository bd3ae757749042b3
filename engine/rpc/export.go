package rpc

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/pi-go/pi/engine"
)

// Errors of export_html whose texts clients match on (the reference's).
var (
	// ErrExportInMemory answers export_html in a --no-session run.
	ErrExportInMemory = errors.New("Cannot export in-memory session to HTML")
	// ErrNothingToExport answers export_html before the session file has
	// been written (lazy persistence: no user or assistant message yet).
	ErrNothingToExport = errors.New("Nothing to export yet - start a conversation first")
)

// ExportTool is one tool of the agent as the export lists it.
type ExportTool struct {
	Name        string
	Description string
}

// ExportOptions carries what the export shows beyond the session file.
// Every field is optional.
type ExportOptions struct {
	// SessionFile names the default output file
	// (pi-session-<basename without .jsonl>.html). Empty: the name is
	// derived from the header as the session store names files.
	SessionFile string
	// LeafID is the current entry; the export shows the branch ending
	// there first. Empty: the last entry in append order (the leaf after
	// loading a file).
	LeafID string
	// SystemPrompt and Tools describe the agent at export time.
	SystemPrompt string
	Tools        []ExportTool
	// HomeDir expands "~" in the output path; empty means the user's home.
	HomeDir string
}

// CheckExportable returns the reference's refusal for a session that has
// no file (sessionFile == "") or whose file is not written yet. The RPC
// server calls it before ExportHTML.
func CheckExportable(sessionFile string) error {
	if sessionFile == "" {
		return ErrExportInMemory
	}
	if _, err := os.Stat(sessionFile); err != nil {
		return ErrNothingToExport
	}
	return nil
}

// ExportHTML writes one self-contained HTML file showing the whole session
// tree (the current branch first, then every other branch) and returns the
// path written. With outPath empty the file is pi-session-<session file
// name>.html in the process's working directory and the relative path is
// returned, as the reference does; otherwise "~" and file:// URLs are
// expanded and the path is returned in that form.
func ExportHTML(header engine.Header, entries []*engine.Entry, outPath string) (string, error) {
	return ExportSessionHTML(header, entries, outPath, ExportOptions{})
}

// ExportSessionHTML is ExportHTML with the extras of o.
func ExportSessionHTML(header engine.Header, entries []*engine.Entry, outPath string, o ExportOptions) (string, error) {
	path, err := exportPath(header, outPath, o)
	if err != nil {
		return "", err
	}
	page, err := RenderHTML(header, entries, o)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(path, page, 0o644); err != nil {
		return "", nodeFileError(err, path)
	}
	return path, nil
}

// DefaultExportPath is the reference's default output name for a session
// file: pi-session-<basename without .jsonl>.html, relative.
func DefaultExportPath(sessionFile string) string {
	return "pi-session-" + strings.TrimSuffix(filepath.Base(sessionFile), ".jsonl") + ".html"
}

// sessionFileName is the session store's file name for header, used when
// the caller did not say which file the session lives in.
func sessionFileName(h engine.Header) string {
	ts := strings.NewReplacer(":", "-", ".", "-").Replace(h.Timestamp)
	return ts + "_" + h.ID + ".jsonl"
}

func exportPath(h engine.Header, outPath string, o ExportOptions) (string, error) {
	if outPath == "" {
		file := o.SessionFile
		if file == "" {
			file = sessionFileName(h)
		}
		return DefaultExportPath(file), nil
	}
	p := outPath
	if p == "~" || strings.HasPrefix(p, "~/") {
		home := o.HomeDir
		if home == "" {
			var err error
			if home, err = os.UserHomeDir(); err != nil {
				return "", fmt.Errorf("export path: %w", err)
			}
		}
		if p == "~" {
			return home, nil
		}
		// filepath.Join cleans the result, as Node's path.join does.
		return filepath.Join(home, p[2:]), nil
	}
	if strings.HasPrefix(p, "file://") {
		u, err := url.Parse(p)
		if err != nil {
			return "", fmt.Errorf("export path %q: %w", p, err)
		}
		return u.Path, nil
	}
	return p, nil
}

// nodeFileError words a failed write as Node's fs errors read ("ENOENT: no
// such file or directory, open 'x'"), which is what clients of the
// reference display; the cause stays wrapped.
func nodeFileError(err error, path string) error {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return fmt.Errorf("write export: %w", err)
	}
	var text string
	switch {
	case errors.Is(err, fs.ErrNotExist):
		text = "ENOENT: no such file or directory"
	case errors.Is(err, fs.ErrPermission):
		text = "EACCES: permission denied"
	case errno == syscall.EISDIR:
		text = "EISDIR: illegal operation on a directory"
	case errno == syscall.ENOTDIR:
		text = "ENOTDIR: not a directory"
	case errno == syscall.ENOSPC:
		text = "ENOSPC: no space left on device"
	case errno == syscall.EROFS:
		text = "EROFS: read-only file system"
	default:
		return fmt.Errorf("write export: %w", err)
	}
	return &exportError{msg: fmt.Sprintf("%s, open '%s'", text, path), err: err}
}

type exportError struct {
	msg string
	err error
}

func (e *exportError) Error() string { return e.msg }
func (e *exportError) Unwrap() error { return e.err }
