package render

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

// hostile are benchmark names and paths that are Markdown or HTML when
// pasted unescaped into a pull request comment.
var hostile = []string{
	"BenchmarkBold/**bold**_and_*em*_",
	"BenchmarkLink/[click](https://example.com)",
	"BenchmarkImage/![x](https://example.com/x.png)",
	"Benchmark```</details><img/src=x/onerror=alert(1)>",
	"BenchmarkTicks/`a``b```c````",
	"Benchmark``<img/src=x>",
	"BenchmarkPipe/a|b",
	"BenchmarkTag/<b>bold</b>&amp;",
	"BenchmarkStrike/~~gone~~",
	"BenchmarkMath/$x^2$",
	`BenchmarkSlash/\*not-escaped\*`,
	"# heading",
	"- item",
	"1. item",
	"dir_with_underscores/[weird]*file*.go",
}

func TestMDText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"BenchmarkBold/**bold**_and_*em*_", `BenchmarkBold/\*\*bold\*\*\_and\_\*em\*\_`},
		{"BenchmarkLink/[click](https://example.com)", `BenchmarkLink/\[click\](https://example.com)`},
		{"Benchmark```</details>", "Benchmark\\`\\`\\`&lt;/details&gt;"},
		{"BenchmarkTag/<b>bold</b>&amp;", `BenchmarkTag/&lt;b&gt;bold&lt;/b&gt;&amp;amp;`},
		{"BenchmarkStrike/~~gone~~", `BenchmarkStrike/\~\~gone\~\~`},
		{"BenchmarkMath/$x^2$", `BenchmarkMath/\$x^2\$`},
		{`a\*b`, `a\\\*b`},
		{"# heading", `\# heading`},
		{"- item", `\- item`},
		{"+ item", `\+ item`},
		{"12. item", `12\. item`},
		{"3) item", `3\) item`},
		{"=== x", "=== x"},
		// Pipes are the table's to escape: outside one, \| shows the
		// backslash.
		{"a|b", "a|b"},
		{"two\nlines", "two lines"},
		{"plain text, 4.5 ns/op", "plain text, 4.5 ns/op"},
	} {
		if got := mdText(tc.in); got != tc.want {
			t.Errorf("mdText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCode(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"codec.go:8", "`codec.go:8`"},
		{"a|b", "`a|b`"},
		{"a`b", "``a`b``"},
		{"a``b", "```a``b```"},
		{"`x`", "`` `x` ``"},
		{"Benchmark```<img>", "````Benchmark```<img>````"},
		{"", ""},
	} {
		if got := code(tc.in); got != tc.want {
			t.Errorf("code(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFenced(t *testing.T) {
	for _, tc := range []struct {
		indent, info string
		lines        []string
		want         string
	}{
		{"", "sh", []string{"go test", "", "go tool pprof"}, "```sh\ngo test\n\ngo tool pprof\n```\n"},
		{"  ", "text", []string{"flow: ```", "````"}, "  `````text\n  flow: ```\n  ````\n  `````\n"},
		{"  ", "", []string{"a\nb\r\nc\rd"}, "  ```\n  a\n  b\n  c\n  d\n  ```\n"},
	} {
		if got := fenced(tc.indent, tc.info, tc.lines); got != tc.want {
			t.Errorf("fenced(%q, %q, %q) =\n%s\nwant\n%s", tc.indent, tc.info, tc.lines, got, tc.want)
		}
	}
}

func TestTableEscapesPipes(t *testing.T) {
	var b bytes.Buffer
	m := &mdWriter{b: &b}
	m.table("ll", []string{"name", "site"}, [][]string{{mdText("a|b"), code("x|y.go:1")}})
	want := "| name | site |\n|---|---|\n| a\\|b | `x\\|y.go:1` |\n\n"
	if b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
}

// hostileCheck is a failed check whose every name is hostile.
func hostileCheck(names []string) *document.Check {
	c := &document.Check{Schema: document.CheckSchema, Verdict: document.CheckFail, Base: "main", Head: "work tree", Rounds: 6}
	for _, n := range names {
		c.Regressions = append(c.Regressions, document.Regression{Package: "example.com/m", Benchmark: n, Unit: "sec/op", Delta: 0.5, Old: 1e-9, New: 1.5e-9,
			Causes: []document.Cause{{Kind: "cpu", File: n + ".go", Line: 3, Message: n + ": +1ns per op", Flow: []string{"from " + n + " (call parameter) at x.go:1:2"}}}})
		c.Budgets = append(c.Budgets, document.BudgetCheck{Budget: n + " allocs/op == 0", Benchmark: n, Unit: "allocs/op", Op: "==", Measured: 1})
		c.Failures = append(c.Failures, "example.com/m "+n+": panic: "+n)
		c.Inconclusive = append(c.Inconclusive, document.Change{Benchmark: n, Unit: "sec/op"})
		c.Improvements = append(c.Improvements, document.Change{Benchmark: n, Unit: "sec/op", Delta: -0.2})
		c.Notes = append(c.Notes, n)
	}
	return c
}

// TestCheckMarkdownHostileNames renders a check whose benchmarks, files
// and messages are Markdown and HTML, with the comparison table that
// holds them in a fenced block: nothing in them is live.
func TestCheckMarkdownHostileNames(t *testing.T) {
	var names []string
	for _, n := range hostile {
		if !strings.ContainsAny(n, " ") {
			names = append(names, n)
		}
	}
	// The comparison table is benchstat's, inside a fence: the names
	// reach it through a results file.
	var old, new strings.Builder
	for _, n := range names {
		if !strings.HasPrefix(n, "Benchmark") {
			continue
		}
		for i := 0; i < 6; i++ {
			old.WriteString(n + "-2 \t 1000\t 10." + string(rune('0'+i)) + " ns/op\n")
			new.WriteString(n + "-2 \t 1000\t 15." + string(rune('0'+i)) + " ns/op\n")
		}
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "old.txt"), []byte(old.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "new.txt"), []byte(new.String()), 0o644)
	tables := compareTables(t, "old="+filepath.Join(dir, "old.txt"), "new="+filepath.Join(dir, "new.txt"))

	var buf bytes.Buffer
	if err := CheckMarkdown(&buf, hostileCheck(names), tables, 0.05); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	live := liveMarkup(md)
	if want := []string{"<!-- perfloop check -->", "<details>", "<summary>", "</summary>", "</details>"}; !slices.Equal(live, want) {
		t.Errorf("live HTML %q, want only the comment's own %q:\n%s", live, want, md)
	}
	for _, want := range []string{
		`**BenchmarkBold/\*\*bold\*\*\_and\_\*em\*\_**`,
		`**BenchmarkLink/\[click\](https://example.com)**`,
		"**Benchmark\\`\\`\\`&lt;/details&gt;&lt;img/src=x/onerror=alert(1)&gt;**",
		"`BenchmarkPipe/a|b.go:3`",
		"`````BenchmarkTicks/`a``b```c````.go:3`````",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %s:\n%s", want, md)
		}
	}
}

// TestMarkdownHostileNames renders a report whose benchmark names, files,
// functions, commands and compiler flows are Markdown and HTML.
func TestMarkdownHostileNames(t *testing.T) {
	var buf bytes.Buffer
	if err := Markdown(&buf, hostileReport(hostile), Options{}); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	if live := liveMarkup(md); len(live) > 0 {
		t.Errorf("live HTML %q:\n%s", live, md)
	}
	for _, want := range []string{
		`- **BenchmarkBold/\*\*bold\*\*\_and\_\*em\*\_** (broken)`,
		"#### BenchmarkTag/&lt;b&gt;bold&lt;/b&gt;&amp;amp;",
		"| `BenchmarkPipe/a\\|b` |",
		"#### \\# heading",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %s:\n%s", want, md)
		}
	}
}

// hostileReport is a report document whose every name is one of names.
func hostileReport(names []string) *document.Report {
	doc := &document.Report{Schema: document.Schema, Module: "example.com/m"}
	one := 1.0
	for _, n := range names {
		doc.Benchmarks = append(doc.Benchmarks, document.Benchmark{Package: "example.com/m", Name: n, Status: "ok",
			Metrics: map[string]*document.Metric{"sec/op": {Median: 1e-9, N: 1}}})
		doc.Benchmarks = append(doc.Benchmarks, document.Benchmark{Package: "example.com/m", Name: n + "Failed", Status: "failed", Error: "panic: " + n})
		doc.Hotspots = append(doc.Hotspots, document.Hotspot{Package: "example.com/m", Benchmark: n, Function: "example.com/m." + n, File: n + ".go", Line: 1, Flat: 0.5, Cum: 0.5})
		doc.Categories = append(doc.Categories, document.CategoryShare{Package: "example.com/m", Benchmark: n, Category: "application", Share: 1})
		doc.Allocations = append(doc.Allocations, document.Allocation{Package: "example.com/m", Benchmark: n, Function: "example.com/m." + n, File: n + ".go", Line: 2,
			Bytes: 10, Objects: 1, BytesShare: 1, ObjectsShare: 1, Escape: &document.Escape{Verdict: "moved to heap: " + n, Flow: []string{"flow: {heap} ← &" + n + ":", "  from " + n + " at x.go:1"}}})
		doc.Findings = append(doc.Findings,
			document.Finding{Kind: "alloc", Severity: document.SeverityHigh, Benchmark: n, Function: "example.com/m." + n, File: n + ".go", Line: 2,
				Message: n + " allocates", Suggestion: "stop " + n, Evidence: []string{n, n}, Related: []document.Location{{File: n + ".go", Line: 3}},
				Costs: []document.Cost{{Benchmark: n, CPUShare: 0.5}}},
			document.Finding{Kind: "broken", Section: document.SectionBroken, Benchmark: n, Message: n + ": broken", Suggestion: n},
			document.Finding{Kind: "alone", Section: document.SectionLeaveAlone, Benchmark: n, Message: n + ": leave"})
		doc.Gate = append(doc.Gate, document.Gate{Verdict: document.VerdictFirst, Rule: n, Benchmark: n, Metric: n, Measured: 1, Threshold: 1, Unit: "share", Message: n})
		doc.Scaling = append(doc.Scaling, document.Scaling{Benchmark: n, Parameter: n, Growth: n, Exponent: one})
		doc.Commands = append(doc.Commands, document.Command{What: n, Command: "go test -bench '^" + n + "$'"})
	}
	return doc
}

// liveMarkup reads md as GitHub renders it, far enough to find HTML that
// would be live: it follows fenced code blocks (a fence closes only on a
// run of its character at least as long, CommonMark 4.5), skips code spans
// (a backtick run closes only on a run of the same length, 6.1) and
// backslash escapes, and returns every HTML tag or comment left outside
// them, plus "unclosed fence" when the document ends inside one.
func liveMarkup(md string) []string {
	var live []string
	fenceChar, fenceLen := byte(0), 0
	tag := regexp.MustCompile(`^<(!--.*?-->|/?[A-Za-z][^>]*>?)`)
	for _, line := range strings.Split(md, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if fenceLen > 0 {
			if n := run(trimmed, 0, fenceChar); n >= fenceLen && strings.TrimSpace(trimmed[n:]) == "" {
				fenceLen = 0
			}
			continue
		}
		if c := byte('`'); strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			if trimmed[0] == '~' {
				c = '~'
			}
			n := run(trimmed, 0, c)
			if c == '~' || !strings.Contains(trimmed[n:], "`") {
				fenceChar, fenceLen = c, n
				continue
			}
		}
		for i := 0; i < len(line); i++ {
			switch line[i] {
			case '\\':
				i++ // an escaped character is literal
			case '`':
				n := run(line, i, '`')
				if end := closingRun(line, i+n, n); end >= 0 {
					i = end + n - 1
				} else {
					i += n - 1
				}
			case '<':
				if m := tag.FindString(line[i:]); m != "" {
					live = append(live, m)
					i += len(m) - 1
				}
			}
		}
	}
	if fenceLen > 0 {
		live = append(live, "unclosed fence")
	}
	return live
}

// run is the length of the run of c at s[i:].
func run(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// closingRun is the index of the first run of exactly n backticks at or
// after i, or -1.
func closingRun(s string, i, n int) int {
	for i < len(s) {
		if s[i] != '`' {
			i++
			continue
		}
		m := run(s, i, '`')
		if m == n {
			return i
		}
		i += m
	}
	return -1
}

// mdUnescape is the text GitHub shows for mdText's output: backslash
// escapes and the three entities decoded.
func mdUnescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && strings.IndexByte(asciiPunct, s[i+1]) >= 0:
			i++
			b.WriteByte(s[i])
		case strings.HasPrefix(s[i:], "&lt;"):
			b.WriteByte('<')
			i += 3
		case strings.HasPrefix(s[i:], "&gt;"):
			b.WriteByte('>')
			i += 3
		case strings.HasPrefix(s[i:], "&amp;"):
			b.WriteByte('&')
			i += 4
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

const asciiPunct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// FuzzMarkdownEscape checks the escapes on any text: mdText shows the
// text and leaves no character that starts markup unescaped; code is one
// code span that holds exactly the text; a fenced block closes only on
// its own last line; and a report and a check made of the text have no
// live HTML and no open fence.
func FuzzMarkdownEscape(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Add("````\n```\n<b>")
	f.Fuzz(func(t *testing.T, s string) {
		want := oneLine(s)
		e := mdText(s)
		if strings.ContainsAny(e, "\n<>") {
			t.Fatalf("mdText(%q) = %q: a line break or a raw < or >", s, e)
		}
		if got := mdUnescape(e); got != want {
			t.Fatalf("mdText(%q) = %q shows as %q", s, e, got)
		}
		for i := 0; i < len(e); i++ {
			switch c := e[i]; {
			case c == '\\':
				i++
			case strings.IndexByte("*_[]`~$#", c) >= 0:
				t.Fatalf("mdText(%q) = %q: %q at %d is unescaped", s, e, c, i)
			case c == '&' && !strings.HasPrefix(e[i:], "&lt;") && !strings.HasPrefix(e[i:], "&gt;") && !strings.HasPrefix(e[i:], "&amp;"):
				t.Fatalf("mdText(%q) = %q: a raw & at %d", s, e, i)
			}
		}
		if regexp.MustCompile(`^([-+]|[0-9]{1,9}[.)])`).MatchString(e) {
			t.Fatalf("mdText(%q) = %q starts a block", s, e)
		}

		if c := code(s); want != "" {
			n := run(c, 0, '`')
			if end := closingRun(c, n, n); end != len(c)-n {
				t.Fatalf("code(%q) = %q: the span closes at %d, not at its end", s, c, end)
			}
			inner := c[n : len(c)-n]
			if len(inner) >= 2 && inner[0] == ' ' && inner[len(inner)-1] == ' ' && strings.Trim(inner, " ") != "" {
				inner = inner[1 : len(inner)-1]
			}
			if inner != want {
				t.Fatalf("code(%q) = %q holds %q", s, c, inner)
			}
		}

		block := fenced("  ", "text", []string{s})
		for _, l := range strings.Split(strings.TrimSuffix(block, "\n"), "\n") {
			if !strings.HasPrefix(l, "  ") || strings.ContainsRune(l, '\r') {
				t.Fatalf("fenced(%q) =\n%s\nhas a line out of its list item: %q", s, block, l)
			}
		}
		if live := liveMarkup(block + "<b>\n"); !slices.Equal(live, []string{"<b>"}) {
			t.Fatalf("fenced(%q) =\n%s\nleaves %q live after it, want only the <b> after the block", s, block, live)
		}

		var buf bytes.Buffer
		if err := Markdown(&buf, hostileReport([]string{s}), Options{}); err != nil {
			t.Fatal(err)
		}
		if live := liveMarkup(buf.String()); len(live) > 0 {
			t.Fatalf("report of %q: live HTML %q:\n%s", s, live, buf.String())
		}
		buf.Reset()
		if err := CheckMarkdown(&buf, hostileCheck([]string{s}), nil, 0.05); err != nil {
			t.Fatal(err)
		}
		if live := liveMarkup(buf.String()); !slices.Equal(live, []string{"<!-- perfloop check -->"}) {
			t.Fatalf("check of %q: live HTML %q:\n%s", s, live, buf.String())
		}
	})
}
