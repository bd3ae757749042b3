// Command searchbench generates the search benchmark's file tree and runs
// our grep, find and ls tools on it in-process, printing their text
// output, so that bench/all.sh can time them next to ripgrep and fd and
// compare what they find:
//
//	searchbench gen DIR [FILES]          write the tree (reproducible)
//	searchbench grep DIR PATTERN [JSON]  our grep; JSON adds arguments
//	searchbench find DIR PATTERN [JSON]  our find
//	searchbench ls DIR                   our ls
//	searchbench rg-lines                 rg --json on stdin to our line format
//	searchbench session FILE MB CWD      a session file of about MB megabytes
//
// What is timed by the caller is the whole process: start, the tool call,
// printing. ripgrep and fd pay their own start the same way.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pi-go/pi/builtins"
	"github.com/pi-go/pi/engine"
)

// Needle is planted in a few files of the generated tree: a search for it
// reads every file, as a search for a rare identifier does.
const Needle = "NEEDLE_pi_search_7f3a"

func main() {
	if len(os.Args) < 2 {
		fail("usage: searchbench gen|grep|find|ls|rg-lines ...")
	}
	switch os.Args[1] {
	case "gen":
		n := 50000
		if len(os.Args) > 3 {
			n, _ = strconv.Atoi(os.Args[3])
		}
		if err := generate(os.Args[2], n); err != nil {
			fail(err.Error())
		}
	case "grep", "find":
		args := map[string]any{"pattern": os.Args[3]}
		if len(os.Args) > 4 {
			if err := json.Unmarshal([]byte(os.Args[4]), &args); err != nil {
				fail(err.Error())
			}
		}
		run(os.Args[1], os.Args[2], args)
	case "ls":
		run("ls", os.Args[2], map[string]any{})
	case "rg-lines":
		rgLines()
	case "session":
		mb, _ := strconv.Atoi(os.Args[3])
		if err := writeSession(os.Args[2], mb, os.Args[4]); err != nil {
			fail(err.Error())
		}
	default:
		fail("unknown command " + os.Args[1])
	}
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "searchbench:", msg)
	os.Exit(2)
}

func run(name, dir string, args map[string]any) {
	t, ok := builtins.New(name, dir)
	if !ok {
		fail("no tool " + name)
	}
	raw, _ := json.Marshal(args)
	res, err := t.Execute(context.Background(), engine.ToolCall{ID: "b", Name: name, Args: raw}, nil)
	if err != nil {
		fail(err.Error())
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	defer w.Flush()
	for _, c := range res.Content {
		w.WriteString(c.Text)
		w.WriteString("\n")
	}
}

// rgLines turns `rg --json` output into the reference grep tool's lines
// ("path:n: text" and "path-n- text", "./" dropped, line ends stripped),
// without its limit and truncation, for comparing what is found.
func rgLines() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for sc.Scan() {
		var ev struct {
			Type string `json:"type"`
			Data struct {
				Path  struct{ Text string } `json:"path"`
				Lines struct{ Text string } `json:"lines"`
				N     int                   `json:"line_number"`
			} `json:"data"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil || (ev.Type != "match" && ev.Type != "context") {
			continue
		}
		p := strings.TrimPrefix(ev.Data.Path.Text, "./")
		text := strings.TrimSuffix(strings.TrimSuffix(ev.Data.Lines.Text, "\n"), "\r")
		sep := ":"
		if ev.Type == "context" {
			sep = "-"
		}
		fmt.Fprintf(w, "%s%s%d%s %s\n", p, sep, ev.Data.N, sep, text)
	}
}

var words = strings.Fields(`func return if else for range struct type interface map chan go defer
	select case switch package import var const nil err ctx string int byte error true false
	buffer reader writer handler server client request response config value index count
	:= = == != { } ( ) [ ] , ; . + - * / // "hello" 'x' 0 1 42 0x7f fmt.Println strings.Index`)

// generate writes a tree shaped like a Go module cache: 100 modules of 10
// packages of FILES/1000 files, text of 0.5 to 16 KB in most files, a few
// large ones, some binary files (NUL early, and one late), .gitignore files
// with rules that hide a share of the tree, hidden directories, and a .git
// directory at the top so that grep applies the ignore rules.
func generate(root string, files int) error {
	r := rand.New(rand.NewPCG(1, 2))
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		return err
	}
	write := func(p string, b []byte) error {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, b, 0o644)
	}
	if err := write(filepath.Join(root, ".gitignore"), []byte("*.log\n/mod7*/\nvendor/\n!keep.log\n")); err != nil {
		return err
	}
	perPkg := max(1, files/1000)
	exts := []string{".go", ".go", ".go", ".md", ".txt", ".json", ".log", ".s"}
	var buf []byte
	for i := 0; i < files; i++ {
		mod, pkg, f := i/(perPkg*10), (i/perPkg)%10, i%perPkg
		dir := filepath.Join(root, fmt.Sprintf("mod%02d@v1.%d.0", mod, mod%7), fmt.Sprintf("pkg%d", pkg))
		if pkg == 9 {
			dir = filepath.Join(filepath.Dir(dir), ".hidden", "pkg9")
		}
		if pkg == 8 && mod%4 == 0 {
			dir = filepath.Join(filepath.Dir(dir), "vendor", "pkg8")
		}
		if f == 0 && pkg == 3 {
			if err := write(filepath.Join(dir, ".gitignore"), []byte("gen_*\n*.tmp\n")); err != nil {
				return err
			}
		}
		name := fmt.Sprintf("file%03d%s", f, exts[r.IntN(len(exts))])
		if f%17 == 5 {
			name = fmt.Sprintf("gen_%03d.go", f)
		}
		size := 500 + r.IntN(16000)
		if r.IntN(1000) == 0 {
			size = 1<<20 + r.IntN(4<<20)
		}
		buf = buf[:0]
		line := 1
		needleLine := -1
		if i%2500 == 1234 {
			needleLine = 1 + r.IntN(max(1, size/40))
		}
		for len(buf) < size {
			if line == needleLine {
				buf = append(buf, "\tx := "+Needle+"(ctx)\n"...)
			}
			for n := r.IntN(12); n > 0; n-- {
				buf = append(buf, words[r.IntN(len(words))]...)
				buf = append(buf, ' ')
			}
			buf = append(buf, '\n')
			line++
		}
		switch {
		case r.IntN(100) == 0:
			buf[r.IntN(min(len(buf), 4096))] = 0 // binary: NUL in the first 64 KiB
		case i == 777:
			buf = append(buf, make([]byte, 200<<10)...)
			buf = append(buf, Needle+" after the NUL\n"...)
		}
		if err := write(filepath.Join(dir, name), buf); err != nil {
			return err
		}
	}
	return nil
}

// writeSession writes a session of about mb megabytes in the reference's
// version 3 format: turns of a user prompt, a bash tool call, its 4 KB
// result and an answer, each entry the child of the one before.
func writeSession(file string, mb int, cwd string) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprintf(w, `{"type":"session","version":3,"id":"0192a000-0000-7000-8000-000000000001","timestamp":"2026-11-29T18:00:00.000Z","cwd":%q}`+"\n", cwd)
	fmt.Fprintf(w, `{"type":"model_change","id":"m0000000","parentId":null,"timestamp":"2026-11-29T18:00:00.001Z","provider":"mock","modelId":"mock-model"}`+"\n")
	usage := `"usage":{"input":120,"output":7,"cacheRead":0,"cacheWrite":0,"totalTokens":127,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}`
	out := strings.Repeat("output line of the command, long enough to be typical\\n", 75)
	parent, n := "m0000000", 0
	id := func() string { n++; return fmt.Sprintf("%08x", n) }
	for written := 0; written < mb<<20; {
		ids := [4]string{id(), id(), id(), id()}
		turn := n / 4
		lines := []string{
			fmt.Sprintf(`{"type":"message","id":"%s","parentId":"%s","timestamp":"2026-11-29T18:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"Please run the tool, turn %d"}],"timestamp":1795975940389}}`, ids[0], parent, turn),
			fmt.Sprintf(`{"type":"message","id":"%s","parentId":"%s","timestamp":"2026-11-29T18:00:01.100Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"call_%d","name":"bash","arguments":{"command":"echo hi"}}],"api":"openai-completions","provider":"mock","model":"mock-model",%s,"stopReason":"toolUse","timestamp":1795975940403}}`, ids[1], ids[0], turn, usage),
			fmt.Sprintf(`{"type":"message","id":"%s","parentId":"%s","timestamp":"2026-11-29T18:00:01.200Z","message":{"role":"toolResult","toolCallId":"call_%d","toolName":"bash","content":[{"type":"text","text":"%s"}],"isError":false,"timestamp":1795975940523}}`, ids[2], ids[1], turn, out),
			fmt.Sprintf(`{"type":"message","id":"%s","parentId":"%s","timestamp":"2026-11-29T18:00:01.300Z","message":{"role":"assistant","content":[{"type":"text","text":"Tool said: hi"}],"api":"openai-completions","provider":"mock","model":"mock-model",%s,"stopReason":"stop","timestamp":1795975940525}}`, ids[3], ids[2], usage),
		}
		for _, l := range lines {
			w.WriteString(l)
			w.WriteByte('\n')
			written += len(l) + 1
		}
		parent = ids[3]
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}
