package escape

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// TestExplainPlanted explains every planted allocation from the captured
// output of both compiler generations: the causes must not depend on the
// compiler's format.
func TestExplainPlanted(t *testing.T) {
	tests := []struct {
		site   Site
		cause  Cause
		name   string
		reason string // a part of Reason
	}{
		{Site{File: "planted.go", Line: 13}, CauseMovedToHeap, "hdr", "hdr is moved to the heap because its address escapes: w.Write(hdr[:]) (call parameter)"},
		{Site{File: "planted.go", Line: 27}, CauseVariableMake, "buf", "make([]byte, n) (buf) has a size known only at run time"},
		{Site{File: "planted.go", Line: 36}, CauseInterface, "id, n", "converted to an interface"},
		{Site{File: "planted.go", Line: 36, Callees: []string{"fmt.Sprintf"}}, CauseInterface, "id, n", "fmt.Sprintf allocates too"},
		{Site{File: "planted.go", Line: 36, Callees: []string{"runtime.convT64"}}, CauseInterface, "id, n", "fmt.Sprintf"},
		{Site{File: "planted.go", Line: 43}, CauseConcat, "s", `p + "," (s) concatenates strings`},
		{Site{File: "planted.go", Line: 43, Callees: []string{"runtime.concatstrings", "runtime.concatstring2"}}, CauseConcat, "s", "concatenates"},
		{Site{File: "planted.go", Line: 50}, CauseMovedToHeap, "n", "captures it by reference"},
		{Site{File: "planted.go", Line: 51}, CauseClosure, "func literal", "return func literal (return)"},
		{Site{File: "planted.go", Line: 74}, CauseAppend, "out", "append to out grows it"},
		{Site{File: "planted.go", Line: 74, Callees: []string{"runtime.growslice"}}, CauseAppend, "out", "runtime.growslice"},
		{Site{File: "planted.go", Line: 81}, CauseConversion, "b", "([]byte)(s) (b) converts"},
		{Site{File: "planted.go", Line: 83}, CauseConversion, "string(b)", "copies into a new allocation"},
		{Site{File: "planted.go", Line: 88}, CauseMap, "m", "the map made by make(map[string]int) escapes"},
		{Site{File: "planted.go", Line: 90}, CauseMap, "m", "the map m grows"},
		// Made at the line, the make explains it; only grown there (an
		// entry stored into a map made elsewhere, beside a helper's
		// make inlined at the line), the make does not.
		{Site{File: "planted.go", Line: 88, Callees: []string{"runtime.makemap_small"}}, CauseMap, "m", "the map made by make(map[string]int) escapes"},
		{Site{File: "planted.go", Line: 88, Callees: []string{"runtime.mapassign_faststr"}}, CauseMap, "m", "the map m grows as entries are added: it allocates its first table at its first insert, and a larger one"},
		{Site{File: "planted.go", Line: 90, Callees: []string{"runtime.hashGrow", "runtime.mapassign_faststr"}}, CauseMap, "m", "grows"},
		{Site{File: "planted.go", Line: 97, CallerFile: "planted.go", CallerLine: 102}, CauseVariableMake, "make([]byte, n)", "size known only at run time"},
		{Site{File: "planted.go", Line: 18, Callees: []string{"runtime.growslice", "bytes.(*Buffer).grow", "bytes.(*Buffer).Write"}}, CauseCallee, "bytes.(*Buffer).Write", "inside bytes.(*Buffer).Write"},
		{Site{File: "planted.go", Line: 60}, CauseUnknown, "", "no compiler diagnostic"},
		{Site{File: "missing.go", Line: 1}, CauseUnknown, "", "no compiler diagnostic"},
	}
	src := os.DirFS("testdata/planted")
	for _, file := range []string{"planted.go1.26.build.txt", "planted.go1.24.build.txt", "planted.go1.26.listtest.txt"} {
		e := NewExplainer(captured(t, file), src)
		for _, tt := range tests {
			x := e.Explain(tt.site)
			if x.Cause != tt.cause || x.Name != tt.name || !strings.Contains(x.Reason, tt.reason) {
				t.Errorf("%s: Explain(%+v) = %s %q %q, want %s %q with %q",
					file, tt.site, x.Cause, x.Name, x.Reason, tt.cause, tt.name, tt.reason)
			}
			if x.Verdict != "" && (x.Position == "" || !strings.Contains(x.Verdict, strings.Split(x.Name, ", ")[0]) && x.Cause != CauseAppend && x.Cause != CauseVariableMake && x.Cause != CauseConcat && x.Cause != CauseMap && x.Cause != CauseConversion) {
				t.Errorf("%s: Explain(%+v): verdict %q at %q does not name %q", file, tt.site, x.Verdict, x.Position, x.Name)
			}
		}
	}
}

// TestExplainVerdictAndFlow checks the fields document.Escape takes.
func TestExplainVerdictAndFlow(t *testing.T) {
	e := NewExplainer(captured(t, "planted.go1.26.build.txt"), nil)
	x := e.Explain(Site{File: "planted.go", Line: 13})
	if x.Verdict != "moved to heap: hdr" || x.Position != "planted.go:13:6" {
		t.Errorf("verdict %q at %q", x.Verdict, x.Position)
	}
	want := []string{
		"flow: {heap} ← &hdr:",
		"  from hdr (address-of) at planted.go:18:26",
		"  from hdr[:] (slice) at planted.go:18:26",
		"  from w.Write(hdr[:]) (call parameter) at planted.go:18:22",
	}
	if strings.Join(x.Flow, "\n") != strings.Join(want, "\n") {
		t.Errorf("flow =\n%s\nwant\n%s", strings.Join(x.Flow, "\n"), strings.Join(want, "\n"))
	}
	if len(x.Diagnostics) != 1 {
		t.Errorf("diagnostics on planted.go:13: %v", x.Diagnostics)
	}
	// Without source, a variable-size make is still recognised from the
	// compiler's expression, named by it.
	x = e.Explain(Site{File: "planted.go", Line: 27})
	if x.Cause != CauseVariableMake || x.Name != "make([]byte, n)" {
		t.Errorf("Explain(planted.go:27) without source = %s %q", x.Cause, x.Name)
	}
}

// TestExplainSource checks the source-only recognition on lines the
// compiler says nothing about (a nil index).
func TestExplainSource(t *testing.T) {
	src := fstest.MapFS{
		"p/consts.go": {Data: []byte("package p\n\nconst Size = 64\n")},
		"p/p.go": {Data: []byte(`package p

import (
	"bytes"
	"fmt"
)

type T struct{ idx map[string]int }

func F(n int, s string, t *T, b []byte) {
	a := make([]byte, Size)
	c := make([]byte, n*2)
	d := make([]int, 0, bytes.MinRead)
	t.idx[s] = n
	t.idx[s]++
	msg := "x=" + s
	u := []rune(s)
	fmt.Println(a, c, d, msg, u)
	const local = 8
	e := make([]byte, local+1)
	_ = e
	var list []int
	list = append(list, n)
	x := string(b)
	_, _ = list, x
	g := func() int { return n }
	_ = g
}
`)},
	}
	tests := []struct {
		line  int
		cause Cause
		name  string
	}{
		{11, CauseUnknown, ""}, // constant size from another file
		{12, CauseVariableMake, "c"},
		{13, CauseUnknown, ""}, // imported constant
		{14, CauseMap, "t.idx"},
		{15, CauseMap, "t.idx"},
		{16, CauseConcat, "msg"},
		{17, CauseConversion, "u"},
		{18, CauseCallee, "fmt.Println"},
		{20, CauseUnknown, ""}, // local constant
		{23, CauseAppend, "list"},
		{24, CauseConversion, "x"},
		{26, CauseClosure, "g"},
	}
	e := NewExplainer(nil, src)
	for _, tt := range tests {
		x := e.Explain(Site{File: "p/p.go", Line: tt.line})
		if x.Cause != tt.cause || x.Name != tt.name {
			t.Errorf("p/p.go:%d: %s %q (%s), want %s %q", tt.line, x.Cause, x.Name, x.Reason, tt.cause, tt.name)
		}
	}
	// Unreadable and non-Go files explain nothing and do not fail.
	for _, f := range []string{"p/none.go", "/abs/p.go", "p/consts.txt", ""} {
		if x := e.Explain(Site{File: f, Line: 3}); x.Cause != CauseUnknown {
			t.Errorf("%q: %s", f, x.Cause)
		}
	}
}

func TestVariableMake(t *testing.T) {
	for expr, want := range map[string]bool{
		"make([]byte, n)":         true,
		"make([]int, n, m)":       true,
		"make([]int, 0, len(xs))": true,
		"make([]byte, 16)":        false,
		"make([]byte, 1048576)":   false,
		"make([]int, n, 8)":       false,
		"make(map[string]int)":    false,
		"make([]byte, n":          false,
		"new(T)":                  false,
	} {
		if got := variableMake(expr); got != want {
			t.Errorf("variableMake(%q) = %v, want %v", expr, got, want)
		}
	}
}

func TestIsConcat(t *testing.T) {
	for expr, want := range map[string]bool{
		`p + ","`:         true,
		`a + b + c`:       true,
		`f(a + b)`:        false,
		`"a + b"`:         false,
		`x[i + 1]`:        false,
		`"\" + " + s`:     true,
		`make([]byte, n)`: false,
		`a+b`:             false, // the compiler prints spaces around binary +
	} {
		if got := isConcat(expr); got != want {
			t.Errorf("isConcat(%q) = %v, want %v", expr, got, want)
		}
	}
}

// TestExplainLibraryCallee: when the profile says the allocation is inside
// a library call, only verdicts about that library's inlined code explain
// it.
func TestExplainLibraryCallee(t *testing.T) {
	ix, err := ReadIndex(strings.NewReader(
		"x.go:5:6: moved to heap: v\n"+
			"x.go:5:20: inlining call to fmt.Errorf\n"+
			"x.go:5:20: inlining call to errors.New\n"+
			"x.go:5:20: &errors.errorString{...} escapes to heap\n"), "in")
	if err != nil {
		t.Fatal(err)
	}
	e := NewExplainer(ix, nil)
	tests := []struct {
		callees []string
		cause   Cause
		name    string
	}{
		{nil, CauseMovedToHeap, "v"},
		{[]string{"runtime.newobject"}, CauseMovedToHeap, "v"},
		{[]string{"errors.New", "fmt.Errorf"}, CauseEscapes, "&errors.errorString{...}"},
		{[]string{"runtime.growslice", "strings.(*Builder).grow", "strings.Join"}, CauseCallee, "strings.Join"},
		{[]string{"runtime.mallocgc", "runtime.growslice"}, CauseAppend, ""},
	}
	for _, tt := range tests {
		x := e.Explain(Site{File: "x.go", Line: 5, Callees: tt.callees})
		if x.Cause != tt.cause || x.Name != tt.name {
			t.Errorf("Callees %q: %s %q (%s), want %s %q", tt.callees, x.Cause, x.Name, x.Reason, tt.cause, tt.name)
		}
	}
}

func TestFlowSink(t *testing.T) {
	for _, tt := range []struct {
		flow []string
		sink Sink
		into string
	}{
		{nil, SinkNone, ""},
		{[]string{"flow: {heap} ← &hdr:", "from hdr (address-of) at codec.go:10:22", "from hdr[:] (slice) at codec.go:10:22", "from w.Write(hdr[:]) (call parameter) at codec.go:10:22"}, SinkCall, "w.Write"},
		{[]string{"flow: ~r0 = &{storage for x}:", "from x (spill) at a.go:3:9", "from ~r0 = x (assign-pair) at a.go:3:2", "from return x (return) at a.go:3:2"}, SinkReturn, ""},
		{[]string{"flow: {heap} = &{storage for n}:", "from n (interface-converted) at a.go:5:14", "from fmt.Sprintf(\"%d\", n) (call parameter) at a.go:5:13"}, SinkCall, "fmt.Sprintf"},
		{[]string{"flow: {heap} = &{storage for v}:", "from v (interface-converted) at a.go:5:8", "from sink = v (assign) at a.go:5:7"}, SinkInterface, ""},
		{[]string{"flow: {heap} = &n:", "from n (captured by a closure) at a.go:4:3"}, SinkClosure, ""},
		{[]string{"flow: {heap} = &x:", "from g.p = &x (assign) at a.go:4:6"}, SinkHeap, ""},
		{[]string{"flow: {heap} = &rng:", "from (*rand.Rand).Intn(rng, 256) (call parameter) at a.go:9:2"}, SinkCall, "(*rand.Rand).Intn"},
		// A method inlined into its caller (Runes' return []rune(g.cluster)):
		// the value is its result, whatever the caller does with it.
		{[]string{"flow: ~r0 ← &{storage for ([]rune)(g.cluster)}:", "  from ([]rune)(g.cluster) (spill) at g_test.go:518:25", "  from ~r0 = ([]rune)(g.cluster) (assign-pair) at g_test.go:518:25", "flow: {heap} ← ~r0:", "  from resultRunes = ~r0 (assign) at g_test.go:518:16"}, SinkReturn, ""},
		{[]string{"flow: ~R0 = &{storage for x}:", "from ~R0 = x (assign-pair) at a.go:3:2", "flow: {heap} = ~R0:", "from g(~R0) (call parameter) at a.go:9:2"}, SinkReturn, ""},
	} {
		sink, into := FlowSink(tt.flow)
		if sink != tt.sink || into != tt.into {
			t.Errorf("FlowSink(%q) = %q, %q; want %q, %q", tt.flow, sink, into, tt.sink, tt.into)
		}
	}
}

// TestInlinedMakeIsNotTheLine: a helper inlined at a line that stores
// into a map (cur[d.intern(k)] = v, intern making its table) leaves its
// make(map…) verdict at the line; the line makes no map, so the
// allocation is the map it stores into, growing.
func TestInlinedMakeIsNotTheLine(t *testing.T) {
	src := fstest.MapFS{"p/p.go": {Data: []byte(`package p

type decoder struct{ interned map[string]string }

func (d *decoder) set(cur map[string]any, k []byte, v any) {
	cur[d.intern(k)] = v
}

func (d *decoder) table() map[string]any {
	m := map[string]any{}
	return m
}
`)}}
	out := "# p\n" +
		"p/p.go:6:14: make(map[string]string, 64) escapes to heap in (*decoder).set:\n" +
		"p/p.go:10:20: map[string]any{} escapes to heap in (*decoder).table:\n"
	ix, err := ReadIndex(strings.NewReader(out), "synthetic")
	if err != nil {
		t.Fatal(err)
	}
	e := NewExplainer(ix, src)
	if x := e.Explain(Site{File: "p/p.go", Line: 6}); x.Cause != CauseMap || strings.Contains(x.Reason, "make(map[string]string") {
		t.Errorf("p/p.go:6: %s %q: want the map stored into, growing", x.Cause, x.Reason)
	}
	if x := e.Explain(Site{File: "p/p.go", Line: 10}); x.Cause != CauseMap || !strings.Contains(x.Reason, "map[string]any{}") {
		t.Errorf("p/p.go:10: %s %q: want the map the line makes", x.Cause, x.Reason)
	}
}

// TestNamedResultIsReturned: a value stored in a named result (ristretto's
// NewBloomFilter: bloomfilter = &Bloom{…}; return bloomfilter) flows to
// the caller: the flow names the result and goes no further, and the sink
// is the return, as for an unnamed one. A local of the same flow shape
// is not.
func TestNamedResultIsReturned(t *testing.T) {
	src := fstest.MapFS{"p/p.go": {Data: []byte(`package p

type Bloom struct{ size uint64 }

func New(n uint64) (bloomfilter *Bloom) {
	bloomfilter = &Bloom{size: n}
	return bloomfilter
}

func keep(n uint64) *Bloom {
	var b *Bloom
	b = &Bloom{size: n}
	return nil
}
`)}}
	out := "# p\n" +
		"p/p.go:6:16: &Bloom{...} escapes to heap in New:\n" +
		"p/p.go:6:16:   flow: bloomfilter ← &{storage for &Bloom{...}}:\n" +
		"p/p.go:6:16:     from &Bloom{...} (spill) at p/p.go:6:16\n" +
		"p/p.go:6:16:     from bloomfilter = &Bloom{...} (assign) at p/p.go:6:14\n" +
		"p/p.go:12:6: &Bloom{...} escapes to heap in keep:\n" +
		"p/p.go:12:6:   flow: b ← &{storage for &Bloom{...}}:\n" +
		"p/p.go:12:6:     from &Bloom{...} (spill) at p/p.go:12:6\n"
	ix, err := ReadIndex(strings.NewReader(out), "synthetic")
	if err != nil {
		t.Fatal(err)
	}
	e := NewExplainer(ix, src)
	if x := e.Explain(Site{File: "p/p.go", Line: 6}); x.Sink != SinkReturn {
		t.Errorf("p/p.go:6: sink %q (%q): want the return, through the named result", x.Sink, x.Reason)
	}
	if x := e.Explain(Site{File: "p/p.go", Line: 12}); x.Sink == SinkReturn {
		t.Errorf("p/p.go:12: sink %q: a local is no result", x.Sink)
	}
}
