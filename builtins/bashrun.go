package builtins

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"sync"
)

// BashOutcome is the result of RunBash, the RPC `bash` command's
// execution: ExitCode is nil when the command was cancelled.
type BashOutcome struct {
	Output         string
	ExitCode       *int
	Cancelled      bool
	Truncated      bool
	FullOutputPath string
}

// ansiSeq matches the escape sequences terminals interpret: CSI, OSC
// (ended by BEL or ST) and two-character escapes.
var ansiSeq = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("\x1b\\[[0-?]*[ -/]*[@-~]|\x1b\\][^\x07\x1b]*(?:\x07|\x1b\\\\)|\x1b[@-Z\\\\-_]")
})

// controlChars are removed from user bash output: they break width
// computations in clients.
var controlChars = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufff9-\ufffb]") })

// splitIncompleteANSI splits off a trailing escape sequence that may
// continue in the next chunk.
func splitIncompleteANSI(s string) (string, string) {
	i := strings.LastIndexByte(s, 0x1b)
	if i < 0 {
		return s, ""
	}
	rest := s[i:]
	if loc := ansiSeq().FindStringIndex(rest); loc != nil && loc[0] == 0 {
		return s, ""
	}
	// An ESC followed by nothing that could end a sequence yet is kept
	// for the next chunk; a long run without a terminator is not an escape.
	if len(rest) < 256 {
		return s[:i], rest
	}
	return s, ""
}

// RunBash runs a user command for the RPC `bash` command: output is
// stripped of ANSI escapes, control characters and carriage returns,
// streamed through onChunk, and tail-truncated to 2000 lines / 50 KiB with
// the whole output kept in a temp file when it grows past 50 KiB.
func RunBash(ctx context.Context, cwd, command string, onChunk func(string)) (BashOutcome, error) {
	return RunBashWithConfig(ctx, cwd, command, ShellConfig{}, onChunk)
}

// RunBashWithConfig is RunBash with an explicit shell configuration.
func RunBashWithConfig(ctx context.Context, cwd, command string, cfg ShellConfig, onChunk func(string)) (BashOutcome, error) {
	return RunBashOutput(ctx, func(ctx context.Context, onData func([]byte)) (*int, error) {
		code, err := runShell(ctx, command, cwd, nil, cfg, onData)
		if err != nil {
			return nil, err
		}
		return &code, nil
	}, onChunk)
}

// LocalShell runs command with the default shell in cwd, passing its raw
// merged output to onData; it is what an extension's
// createLocalBashOperations().exec runs. A cancelled ctx kills the
// process group and returns an error.
func LocalShell(ctx context.Context, command, cwd string, timeout *float64, onData func([]byte)) (int, error) {
	return runShell(ctx, command, cwd, timeout, ShellConfig{}, onData)
}

// RunBashOutput is the output side of RunBash for any runner: exec runs
// the command and feeds its raw output to onData (a custom backend, such
// as an extension's user_bash operations, or the local shell). A nil exit
// code is reported as none; an error of exec fails the command unless ctx
// was cancelled, which makes it a cancelled command.
func RunBashOutput(ctx context.Context, exec func(ctx context.Context, onData func([]byte)) (*int, error), onChunk func(string)) (BashOutcome, error) {
	var chunks []string
	outBytes := 0
	discarded := false
	totalRaw := 0
	const maxKept = DefaultMaxBytes * 2
	var tmp *tempSink
	dec := &outputAccumulator{}
	pendingANSI := ""
	appendText := func(raw string) {
		text := strings.ReplaceAll(controlChars().ReplaceAllString(ansiSeq().ReplaceAllString(raw, ""), ""), "\r", "")
		if text == "" {
			return
		}
		if totalRaw > DefaultMaxBytes && tmp == nil {
			tmp = newTempSink(chunks)
		}
		if tmp != nil {
			tmp.write(text)
		}
		chunks = append(chunks, text)
		outBytes += len(text)
		for outBytes > maxKept && len(chunks) > 1 {
			outBytes -= len(chunks[0])
			chunks = chunks[1:]
			discarded = true
		}
		if onChunk != nil {
			onChunk(text)
		}
	}
	onData := func(b []byte) {
		totalRaw += len(b)
		complete, pending := splitIncompleteANSI(pendingANSI + dec.decode(b, false))
		pendingANSI = pending
		appendText(complete)
	}
	code, err := exec(ctx, onData)
	if err != nil && !errors.Is(err, errShellAborted) && ctx.Err() == nil {
		if tmp != nil {
			tmp.close()
		}
		return BashOutcome{}, err
	}
	appendText(pendingANSI + dec.decode(nil, true))
	full := strings.Join(chunks, "")
	t := TruncateTail(full, TruncateOptions{})
	if t.Truncated && tmp == nil {
		tmp = newTempSink(chunks)
	}
	out := BashOutcome{Output: full, Cancelled: ctx.Err() != nil, Truncated: discarded || t.Truncated}
	if t.Truncated {
		out.Output = t.Content
	}
	if tmp != nil {
		tmp.close()
		out.FullOutputPath = tmp.path
	}
	if !out.Cancelled && code != nil {
		c := *code
		out.ExitCode = &c
	}
	return out, nil
}

// tempSink is the full-output file of RunBash.
type tempSink struct {
	path string
	acc  *outputAccumulator
}

func newTempSink(initial []string) *tempSink {
	f, path, err := newOutputFile("pi-bash")
	if err != nil {
		return &tempSink{}
	}
	s := &tempSink{path: path, acc: &outputAccumulator{tempFile: f}}
	for _, c := range initial {
		s.write(c)
	}
	return s
}

func (s *tempSink) write(text string) {
	if s.acc != nil {
		s.acc.writeTemp([]byte(text))
	}
}

func (s *tempSink) close() {
	if s.acc != nil {
		_ = s.acc.closeTempFile()
	}
}
