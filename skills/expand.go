package skills

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/pi-go/pi/prompts"
)

// Expand turns "/skill:name args" into the block the model receives:
//
//	<skill name="NAME" location="FILE">
//	References are relative to DIR.
//
//	BODY
//	</skill>
//
// followed by a blank line and the trimmed arguments when there are any.
// The name ends at the first space. ok is false when text is not a skill
// command or names no loaded skill (the text is then sent unchanged). A
// skill file that cannot be read or parsed gives the text back unchanged
// with an error; the caller reports it as an extension error with event
// "skill_expansion" and the skill's path.
func Expand(text string, skills []Skill) (expanded string, ok bool, err error) {
	const prefix = "/skill:"
	if !strings.HasPrefix(text, prefix) {
		return text, false, nil
	}
	name, args := text[len(prefix):], ""
	if i := strings.IndexByte(text, ' '); i >= 0 {
		name, args = text[len(prefix):i], prompts.TrimJS(text[i+1:])
	}
	var skill *Skill
	for i := range skills {
		if skills[i].Name == name {
			skill = &skills[i]
			break
		}
	}
	if skill == nil {
		return text, false, nil
	}
	raw, err := os.ReadFile(skill.FilePath)
	if err != nil {
		return text, false, nodeError(err)
	}
	body, err := prompts.StripFrontmatter(string(raw))
	if err != nil {
		return text, false, fmt.Errorf("skill %s: %w", skill.Name, err)
	}
	var b strings.Builder
	b.WriteString(`<skill name="`)
	b.WriteString(skill.Name)
	b.WriteString(`" location="`)
	b.WriteString(skill.FilePath)
	b.WriteString("\">\nReferences are relative to ")
	b.WriteString(skill.BaseDir)
	b.WriteString(".\n\n")
	b.WriteString(prompts.TrimJS(body))
	b.WriteString("\n</skill>")
	if args != "" {
		b.WriteString("\n\n")
		b.WriteString(args)
	}
	return b.String(), true, nil
}

// nodeError gives a file system error the message Node.js would, since
// the error text reaches clients (extension_error, stderr) verbatim:
// "ENOENT: no such file or directory, open '/path'". Errors without a
// known errno keep Go's text; the original error stays wrapped.
func nodeError(err error) error {
	var pe *fs.PathError
	var errno syscall.Errno
	if !errors.As(err, &pe) || !errors.As(pe.Err, &errno) {
		return err
	}
	code, ok := nodeErrnoNames[errno]
	if !ok {
		return err
	}
	msg := code + ": " + nodeErrnoText(errno) + ", " + pe.Op
	if pe.Op == "open" {
		msg += " '" + pe.Path + "'"
	}
	return &nodeFSError{msg: msg, err: err}
}

type nodeFSError struct {
	msg string
	err error
}

func (e *nodeFSError) Error() string { return e.msg }
func (e *nodeFSError) Unwrap() error { return e.err }

// nodeErrnoNames are the errno codes a skill read can realistically hit.
var nodeErrnoNames = map[syscall.Errno]string{
	syscall.ENOENT: "ENOENT", syscall.EACCES: "EACCES", syscall.EISDIR: "EISDIR",
	syscall.ENOTDIR: "ENOTDIR", syscall.ELOOP: "ELOOP", syscall.EMFILE: "EMFILE", syscall.EPERM: "EPERM",
}

// nodeErrnoText is libuv's description of an errno, which differs from
// the C library's for a few codes.
func nodeErrnoText(e syscall.Errno) string {
	switch e {
	case syscall.EISDIR:
		return "illegal operation on a directory"
	case syscall.EPERM:
		return "operation not permitted"
	case syscall.ELOOP:
		return "too many symbolic links encountered"
	}
	return e.Error()
}

// ToPromptRefs describes skills for the system prompt's skills section.
func ToPromptRefs(skills []Skill) []prompts.SkillRef {
	out := make([]prompts.SkillRef, 0, len(skills))
	for _, s := range skills {
		out = append(out, prompts.SkillRef{
			Name: s.Name, Description: s.Description, Location: s.FilePath,
			DisableModelInvocation: s.DisableModelInvocation,
		})
	}
	return out
}

// Commands lists skills as get_commands entries named "skill:<name>", in
// load order.
func Commands(skills []Skill) []prompts.CommandInfo {
	out := make([]prompts.CommandInfo, 0, len(skills))
	for _, s := range skills {
		desc := s.Description
		info := s.SourceInfo
		out = append(out, prompts.CommandInfo{
			Name: "skill:" + s.Name, Description: &desc, Source: "skill", SourceInfo: &info,
			Location: prompts.SeedLocation(info.Scope), Path: s.FilePath,
		})
	}
	return out
}

// ExpandError is a skill that could not be expanded: the file's path and
// what went wrong. Callers report it as an extension error of event
// "skill_expansion".
type ExpandError struct {
	Path string
	Err  error
}

func (e *ExpandError) Error() string { return e.Err.Error() }
func (e *ExpandError) Unwrap() error { return e.Err }

// ExpandPrompt is the expansion every prompt and queued message gets after
// the input hook, as the reference applies it: "/skill:name args" first,
// then "/template args" over the result. A skill that cannot be read
// leaves the text as typed, with an *ExpandError to report.
func ExpandPrompt(text string, list []Skill, templates []prompts.Template) (string, *ExpandError) {
	var expErr *ExpandError
	if out, ok, err := Expand(text, list); err != nil {
		name, _, _ := strings.Cut(strings.TrimPrefix(text, "/skill:"), " ")
		path := ""
		for _, s := range list {
			if s.Name == name {
				path = s.FilePath
			}
		}
		expErr = &ExpandError{Path: path, Err: err}
	} else if ok {
		text = out
	}
	if out, ok := prompts.ExpandTemplate(text, templates); ok {
		return out, expErr
	}
	return text, expErr
}
