package markdown

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/engine/tui/theme"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func darkStyles(t testing.TB) *Styles {
	th, err := theme.LoadWith("dark", theme.Options{Mode: theme.ModeTrueColor})
	if err != nil {
		t.Fatal(err)
	}
	return StylesFromTheme(th)
}

// TestGoldens renders each testdata/*.md at widths 20, 40, 80 and 120 with
// the dark theme. A golden shows the plain rows (the layout, for review)
// and then the styled rows quoted.
func TestGoldens(t *testing.T) {
	t.Parallel()
	inputs, _ := filepath.Glob(filepath.Join("testdata", "*.md"))
	if len(inputs) == 0 {
		t.Fatal("no inputs")
	}
	for _, in := range inputs {
		src, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{20, 40, 80, 120} {
			d := New(darkStyles(t))
			d.SetText(string(src))
			rows := d.Render(w)
			var b strings.Builder
			for _, r := range rows {
				if got := ansi.StringWidth(r); got > w {
					t.Errorf("%s@%d: row %q is %d wide", in, w, r, got)
				}
				b.WriteString(strings.TrimRight(ansi.Strip(r), " ") + "\n")
			}
			b.WriteString("--- styled\n")
			for _, r := range rows {
				b.WriteString(strconv.Quote(r) + "\n")
			}
			golden := strings.TrimSuffix(in, ".md") + "." + strconv.Itoa(w) + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if string(want) != b.String() {
				t.Errorf("%s differs from the rendering (run with -update and review the diff)", golden)
			}
		}
	}
}

func plain(rows []string) string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.TrimRight(ansi.Strip(r), " ")
	}
	return strings.Join(out, "\n")
}

// TestLook pins the reference's look element by element (plain rows and
// the styles that matter).
func TestLook(t *testing.T) {
	t.Parallel()
	tag := func(n string) func(string) string {
		return func(s string) string { return "<" + n + ">" + s + "</" + n + ">" }
	}
	st := &Styles{Heading: tag("h"), Link: tag("a"), LinkURL: tag("u"), Code: tag("c"), CodeBlock: tag("cb"),
		CodeBlockBorder: tag("f"), Quote: tag("q"), QuoteBorder: tag("qb"), HR: tag("hr"), ListBullet: tag("li"),
		Bold: tag("b"), Italic: tag("i"), Underline: tag("ul"), Strike: tag("s")}
	cases := []struct {
		name, src, want string
		width           int
	}{
		{"h1", "# Title", "<h><b><ul>Title</ul></b></h>", 80},
		{"h2", "## Title", "<h><b>Title</b></h>", 80},
		{"h3 keeps hashes", "### Title", "<h><b>### </b></h><h><b>Title</b></h>", 80},
		{"setext", "Title\n---", "<h><b>Title</b></h>", 80},
		{"emphasis", "**b** *i* ~~s~~ `c`", "<b>b</b> <i>i</i> <s>s</s> <c>c</c>", 80},
		{"single tilde stays", "~a~", "~a~", 80},
		{"link", "[t](http://x.y)", "<a><ul>t</ul></a><u> (http://x.y)</u>", 80},
		{"bare url", "see https://x.y/z.", "see <a><ul>https://x.y/z</ul></a>.", 80},
		{"autolink", "<https://x.y>", "<a><ul>https://x.y</ul></a>", 80},
		{"image alt", "![alt](p.png)", "alt", 80},
		{"bullets", "- a\n- b\n    - c", "<li>- </li>a\n<li>- </li>b\n    <li>- </li>c", 80},
		{"ordered start", "3. a\n4. b", "<li>3. </li>a\n<li>4. </li>b", 80},
		{"loose", "- a\n\n- b", "<li>- </li>a\n\n<li>- </li>b", 80},
		{"task", "- [x] done", "<li>- [x] </li>done", 80},
		{"quote", "> q", "<qb>│ </qb><q><i>q</i></q>", 80},
		{"code", "```go\nx\n```", "<f>```go</f>\n  <cb>x</cb>\n<f>```</f>", 80},
		{"unclosed fence streams", "```go\nx\n``", "<f>```go</f>\n  <cb>x</cb>\n<f>```</f>", 80},
		{"blank between blocks", "a\n\n\n\nb", "a\n\nb", 80},
		{"paragraph then list", "a\n- b", "a\n<li>- </li>b", 80},
		{"heading then text", "# h\ntext", "<h><b><ul>h</ul></b></h>\n\ntext", 80},
		{"soft break kept", "a\nb", "a\nb", 80},
		{"comment hidden", "a <!-- c --> b", "a b", 80},
		{"escapes", `\*a\*`, "*a*", 80},
		{"entities stay", "&amp;", "&amp;", 80},
		{"table", "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |", "┌───┬───┐\n│ <b>a</b> │ <b>b</b> │\n├───┼───┤\n│ 1 │ 2 │\n├───┼───┤\n│ 3 │ 4 │\n└───┴───┘", 80},
		{"wrap", "aaa bbb ccc", "aaa bbb\nccc", 7},
		{"long word breaks", "abcdefghij", "abcd\nefgh\nij", 4},
	}
	for _, c := range cases {
		d := New(st)
		d.SetText(c.src)
		got := strings.Join(d.Render(c.width), "\n")
		if got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

func TestRuleAndNarrowTable(t *testing.T) {
	t.Parallel()
	d := New(nil)
	d.SetText("---")
	if got := d.Render(10); len(got) != 1 || got[0] != strings.Repeat("─", 10) {
		t.Errorf("rule at 10: %q", got)
	}
	if got := d.Render(120); got[0] != strings.Repeat("─", 80) {
		t.Errorf("rule at 120 is not 80 wide: %q", got)
	}
	// Too narrow for the borders: the table's source is shown instead.
	d.SetText("| a | b |\n|---|---|")
	if got := plain(d.Render(8)); strings.Contains(got, "┌") || !strings.Contains(got, "| a |") {
		t.Errorf("narrow table: %q", got)
	}
}

func TestHyperlinksAndIndent(t *testing.T) {
	t.Parallel()
	d := New(&Styles{Hyperlinks: true, CodeBlockIndent: "    "})
	d.SetText("[t](http://x.y)\n\n```\ncode\n```")
	got := d.Render(80)
	if got[0] != "\x1b]8;;http://x.y\x1b\\t\x1b]8;;\x1b\\" {
		t.Errorf("hyperlink: %q", got[0])
	}
	if got[3] != "    code" {
		t.Errorf("indent: %q", got[3])
	}
	// A hyperlink that wraps is closed at the row's end and reopened.
	d = New(&Styles{Hyperlinks: true})
	d.SetText("[aaa bbb](http://x.y)")
	rows := d.Render(4)
	if len(rows) != 2 || !strings.HasSuffix(rows[0], "\x1b]8;;\x1b\\") || !strings.HasPrefix(rows[1], "\x1b]8;;http://x.y\x1b\\") {
		t.Errorf("wrapped link: %q", rows)
	}
}

func TestStylesCarryAcrossWraps(t *testing.T) {
	t.Parallel()
	d := New(darkStyles(t))
	d.SetText("**bold words that wrap**")
	rows := d.Render(10)
	if len(rows) < 2 {
		t.Fatalf("rows %q", rows)
	}
	for _, r := range rows[1:] {
		if !strings.HasPrefix(r, "\x1b[1m") {
			t.Errorf("row %q does not re-open bold", r)
		}
	}
	if !strings.HasSuffix(rows[0], "\x1b[0m") {
		t.Errorf("row %q does not close its style", rows[0])
	}
}

func TestTransform(t *testing.T) {
	t.Parallel()
	d := New(&Styles{Transform: func(s string) string { return strings.ReplaceAll(s, ":rocket:", "🚀") }})
	d.SetText("go :rocket:")
	d.Append(" :rocket:")
	if got := plain(d.Render(80)); got != "go 🚀 🚀" {
		t.Errorf("transform: %q", got)
	}
}

// streamChunks feeds src in pieces of n bytes (on rune boundaries) and
// returns the rendering after each piece, checking it equals a fresh
// document's.
func checkStreaming(t *testing.T, src string, n, width int, useAppend bool) {
	t.Helper()
	st := darkStyles(t)
	d := New(st)
	for end := 0; end < len(src); {
		next := min(len(src), end+n)
		for next < len(src) && !utf8RuneStart(src[next]) {
			next++
		}
		if useAppend {
			d.Append(src[end:next])
		} else {
			d.SetText(src[:next])
		}
		end = next
		got := strings.Join(d.Render(width), "\n")
		fresh := New(st)
		fresh.SetText(src[:end])
		if want := strings.Join(fresh.Render(width), "\n"); got != want {
			t.Fatalf("after %d bytes:\nincremental %q\nfresh       %q", end, got, want)
		}
	}
}

func utf8RuneStart(b byte) bool { return b&0xc0 != 0x80 }

func TestStreamingMatchesFreshRender(t *testing.T) {
	t.Parallel()
	inputs, _ := filepath.Glob(filepath.Join("testdata", "*.md"))
	for _, in := range inputs {
		src, _ := os.ReadFile(in)
		for _, n := range []int{1, 7} {
			checkStreaming(t, string(src), n, 40, n == 7)
		}
	}
}

func TestCachedBlocksAreReused(t *testing.T) {
	t.Parallel()
	d := New(nil)
	d.SetText("first paragraph\n\nsecond")
	d.Render(40)
	firstRows := d.blocks[0].rows
	d.Append(" grows")
	d.Render(40)
	if &d.blocks[0].rows[0] != &firstRows[0] {
		t.Error("first block was rendered again")
	}
	if d.Render(40)[2] != "second grows" {
		t.Errorf("rows %q", d.Render(40))
	}
	// A width change renders everything again.
	d.Render(20)
	if d.blocks[0].width != 20 {
		t.Error("width change not rendered")
	}
}

func FuzzRowsFitWidth(f *testing.F) {
	for _, s := range []string{"# a", "| a | b |\n|---|---|\n| 中文 | 🚀 |", "- a\n  - b\n    - c", "> > q", "```\nx\n```", "**a *b* c** [l](u) `c`"} {
		f.Add(s, uint8(10))
	}
	st := &Styles{Bold: theme.Bold, Italic: theme.Italic, Hyperlinks: true}
	f.Fuzz(func(t *testing.T, src string, w uint8) {
		width := int(w%130) + 1
		d := New(st)
		d.SetText(src)
		for _, r := range d.Render(width) {
			if got := ansi.StringWidth(r); got > width {
				t.Fatalf("width %d: row %q is %d wide", width, r, got)
			}
		}
	})
}

// longReply builds a reply of about n bytes of mixed Markdown.
func longReply(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		switch i % 5 {
		case 0:
			b.WriteString("## Section " + strconv.Itoa(i) + "\n\n")
		case 1:
			b.WriteString("Some **bold** and *italic* text with `code` and a [link](https://example.com/" + strconv.Itoa(i) + ") that runs on for a while so it wraps.\n\n")
		case 2:
			b.WriteString("- item one\n- item two with more words\n    - nested\n\n")
		case 3:
			b.WriteString("```go\nfunc f(x int) int {\n\treturn x * 2 // double\n}\n```\n\n")
		case 4:
			b.WriteString("| a | b |\n|---|---|\n| 1 | two |\n\n")
		}
	}
	return b.String()
}

// BenchmarkStreamDelta streams 2,000 deltas of 24 bytes (mixed Markdown:
// paragraphs, lists, code, tables) onto a reply that already holds 10 KB or
// 200 KB, rendering after each delta as the interactive mode does. The time
// per 2,000 deltas must not grow with the text that came before.
func BenchmarkStreamDelta(b *testing.B) {
	st := darkStyles(b)
	stream := longReply(2000 * 24)
	for _, size := range []int{10_000, 200_000} {
		b.Run(strconv.Itoa(size/1000)+"KB", func(b *testing.B) {
			prefix := longReply(size)
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				d := New(st)
				d.SetText(prefix)
				d.Render(100)
				b.StartTimer()
				for k := 0; k+24 <= len(stream) && k < 2000*24; k += 24 {
					d.Append(stream[k : k+24])
					d.Render(100)
				}
			}
		})
	}
}

func TestDefaultTextStyle(t *testing.T) {
	t.Parallel()
	tag := func(n string) func(string) string {
		return func(s string) string { return "<" + n + ">" + s + "</" + n + ">" }
	}
	d := New(&Styles{Text: tag("t"), Bold: tag("b"), Heading: tag("h")})
	d.SetText("plain **bold** end\n\n# head")
	got := strings.Join(d.Render(80), "\n")
	// After an inner style the default style's opening is repeated (with
	// SGR styles that re-opens what the inner one closed).
	want := "<t>plain </t><b><t>bold</t></b><t><t> end</t>\n\n<h><b>head</b></h>"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// FuzzStreamingEqualsFresh appends src in two or three pieces and checks
// the rows equal a fresh render of the whole text.
func FuzzStreamingEqualsFresh(f *testing.F) {
	for _, s := range []string{"- a\n\n2", "para\n#x", "> q\nlazy", "```\ncode\n``", "a\n---", "| a |\n|---|\n| b |"} {
		f.Add(s, uint8(3), uint8(5))
	}
	st := &Styles{Bold: theme.Bold, Italic: theme.Italic}
	f.Fuzz(func(t *testing.T, src string, cut1, cut2 uint8) {
		a := min(int(cut1), len(src))
		b := min(a+int(cut2), len(src))
		var got, want string
		done := make(chan bool)
		go func() {
			defer close(done)
			d := New(st)
			d.SetText(src[:a])
			d.Render(30)
			d.Append(src[a:b])
			d.Render(30)
			d.Append(src[b:])
			got = strings.Join(d.Render(30), "\n")
			fresh := New(st)
			fresh.SetText(src)
			want = strings.Join(fresh.Render(30), "\n")
		}()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			t.Fatalf("hang: %q %d %d", src, a, b)
		}
		if got != want {
			t.Fatalf("pieces %q %q %q:\nstreamed %q\nfresh    %q", src[:a], src[a:b], src[b:], got, want)
		}
	})
}

// BenchmarkPathological renders inputs that nest or open constructs
// without end; each should cost about linear time in its length (compare
// the x500 and x2000 results).
func BenchmarkPathological(b *testing.B) {
	for _, p := range []string{"1. ", "> - ", "[a](", "![", "**a", "`", "<a "} {
		for _, n := range []int{500, 2000} {
			src := strings.Repeat(p, n)
			b.Run(strconv.Quote(p)+"x"+strconv.Itoa(n), func(b *testing.B) {
				for b.Loop() {
					d := New(nil)
					d.SetText(src)
					d.Render(30)
				}
			})
		}
	}
}

// A Doc is a component of the TUI, and drops its rows on a theme change.
var (
	_ tui.Component   = (*Doc)(nil)
	_ tui.Invalidator = (*Doc)(nil)
)
