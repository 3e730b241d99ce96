package profiles

import (
	"fmt"
	"testing"
)

// TestPhases: a run that reads its input, then formats it — parse
// (fanning out into two kinds of statement) and print — has as phases
// the innermost parts its path fans out into: print and the parser's two
// statement kinds; not the parse that holds them, not a callee that is
// nine tenths of its caller, and not the read, which one line carries.
func TestPhases(t *testing.T) {
	s := newSynth("samples", "cpu")
	root := []string{"example.com/m.main", "runtime.main"}
	add := func(n int, stack ...string) {
		for range n {
			s.add([]int64{1, 1}, append(stack, root...)...)
		}
	}
	// format: parse 60 (ifs 35, loops 20, own 5), print 20; read 15,
	// all at one line; main's own 5. format's call to parse is at
	// format:1 (line 100), print at format:12 (line 200). Each phase but
	// read spreads over two or three of its lines.
	parse := []string{"example.com/m.stmt", "example.com/m.parse", "example.com/m.format:1"}
	add(15, append([]string{"runtime.mallocgc", "example.com/m.ifClause:1"}, parse...)...)
	add(10, append([]string{"runtime.mallocgc", "example.com/m.ifClause:12"}, parse...)...)
	add(10, append([]string{"runtime.mallocgc", "example.com/m.ifClause:123"}, parse...)...)
	add(10, append([]string{"example.com/m.loop:1"}, parse...)...)
	add(10, append([]string{"example.com/m.loop:12"}, parse...)...)
	add(5, "example.com/m.parse", "example.com/m.format:1")
	add(10, "bufio.(*Writer).Write", "example.com/m.print:1", "example.com/m.format:12")
	add(10, "bufio.(*Writer).Write", "example.com/m.print:12", "example.com/m.format:12")
	add(15, "example.com/m.readAll", "example.com/m.read")
	add(5)
	c, err := AnalyzeCPU(s.p, Options{ModuleDir: "/mod", ModulePath: "example.com/m", Benchmark: "main", Phases: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ph := range c.Phases {
		got = append(got, fmt.Sprintf("%s<-%s:%d %.2f mem %.2f", ShortName(ph.Function, true), ShortName(ph.Caller, true), ph.Line, ph.Share, ph.MemoryShare))
	}
	want := []string{
		"ifClause<-stmt:10 0.35 mem 1.00",
		"loop<-stmt:10 0.20 mem 0.00",
		"print<-format:200 0.20 mem 0.00",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("phases\n%v\nwant\n%v\n(path %s)", got, want, c.Path)
	}
}

// TestSharedPhases: a function that several parts of the run call (a
// parser's word parsing, under both kinds of statement) is a phase of its
// own when its time under every caller reaches the minimum; the wrapper
// that only calls it is not, nor is a function that lies inside a phase.
func TestSharedPhases(t *testing.T) {
	s := newSynth("samples", "cpu")
	root := []string{"example.com/m.main", "runtime.main"}
	add := func(n int, stack ...string) {
		for range n {
			s.add([]int64{1, 1}, append(stack, root...)...)
		}
	}
	ifs := []string{"example.com/m.ifClause", "example.com/m.stmt", "example.com/m.parse"}
	loops := []string{"example.com/m.loop", "example.com/m.stmt", "example.com/m.parse"}
	word := func(line string) []string {
		return []string{"example.com/m.word:" + line, "example.com/m.wordWrapper"}
	}
	// ifClause 40: 20 of its own over two lines, 20 in word; loop 40
	// likewise; word (through wordWrapper) 40 in all over two lines.
	add(10, append([]string{"example.com/m.ifClause:1"}, ifs[1:]...)...)
	add(10, append([]string{"example.com/m.ifClause:12"}, ifs[1:]...)...)
	add(10, append(word("1"), ifs...)...)
	add(10, append(word("12"), ifs...)...)
	add(10, append([]string{"example.com/m.loop:1"}, loops[1:]...)...)
	add(10, append([]string{"example.com/m.loop:12"}, loops[1:]...)...)
	add(10, append(word("1"), loops...)...)
	add(10, append(word("12"), loops...)...)
	// print 20 over two lines, with a helper inside it.
	add(10, "example.com/m.pad:1", "example.com/m.print")
	add(10, "example.com/m.pad:12", "example.com/m.print")
	c, err := AnalyzeCPU(s.p, Options{ModuleDir: "/mod", ModulePath: "example.com/m", Benchmark: "main", Phases: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ph := range c.Phases {
		got = append(got, fmt.Sprintf("%s<-%s %.2f", ShortName(ph.Function, true), ShortName(ph.Caller, true), ph.Share))
	}
	want := []string{"ifClause<-stmt 0.40", "loop<-stmt 0.40", "word<-wordWrapper 0.40", "print<-main 0.20"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("phases\n%v\nwant\n%v\n(path %s)", got, want, c.Path)
	}
}
