package session

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

var (
	genSession = flag.String("gen-session", "", "write a synthetic session file here (TestGenerateSession) and exit the test")
	genSize    = flag.Int64("gen-size", 200<<20, "approximate size in bytes of the synthetic session")
	benchSize  = flag.Int64("resume-size", 20<<20, "size of the session BenchmarkOpenLarge resumes")
)

// words are the vocabulary of the synthetic session's text: code-ish
// tokens with the characters that need escaping in JSON.
var words = strings.Fields(`func return if else for range := err != nil { } ( ) [ ] "quoted" \path\to C:\x
	tab	separated	value the a of to in is that session entry model tool result read bash edit write
	ünïcödé 世界 😀 <html> & ' \n`)

// writeSyntheticSession writes a realistic session of about size bytes:
// a header, model and thinking changes, then turns of a user prompt, an
// assistant message with text and a tool call, a tool result with long
// file content (4-60 KB), and an assistant answer, each a child of the
// previous entry.
func writeSyntheticSession(w io.Writer, size int64, seed uint64) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var written int64
	put := func(format string, a ...any) {
		n, _ := fmt.Fprintf(bw, format, a...)
		written += int64(n)
	}
	text := func(n int) string {
		var sb strings.Builder
		for sb.Len() < n {
			sb.WriteString(words[r.IntN(len(words))])
			if r.IntN(12) == 0 {
				sb.WriteByte('\n')
			} else {
				sb.WriteByte(' ')
			}
		}
		return jsonString(sb.String())
	}
	ts := int64(1795975940389)
	iso := func() string {
		ts += int64(r.IntN(5000))
		return fmt.Sprintf("2026-11-29T%02d:%02d:%02d.%03dZ", ts/3600000%24, ts/60000%60, ts/1000%60, ts%1000)
	}
	put(`{"type":"session","version":3,"id":"01a22882-08e1-721f-b0f3-6a9b7dd570fd","timestamp":"%s","cwd":"/tmp"}`+"\n", iso())
	id := 0
	parent := "null"
	next := func() string {
		id++
		cur := fmt.Sprintf("%08x", id)
		p := parent
		parent = `"` + cur + `"`
		return fmt.Sprintf(`"id":"%s","parentId":%s,"timestamp":"%s"`, cur, p, iso())
	}
	put(`{"type":"model_change",%s,"provider":"mock","modelId":"mock-model"}`+"\n", next())
	put(`{"type":"thinking_level_change",%s,"thinkingLevel":"off"}`+"\n", next())
	usage := `"usage":{"input":%d,"output":%d,"cacheRead":0,"cacheWrite":0,"reasoning":0,"totalTokens":%d,"cost":{"input":0.001,"output":0.002,"cacheRead":0,"cacheWrite":0,"total":0.003,"totalFromProvider":false}}`
	for turn := 0; written < size; turn++ {
		put(`{"type":"message",%s,"message":{"role":"user","content":[{"type":"text","text":%s}],"timestamp":%d}}`+"\n", next(), text(200+r.IntN(800)), ts)
		call := fmt.Sprintf("call_%d", turn)
		in, out := 1000+r.IntN(90000), 50+r.IntN(2000)
		put(`{"type":"message",%s,"message":{"role":"assistant","content":[{"type":"text","text":%s},{"type":"toolCall","id":"%s","name":"read","arguments":{"path":"src/file%d.go"}}],"api":"openai-completions","provider":"mock","model":"mock-model",`+usage+`,"stopReason":"toolUse","timestamp":%d,"responseId":"chatcmpl-%d","durationMs":%d}}`+"\n",
			next(), text(100+r.IntN(1500)), call, turn, in, out, in+out, ts, turn, r.IntN(9000))
		put(`{"type":"message",%s,"message":{"role":"toolResult","toolCallId":"%s","toolName":"read","content":[{"type":"text","text":%s}],"isError":false,"durationMs":%d,"timestamp":%d}}`+"\n",
			next(), call, text(4000+r.IntN(56000)), r.IntN(50), ts)
		put(`{"type":"message",%s,"message":{"role":"assistant","content":[{"type":"text","text":%s}],"api":"openai-completions","provider":"mock","model":"mock-model",`+usage+`,"stopReason":"stop","timestamp":%d,"responseId":"chatcmpl-%db","durationMs":%d}}`+"\n",
			next(), text(200+r.IntN(3000)), in, out, in+out, ts, turn, r.IntN(9000))
	}
	return bw.Flush()
}

func jsonString(s string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for _, c := range s {
		switch c {
		case '"':
			sb.WriteString(`\"`)
		case '\\':
			sb.WriteString(`\\`)
		case '\n':
			sb.WriteString(`\n`)
		case '\t':
			sb.WriteString(`\t`)
		default:
			sb.WriteRune(c)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

// TestGenerateSession writes the synthetic session for bench/resume.sh
// when -gen-session is given; otherwise it checks that a small one opens.
func TestGenerateSession(t *testing.T) {
	path, size := *genSession, *genSize
	if path == "" {
		path, size = filepath.Join(t.TempDir(), "s.jsonl"), 1<<20
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeSyntheticSession(f, size, 1); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if *genSession != "" {
		return
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n := len(s.Branch()); n < 40 {
		t.Fatalf("branch has %d entries", n)
	}
}

// benchSession writes the synthetic session of -resume-size bytes.
func benchSession(b *testing.B) string {
	path := filepath.Join(b.TempDir(), "s.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := writeSyntheticSession(f, *benchSize, 1); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return path
}

// BenchmarkResume opens a synthetic session (-resume-size, 20 MB by
// default) and describes its branch, what a resume does before it
// answers: the messages stay on disk. It reports the heap in use after.
func BenchmarkResume(b *testing.B) {
	path := benchSession(b)
	b.SetBytes(*benchSize)
	b.ResetTimer()
	var live uint64
	for b.Loop() {
		s, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		if s.BranchState().MessageCount == 0 {
			b.Fatal("no messages")
		}
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		live = ms.HeapAlloc
		s.Close()
	}
	b.ReportMetric(float64(live)/float64(*benchSize), "heap/filebyte")
}

// BenchmarkOpenLarge resumes the synthetic session and builds the
// context a model call sends, which decodes every message of the branch,
// reporting the heap in use afterwards.
func BenchmarkOpenLarge(b *testing.B) {
	path := benchSession(b)
	b.SetBytes(*benchSize)
	b.ResetTimer()
	var live uint64
	for b.Loop() {
		s, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		sc := s.Context()
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		live = ms.HeapAlloc
		runtime.KeepAlive(sc)
		s.Close()
	}
	b.ReportMetric(float64(live)/float64(*benchSize), "heap/filebyte")
}
