package escape

import (
	"strings"
	"testing"
)

func TestIndexLine(t *testing.T) {
	ix := captured(t, "planted.go1.26.build.txt")
	var got []string
	for _, d := range ix.Line("planted.go", 36) {
		got = append(got, d.Position()+" "+d.Message)
	}
	want := []string{
		"planted.go:36:20 ... argument does not escape",
		"planted.go:36:30 id escapes to heap",
		"planted.go:36:34 n escapes to heap",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Line(planted.go, 36) =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if ds := ix.Line("planted.go", 1); ds != nil {
		t.Errorf("Line(planted.go, 1) = %v, want nil", ds)
	}
	if ds := ix.Line("other.go", 36); ds != nil {
		t.Errorf("Line(other.go, 36) = %v, want nil", ds)
	}
}

// TestJoinInlined joins a site inlined into its caller: head's make at
// planted.go:97 runs inside UseHead at planted.go:102, where the compiler
// reports the inlined copy.
func TestJoinInlined(t *testing.T) {
	ix := captured(t, "planted.go1.26.build.txt")
	site := Site{File: "planted.go", Line: 97, CallerFile: "planted.go", CallerLine: 102}
	if !site.Inlined() {
		t.Fatal("Inlined() = false")
	}
	var got []string
	for _, d := range ix.Join(site) {
		got = append(got, d.Position()+" "+d.Message)
	}
	want := []string{
		"planted.go:102:17 inlining call to head",
		"planted.go:102:17 make([]byte, n) does not escape",
		"planted.go:102:32 inlining call to head",
		"planted.go:102:32 make([]byte, 8) does not escape",
		"planted.go:97:13 make([]byte, n) escapes to heap",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Join =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Not inlined: only the site's own line, once.
	if n, m := len(ix.Join(Site{File: "planted.go", Line: 97})), len(ix.Line("planted.go", 97)); n != m {
		t.Errorf("Join(not inlined) has %d diagnostics, Line %d", n, m)
	}
	if (Site{File: "a.go", Line: 3, CallerFile: "a.go", CallerLine: 3}).Inlined() {
		t.Error("a site whose caller line is its own line is not inlined")
	}
}

func TestNewIndexMerges(t *testing.T) {
	in := "a.go:3:2: x escapes to heap in F:\n" +
		"a.go:3:2:   flow: {heap} ← &x:\n" +
		"a.go:3:2: x escapes to heap in F:\n" + // a second flow for the same value
		"a.go:3:2:   flow: ~r0 ← &x:\n" +
		"a.go:3:2: moved to heap: x\n" +
		"a.go:5:2: y escapes to heap in F:\n" + // no verdict follows
		"a.go:5:2:   flow: {heap} ← y:\n" +
		"a.go:7:2: parameter p leaks to {heap} for F with derefs=0:\n" +
		"a.go:7:2: leaking param content: p\n"
	ix, err := ReadIndex(strings.NewReader(in), "in")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ix.Diagnostics() {
		got = append(got, d.String())
	}
	want := []string{
		"a.go:3:2: moved to heap: x\na.go:3:2:   flow: {heap} ← &x:\na.go:3:2:   flow: ~r0 ← &x:",
		"a.go:5:2: y escapes to heap\na.go:5:2:   flow: {heap} ← y:",
		"a.go:7:2: leaking param content: p",
	}
	if strings.Join(got, "\n--\n") != strings.Join(want, "\n--\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n--\n"), strings.Join(want, "\n--\n"))
	}
	if d := ix.Diagnostics()[0]; d.Func != "F" {
		t.Errorf("merged Func = %q, want F", d.Func)
	}
}
