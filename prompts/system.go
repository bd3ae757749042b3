package prompts

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Names of the files that replace or extend the default prompt.
const (
	SystemFileName       = "SYSTEM.md"
	AppendSystemFileName = "APPEND_SYSTEM.md"
)

// LoadSystemFiles finds SYSTEM.md and APPEND_SYSTEM.md. Each is looked up
// in the project's .pi/ and then .pi/agent/ (only when the project is
// trusted), then in the global agent directory; the first one found wins,
// so a project file replaces the global one rather than adding to it.
//
// system is the SYSTEM.md text ("" when there is none) and appendParts
// holds the APPEND_SYSTEM.md text (at most one element). Both are used
// verbatim apart from a leading byte order mark. They apply only when the
// matching command-line flag is absent; the caller decides that.
//
// A file that exists but cannot be read is reported in err and the search
// goes on to the next location, so the results are usable even then.
func LoadSystemFiles(agentDir, cwd string, projectTrusted bool) (system string, appendParts []string, err error) {
	var errs []error
	dirs, derr := systemFileDirs(agentDir, cwd, projectTrusted)
	if derr != nil {
		return "", nil, derr
	}
	if text, ok := firstFile(dirs, SystemFileName, &errs); ok {
		system = text
	}
	if text, ok := firstFile(dirs, AppendSystemFileName, &errs); ok {
		appendParts = []string{text}
	}
	return system, appendParts, errors.Join(errs...)
}

// systemFileDirs lists the directories searched, in priority order.
func systemFileDirs(agentDir, cwd string, projectTrusted bool) ([]string, error) {
	var dirs []string
	if projectTrusted && cwd != "" {
		c, err := absPath(cwd)
		if err != nil {
			return nil, fmt.Errorf("cwd: %w", err)
		}
		dirs = append(dirs, filepath.Join(c, ".pi"), filepath.Join(c, ".pi", "agent"))
	}
	if agentDir != "" {
		a, err := absPath(agentDir)
		if err != nil {
			return nil, fmt.Errorf("agent dir: %w", err)
		}
		dirs = append(dirs, a)
	}
	return dirs, nil
}

func firstFile(dirs []string, name string, errs *[]error) (string, bool) {
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if _, err := os.Stat(p); err != nil {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			*errs = append(*errs, fmt.Errorf("read %s: %w", p, err))
			continue
		}
		return stripBOM(string(b)), true
	}
	return "", false
}

// ResolveTextOrFile turns a --system-prompt or --append-system-prompt value
// into prompt text: when the value names an existing path (relative to the
// process's working directory) the file's contents are used, otherwise the
// value itself. A path that exists but cannot be read (a directory, say)
// falls back to the value, as in the reference.
func ResolveTextOrFile(arg string) string {
	text, _ := ReadTextOrFile(arg)
	return text
}

// ReadTextOrFile is ResolveTextOrFile that also returns the read error of
// an existing but unreadable path, so the caller can print a warning. The
// text is usable either way.
func ReadTextOrFile(arg string) (string, error) {
	if arg == "" {
		return "", nil
	}
	if _, err := os.Stat(arg); err != nil {
		return arg, nil
	}
	b, err := os.ReadFile(arg)
	if err != nil {
		return arg, fmt.Errorf("read prompt file %s: %w", arg, err)
	}
	return stripBOM(string(b)), nil
}
