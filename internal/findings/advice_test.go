package findings

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

// TestAdviceFromShapes: a cause whose line holds a shape of code that
// explains its cost takes the shape's advice (what the code does there,
// the fix that fits it); a shape that explains another cost is not used,
// and without one the advice is the category's, marked generic.
func TestAdviceFromShapes(t *testing.T) {
	d := doc(benchmark("BenchmarkParse", 2e-6, 4, 512), benchmark("BenchmarkMatch", 1e-6, 0, 0))
	d.Categories = []document.CategoryShare{{Benchmark: "BenchmarkParse", Package: mod, Category: "gc", Share: 0.3}}
	d.Allocations = []document.Allocation{{Benchmark: "BenchmarkParse", Package: mod, Function: mod + ".Parse", File: "p.go", Line: 12,
		Alloc: "runtime.growslice", BytesShare: 0.8, ObjectsShare: 0.8, AllocsPerOp: 4, BytesPerOp: 512,
		Escape: &document.Escape{Cause: "append", Name: "out"}}}
	d.Lines = []document.LineCost{{Benchmark: "BenchmarkMatch", Package: mod, Function: mod + ".Match", File: "r.go", Line: 9,
		Callee: "regexp.(*Regexp).MatchString", Category: "regexp", Self: 0.5, Cum: 0.5}}
	derive := func() map[string]document.Finding {
		fs, _ := Derive(d, Options{})
		out := map[string]document.Finding{}
		for _, f := range fs {
			out[f.File] = f
		}
		return out
	}

	fs := derive()
	for _, file := range []string{"p.go", "r.go"} {
		if f := fs[file]; !f.Generic || f.Shape != "" {
			t.Errorf("%s without a shape: generic %v, shape %q; want the category's advice, generic", file, f.Generic, f.Shape)
		}
	}

	d.Shapes = []document.Shape{
		{Name: "append-unsized", File: "p.go", Line: 12, Says: "out grows by one element per element of parts", Advice: "make it with room for all of them", Rewrite: "presize"},
		{Name: "regexp-twice", File: "r.go", Line: 9, Says: "the regexp route runs twice on path", Advice: "run it once and keep the result"},
		// A sort at the allocation's line explains none of its cost.
		{Name: "sort-slice", File: "p.go", Line: 12, Says: "sort.Slice swaps through reflection", Advice: "slices.SortFunc"},
	}
	fs = derive()
	for file, want := range map[string]string{"p.go": "append-unsized", "r.go": "regexp-twice"} {
		f := fs[file]
		if f.Shape != want || f.Generic {
			t.Errorf("%s: shape %q, generic %v; want %q, not generic", file, f.Shape, f.Generic, want)
		}
	}
	if s := fs["p.go"].Suggestion; !strings.HasPrefix(s, "out grows by one element per element of parts: make it with room") {
		t.Errorf("p.go's suggestion %q: want what the code does, then the advice", s)
	}
}

// TestAdviceForRegrownSlice: a returned slice grown from no room in a
// loop of unknown count (a slice-regrown shape at the append) takes the
// shape's advice, keeping the slice across calls, over "preallocate when
// the final length is known".
func TestAdviceForRegrownSlice(t *testing.T) {
	a := site("(*Lexer).tokenize", "lexer.go", 214, 0.8)
	a.Alloc = "runtime.growslice"
	a.Escape = &document.Escape{Cause: "append", Name: "tokens"}
	shape := resultShape("slice-regrown", "(*Lexer).tokenize", "lexer.go", 214, "tokenize returns tokens, which starts with no room on every call and grows by append in the loop at lines 150–213, whose count is not known before it")
	shape.Advice = "reuse the slice across calls: keep it in lexer and append into lexer.tokens[:0] on each call"
	computed := resultShape("result-computed", "(*Lexer).tokenize", "lexer.go", 214, "append(tokens, token{…}) computes tokens, which tokenize returns")
	computed.Advice, computed.OwnWork = "the call is tokenize's result, computed from what it is given: its own work", true
	checkAdvice(t, []adviceCase{
		{"no shape", []any{bx(), gc(0.5), a}, "preallocate with make([]T, 0, n) when the final length is known"},
		{"regrown", []any{bx(), gc(0.5), a, shape}, "whose count is not known before it: reuse the slice across calls"},
		// The append also computes the result: the narrower shape
		// says why it costs.
		{"regrown and the result", []any{bx(), gc(0.5), a, computed, shape}, "whose count is not known before it: reuse the slice across calls"},
	})
}

// TestAdviceForTableFilled: a constructor's value moved to the heap
// because it is returned, whose array field it fills with the same
// constant entries on every call (internal/site's table-filled), takes
// the shape's advice, sharing the table, over the returned value's.
func TestAdviceForTableFilled(t *testing.T) {
	a := site("New", "markdown.go", 272, 0.8)
	a.Escape = &document.Escape{Cause: "moved-to-heap", Name: "p", Sink: "return", Verdict: "moved to heap: p"}
	shape := resultShape("table-filled", "New", "markdown.go", 272, "New fills p.inlineCallback, a [256]inlineParser of 2048 bytes in every value it makes, with 18 constant entries on every call (lines 286–306, 7 of them under conditions on its options): the same table for every value made with the same options")
	shape.Advice = "share the table: fill it once in a package variable per set of options that selects entries and keep a pointer to it in the value instead of the array, so New neither fills nor carries 2048 bytes per value"
	checkAdvice(t, []adviceCase{
		{"no shape", []any{bx(), gc(0.5), a}, "inherent to the API"},
		{"filled", []any{bx(), gc(0.5), a, shape}, "the same table for every value made with the same options: share the table"},
	})
}

// TestAdviceForWallClock: a cache's Get whose time is time.Now at a line
// that keeps only its wall time as an integer (internal/site's
// wall-clock) is told what that line does, not "read the clock once per
// operation", which it already does.
func TestAdviceForWallClock(t *testing.T) {
	now := call("(*cache).Get", "cache.go", 129, "time.Now", "time", 0.5)
	shape := document.Shape{Name: "wall-clock", File: "cache.go", Line: 129,
		Says:   "time.Now().UnixNano() reads the wall clock and the monotonic clock, then keeps only the wall time as an integer, on every call",
		Advice: "where the integers are only compared with one another (expirations, elapsed times), read the clock once, monotonically: time.Since(base)"}
	checkAdvice(t, []adviceCase{
		{"no shape", []any{bx(), now}, "read the clock once per operation"},
		{"wall clock", []any{bx(), now, shape}, "keeps only the wall time as an integer, on every call: where the integers are only compared"},
	})
}

// TestAdviceForLocks: a function whose time is an RWMutex's Lock and
// Unlock is never told to cache their result; with an rwmutex-exclusive
// shape at the Lock (a cache's Add takes it exclusively, as Get does) the
// advice is the shape's, a plain Mutex.
func TestAdviceForLocks(t *testing.T) {
	lock := call("(*TwoQueueCache).Add", "2q.go", 118, "sync.(*RWMutex).Lock", "other", 0.12)
	unlock := call("(*TwoQueueCache).Add", "2q.go", 148, "sync.(*RWMutex).Unlock", "other", 0.10)
	shape := document.Shape{Name: "rwmutex-exclusive", File: "2q.go", Line: 118,
		Says:   "Add takes c.lock, a sync.RWMutex, exclusively (Lock), as Add, Get do; only Peek take it shared (RLock): an RWMutex's Lock and Unlock do a Mutex's work plus the reader count's atomics",
		Advice: "where the exclusive paths are the hot ones, make lock a sync.Mutex"}
	for _, tc := range []struct {
		name  string
		parts []any
		want  string
	}{
		{"no shape", []any{bx(), lock, unlock}, "a lock round trip per call costs its atomic operations"},
		// A clock read beside the lock: both calls' words.
		{"and a clock", []any{bx(), lock, unlock, call("(*TwoQueueCache).Add", "2q.go", 120, "time.Now", "time", 0.15)}, "; reading the clock (time.Now): read the clock once per operation"},
		{"exclusive", []any{bx(), lock, unlock, shape}, "exclusively (Lock)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(tc.parts), Options{})
			if len(fs) != 1 {
				t.Fatalf("findings %v, want one", fs)
			}
			s := fs[0].Suggestion
			if !strings.Contains(s, tc.want) || strings.Contains(s, "cache its result") {
				t.Errorf("suggestion %q, want %q and no cached result", s, tc.want)
			}
		})
	}
}

// TestOneCausePerRWMutex: an RWMutex that Get and Add of one type each take
// exclusively is one finding with the shape's advice, found at the Unlock
// a mutex profile leads with (the shape's related line); the same field
// name on another type is another lock.
func TestOneCausePerRWMutex(t *testing.T) {
	shapeAt := func(fn string, lock, unlock int64) document.Shape {
		return document.Shape{Name: "rwmutex-exclusive", File: "lru.go", Line: lock, Function: mod + "." + fn,
			Related: []document.Location{{File: "lru.go", Line: unlock, Note: "the Unlock"}},
			Says:    fn + " takes c.lock, a sync.RWMutex, exclusively (Lock); no method takes it shared (RLock)",
			Advice:  "where the exclusive paths are the hot ones, make lock a sync.Mutex"}
	}
	getU := call("(*Cache).Get", "lru.go", 98, "sync.(*RWMutex).Unlock", "other", 0.20)
	addU := call("(*Cache).Add", "lru.go", 87, "sync.(*RWMutex).Unlock", "other", 0.12)
	otherU := call("(*Other).Get", "other.go", 20, "sync.(*RWMutex).Unlock", "other", 0.15)
	otherShape := shapeAt("(*Other).Get", 18, 20)
	otherShape.File, otherShape.Related[0].File = "other.go", "other.go"
	fs, _ := Derive(specDoc([]any{bx(), getU, addU, otherU, shapeAt("(*Cache).Get", 96, 98), shapeAt("(*Cache).Add", 81, 87), otherShape}), Options{})
	var fixes []document.Finding
	for _, f := range fs {
		if f.Section == document.SectionFix {
			fixes = append(fixes, f)
		}
	}
	if len(fixes) != 2 {
		t.Fatalf("fix findings %d, want two (Cache's lock, Other's lock): %v", len(fixes), fixes)
	}
	for _, f := range fixes {
		if f.Shape != "rwmutex-exclusive" || !strings.Contains(f.Suggestion, "make lock a sync.Mutex") {
			t.Errorf("%s:%d: shape %q, suggestion %q, want the rwmutex-exclusive advice", f.File, f.Line, f.Shape, f.Suggestion)
		}
	}
	if f := fixes[0]; f.Line != 98 || !strings.Contains(f.Message, "(*Cache).Add takes the same lock: 12%") {
		t.Errorf("first finding %s:%d %q, want Get's, saying Add takes the same lock", f.File, f.Line, f.Message)
	}
}

// TestExpiryBookkeepingOneCause: an expirable cache whose Get reads the
// clock with expiry off (paid-while-off) and whose Add keeps an expiry
// bucket map nothing looks up (map-swept) is one cause, the clock's
// advice first: with the setting off, one change skips both; another
// type's swept map stays its own.
func TestExpiryBookkeepingOneCause(t *testing.T) {
	now := call("(*LRU).Get", "expirable.go", 153, "time.Now", "time", 0.20)
	del := call("(*LRU).removeFromBucket", "expirable.go", 337, "runtime.mapdelete_fast64", "maps", 0.25)
	other := call("(*Index).add", "index.go", 40, "runtime.mapassign_fast64", "maps", 0.15)
	off := document.Shape{Name: "paid-while-off", File: "expirable.go", Line: 153, Function: mod + ".(*LRU).Get",
		Says:   "Get reads the clock (time.Now) on every call, with no test of c.ttl around it",
		Advice: "when c.ttl == noEvictionTTL, skip the clock read and the bookkeeping it feeds"}
	swept := func(fn, file string, line int64) document.Shape {
		return document.Shape{Name: "map-swept", File: file, Line: line, Function: mod + "." + fn,
			Says:   fn[strings.LastIndexByte(fn, '.')+1:] + " stores into and deletes from c.entries by key, a map the package reads only by ranging over it",
			Advice: "link the entries into a list in place of entries"}
	}
	fs, _ := Derive(specDoc([]any{bx(), now, del, other, off, swept("(*LRU).removeFromBucket", "expirable.go", 337), swept("(*Index).add", "index.go", 40)}), Options{})
	var fixes []document.Finding
	for _, f := range fs {
		if f.Section == document.SectionFix {
			fixes = append(fixes, f)
		}
	}
	if len(fixes) != 2 {
		t.Fatalf("fix findings %d, want two (the expiry bookkeeping, Index's map): %v", len(fixes), fixes)
	}
	var lru *document.Finding
	for i := range fixes {
		if fixes[i].File == "expirable.go" {
			lru = &fixes[i]
		}
	}
	if lru == nil || lru.Shape != "paid-while-off" || !strings.Contains(lru.Suggestion, "skip the clock read") ||
		!strings.Contains(lru.Suggestion, "with the setting on: removeFromBucket stores into") || !strings.Contains(lru.Message, "the bookkeeping it feeds") {
		t.Errorf("expirable finding %+v, want the clock's advice, then the map's with the setting on", lru)
	}
}

// TestComputedForReadersCall: an iterator's Next whose whole time is a
// call of the module's Step (the profile names it only as Next's
// cumulative time at that line) is a cause when the code there computes
// a result only other methods read; without the shape it is none (the
// callee's own causes say where its time goes).
func TestComputedForReadersCall(t *testing.T) {
	hot := document.Hotspot{Benchmark: "BenchmarkX", Package: mod, Function: mod + ".(*Graphemes).Next", File: "grapheme.go", Line: 61, Cum: 0.74}
	shape := document.Shape{Name: "computed-for-readers", File: "grapheme.go", Line: 61, Function: mod + ".(*Graphemes).Next",
		Says:   "Next calls StepString(g.remaining, g.state) on every call and stores its result g.boundaries, which only IsWordBoundary, LineBreak read",
		Advice: "compute it lazily: call FirstGraphemeClusterInString until IsWordBoundary, LineBreak is first called"}
	fs, _ := Derive(specDoc([]any{bx(), hot, shape}), Options{})
	if len(fs) != 1 || fs[0].Line != 61 || !strings.Contains(fs[0].Suggestion, "compute it lazily") || fs[0].Generic {
		t.Fatalf("findings %+v, want one at grapheme.go:61 with the shape's advice", fs)
	}
	if fs, _ := Derive(specDoc([]any{bx(), hot}), Options{}); len(fs) != 0 {
		t.Errorf("without the shape: findings %+v, want none", fs)
	}
}

// TestCopyChainNotAPI: a string passed through a chain of calls that
// each make a new one (a slug's transliteration, lowering and two regexp
// replacements) is no cost of the API at its steps, though the function
// returns the chain's value: the finding is a fix, with the regexp's
// advice first and the chain's as the second part.
func TestCopyChainNotAPI(t *testing.T) {
	re := call("MakeLang", "slug.go", 136, "regexp.(*Regexp).ReplaceAllString", "regexp", 0.45)
	re2 := call("MakeLang", "slug.go", 138, "regexp.(*Regexp).ReplaceAllString", "regexp", 0.2)
	uni := call("MakeLang", "slug.go", 125, "example.com/dep.Unidecode", "other", 0.2)
	alloc := site("MakeLang", "slug.go", 136, 0.5)
	alloc.Escape = nil // inside the regexp's call
	chain := document.Shape{Name: "copy-chain", File: "slug.go", Line: 72, Function: mod + ".MakeLang",
		Related: []document.Location{{File: "slug.go", Line: 125}, {File: "slug.go", Line: 136}, {File: "slug.go", Line: 138}},
		Says:    "MakeLang passes slug through 4 calls that each return a new string",
		Advice:  "let each step return its input when it has nothing to change"}
	class := document.Shape{Name: "regexp-class", File: "slug.go", Line: 136, Function: mod + ".MakeLang",
		Related: []document.Location{{File: "slug.go", Line: 138}},
		Says:    `re is "[^a-z]", one character class`, Advice: "a loop over the bytes does it in one pass"}
	result := func(line int64) document.Shape {
		return document.Shape{Name: "result-computed", File: "slug.go", Line: line, Function: mod + ".MakeLang", Says: "computes slug, which MakeLang returns", OwnWork: true}
	}
	fs, _ := Derive(specDoc([]any{bx(), re, re2, uni, alloc, chain, class, result(125), result(136), result(138)}), Options{})
	for _, f := range fs {
		if f.Section == document.SectionAPI {
			t.Errorf("API cost %s:%d %q: a step of the chain is no cost of the API", f.File, f.Line, f.Message)
		}
	}
	if len(fs) == 0 || fs[0].Shape != "regexp-class" || !strings.Contains(fs[0].Suggestion, "a loop over the bytes") || !strings.Contains(fs[0].Suggestion, "; and (") || !strings.Contains(fs[0].Suggestion, "let each step return its input") {
		t.Errorf("findings %+v, want the regexp's advice, then the chain's", fs)
	}
}

// TestRendererShapes: a buffer made with room for exactly its input and
// grown by the newline appended after it is no cost of the API (the
// growth is the fix); a renderer's own code whose rendering loop a
// trial-render shape names gets that shape's advice; a function whose
// own time is its loop gets no inlining advice (one call per document).
func TestRendererShapes(t *testing.T) {
	grow := escapesByResult(site("PrettyOptions", "pretty.go", 46, 0.5))
	grow.Escape = &document.Escape{Cause: "append", Name: "buf", Sink: "call", Into: "appendPrettyAny"}
	capShort := document.Shape{Name: "cap-short", File: "pretty.go", Line: 46, Function: mod + ".PrettyOptions",
		Says: "buf is made with room for len(json) bytes", Advice: "make it with room for what is always added too"}
	var loopLines []document.Location
	for l := int64(272); l <= 353; l++ {
		loopLines = append(loopLines, document.Location{File: "pretty.go", Line: l})
	}
	trial := document.Shape{Name: "trial-render", File: "pretty.go", Line: 255, Function: mod + ".appendPrettyObject",
		Related: loopLines, Says: "appendPrettyObject tries a one-line layout by rendering the whole subtree", Advice: "test the limit while rendering"}
	loop := document.Shape{Name: "loop", File: "ugly.go", Line: 66, Function: mod + ".ugly",
		Related: []document.Location{{File: "ugly.go", Line: 83}}, Says: "the loop at lines 66–83 runs while i < len(src)"}
	computed := document.Shape{Name: "result-computed", File: "pretty.go", Line: 46, Function: mod + ".PrettyOptions",
		Says: "append(buf, '\\n') computes buf, which PrettyOptions returns", OwnWork: true}
	fs, _ := Derive(specDoc([]any{bx(), grow, capShort, computed, trial, loop,
		own("appendPrettyObject", "pretty.go", 336, 0.3), own("appendPrettyObject", "pretty.go", 300, 0.1),
		own("ugly", "ugly.go", 72, 0.5), flat("ugly", 0.5), notInlined("ugly", "ugly.go", 60, 94, 80)}), Options{})
	got := map[int64]document.Finding{}
	for _, f := range fs {
		got[f.Line] = f
	}
	if f, ok := got[46]; !ok || f.Section != document.SectionFix || f.Shape != "cap-short" || strings.Contains(f.Message, "the API returns it") {
		t.Errorf("PrettyOptions' growth: %+v, want a fix with the cap-short advice", f)
	}
	if f, ok := got[336]; !ok || f.Shape != "trial-render" {
		t.Errorf("appendPrettyObject's own code: %+v, want the trial-render advice", f)
	}
	if f, ok := got[72]; !ok || strings.Contains(f.Message, "not inlined") {
		t.Errorf("ugly: %+v, want its own code without inlining advice", f)
	}
}

// TestErrorConstantNotAPI: a returned errors.New of a constant text is
// no cost of the API, though the error leaves through the result: one
// error value made once does the same.
func TestErrorConstantNotAPI(t *testing.T) {
	a := escapesByResult(site("Parse", "uuid.go", 91, 0.5))
	a.Escape = &document.Escape{Cause: "escapes", Name: "&errors.errorString{...}", Sink: "return"}
	shape := document.Shape{Name: "error-constant", File: "uuid.go", Line: 91, Function: mod + ".Parse",
		Says: `Parse returns errors.New("invalid UUID format") on this path`, Advice: "make it once, a package-level var"}
	fs, _ := Derive(specDoc([]any{bx(), a, shape}), Options{})
	if len(fs) != 1 || fs[0].Section != document.SectionFix || fs[0].Shape != "error-constant" {
		t.Fatalf("findings %+v, want one fix with the error-constant advice", fs)
	}
	if fs, _ := Derive(specDoc([]any{bx(), a}), Options{}); len(fs) != 1 || fs[0].Section != document.SectionAPI {
		t.Errorf("without the shape: %+v, want the API's cost", fs)
	}
	// The function's time on the paths that succeed is another cause:
	// the sentinel does not touch it.
	// Its time at the error's own line (the failure path's
	// allocation) stays with the error, not with Parse's time.
	fs, _ = Derive(specDoc([]any{bx(), a, shape, call("Parse", "uuid.go", 110, "strings.Index", "strings", 0.4),
		call("Parse", "uuid.go", 91, "", "application", 0.1)}), Options{})
	if len(fs) != 2 {
		t.Fatalf("findings %+v, want two: the error's allocation and Parse's own code", fs)
	}
	for _, f := range fs {
		if f.Line != 110 {
			continue
		}
		for _, r := range f.Related {
			if r.Line == 91 {
				t.Errorf("Parse's time %s:%d relates the error's line 91: %+v", f.File, f.Line, f.Related)
			}
		}
	}
}

// TestSortBoxedOneCause: the allocations sort.Stable's interface forces
// (the local it boxes, the caller's slice it holds) and the sort's CPU
// at its call are one change: a concrete sort.
func TestSortBoxedOneCause(t *testing.T) {
	pairs := site("appendPrettyObject", "pretty.go", 269, 0.5)
	pairs.Escape = &document.Escape{Cause: "escapes", Name: "make([]pair, 0, 8)", Sink: "call", Into: "sortPairs"}
	arr := site("sortPairs", "pretty.go", 362, 0.4)
	arr.Escape = &document.Escape{Cause: "moved-to-heap", Name: "arr", Sink: "call", Into: "sort.Stable"}
	arr.Parent, arr.ParentFile, arr.ParentLine = mod+".appendPrettyObject", "pretty.go", 340
	sortCPU := call("sortPairs", "pretty.go", 363, "sort.Stable", "sort", 0.1)
	shape := document.Shape{Name: "sort-boxed", File: "pretty.go", Line: 362, Function: mod + ".sortPairs",
		Related: []document.Location{{File: "pretty.go", Line: 363, Note: "the sort"}},
		Says:    "sort.Stable(&arr) passes arr, a byKeyVal made here, to sort.Stable as a sort.Interface", Advice: "sort the slice with slices.SortStableFunc"}
	fs, _ := Derive(specDoc([]any{bx(), pairs, arr, sortCPU, shape}), Options{})
	var fixes []document.Finding
	for _, f := range fs {
		if f.Section == document.SectionFix {
			fixes = append(fixes, f)
		}
	}
	if len(fixes) != 1 || fixes[0].Shape != "sort-boxed" {
		t.Errorf("fix findings %+v, want one with the sort-boxed advice", fixes)
	}
}

// TestPrintfWrapperOneCause: a printf wrapper's fmt.Fprintf (its CPU)
// and the boxing at a caller that passes it strings only (an allocation)
// are one cause with the wrapper's advice, led by the costlier.
func TestPrintfWrapperOneCause(t *testing.T) {
	fprintf := call("(*Encoder).writef", "encode.go", 746, "fmt.Fprintf", "fmt", 0.12)
	boxed := site("(*Encoder).writeKeyValue", "encode.go", 730, 0.5)
	boxed.Escape = &document.Escape{Cause: "interface", Verdict: "key.maybeQuoted(…) escapes to heap"}
	wrapperShape := document.Shape{Name: "printf-wrapper", File: "encode.go", Line: 746,
		Related: []document.Location{{File: "encode.go", Line: 730, Note: "a call with strings only"}},
		Says:    "writef hands its format and arguments to fmt.Fprintf(enc.w, …)", Advice: "give those calls a method beside writef that writes a string"}
	callShape := document.Shape{Name: "printf-wrapper", File: "encode.go", Line: 730,
		Related: []document.Location{{File: "encode.go", Line: 746, Note: wrapperFprintf}},
		Says:    "writeKeyValue calls writef, a wrapper of fmt.Fprintf (line 746)", Advice: "write the pieces to the writer directly"}
	fs, _ := Derive(specDoc([]any{bx(), fprintf, boxed, wrapperShape, callShape}), Options{})
	if len(fs) != 1 {
		t.Fatalf("findings %d, want one: %v", len(fs), fs)
	}
	if f := fs[0]; f.Shape != "printf-wrapper" || !strings.Contains(f.Message, "its callers box the arguments") && !strings.Contains(f.Message, "fmt.Fprintf") {
		t.Errorf("finding %s:%d shape %q message %q, want the wrapper's cause with both parts", f.File, f.Line, f.Shape, f.Message)
	}
}

// TestAdviceFromTheCaller: an allocation two calls below the line that
// decides it (a cache's Add calls a list's PushFront, which allocates the
// entry in a helper) takes the advice of the shape at that line, which
// names the callee.
func TestAdviceFromTheCaller(t *testing.T) {
	a := site("internal.(*List).insertValue", "internal/list.go", 92, 0.9)
	a.Escape = &document.Escape{Cause: "escapes", Verdict: "&Entry{...} escapes to the heap"}
	a.Parent, a.ParentFile, a.ParentLine = mod+"/internal.(*List[...]).PushFront", "internal/list.go", 124
	shape := document.Shape{Name: "evict-not-reused", File: "lru.go", Line: 59, Function: mod + ".(*LRU).Add",
		Related: []document.Location{{File: "lru.go", Line: 65, Note: "the eviction"}, {File: "internal/list.go", Line: 123, Function: mod + "/internal.(*List[...]).PushFront", Note: allocatingCallee}},
		Says:    "Add makes a new entry (c.list.PushFront) for each new key, then, when c.list.Len() > c.size, evicts one",
		Advice:  "reuse the evicted entry for the new key"}
	checkAdvice(t, []adviceCase{
		{"no shape", []any{bx(), a}, ""},
		{"caller's shape", []any{bx(), a, shape}, "reuse the evicted entry for the new key"},
	})
}

// TestAdviceForVarBoxed: an allocation of a value converted to an
// interface, at a line where the value is a package-level var that could
// be a constant (internal/site's var-boxed), is told to declare it const,
// not "avoid boxing in the hot path".
func TestAdviceForVarBoxed(t *testing.T) {
	a := site("typeIsTable", "type_toml.go", 20, 0.8)
	a.Escape = &document.Escape{Cause: "interface", Name: "tomlHash", Sink: "call", Into: "typeEqual"}
	shape := document.Shape{Name: "var-boxed", File: "type_toml.go", Line: 20,
		Says:   "tomlHash, a package-level var of tomlBaseType with a constant value that nothing assigns, is converted to the interface tomlType here: each conversion of a variable copies its value to the heap",
		Advice: "declare tomlHash a const (the var block a const block): a constant converts to an interface from static data, with no allocation"}
	checkAdvice(t, []adviceCase{
		{"no shape", []any{bx(), gc(0.5), a}, "avoid boxing in the hot path"},
		{"var", []any{bx(), gc(0.5), a, shape}, "declare tomlHash a const"},
	})
}

// TestBuilderResultIsOwnWork: a function whose time is writing the text
// it returns into a strings.Builder (an unescaper's b.WriteRune per
// rune; internal/site's builder-result) is its own work: the row says so
// and follows a fix that names a change, though it costs more.
func TestBuilderResultIsOwnWork(t *testing.T) {
	write := call("(*parser).replaceEscapes", "parse.go", 770, "strings.(*Builder).WriteRune", "gc", 0.9)
	shape := document.Shape{Name: "builder-result", File: "parse.go", Line: 770, OwnWork: true,
		Says:   "b.WriteRune(c) writes into b, whose text replaceEscapes returns (line 800): the writes build its result",
		Advice: "the writes are replaceEscapes's result, built from what it is given: its own work, with nothing to keep between calls; fewer or cheaper calls is a change to the algorithm"}
	sort := call("Encode", "encode.go", 40, "sort.Slice", "sort", 0.2)
	sortShape := document.Shape{Name: "sort-slice", File: "encode.go", Line: 40, Says: "sort.Slice swaps through reflection", Advice: "slices.SortFunc"}
	fs, _ := Derive(specDoc([]any{bx(), write, shape, sort, sortShape}), Options{})
	if len(fs) != 2 {
		t.Fatalf("findings %v, want two", kinds(fs))
	}
	if fs[0].File != "encode.go" || fs[1].File != "parse.go" || !strings.Contains(fs[1].Suggestion, "its own work") {
		t.Errorf("order %s, %s (%q); want the sort's fix first, then the builder's own work", fs[0].File, fs[1].File, fs[1].Suggestion)
	}
}

// TestFlushIntoMemory: a bufio.Writer's Flush whose time below is
// copying into an in-memory writer (category memory: an encoder writing
// into a bytes.Buffer) is no system call: no I/O finding telling a
// function that buffers already to "buffer the I/O".
func TestFlushIntoMemory(t *testing.T) {
	flush := call("(*Encoder).Encode", "encode.go", 150, "bufio.(*Writer).Flush", "memory", 0.12)
	fs, _ := Derive(specDoc([]any{bx(), flush}), Options{})
	for _, f := range fs {
		if f.Kind == document.KindIO || strings.Contains(f.Suggestion, "buffer the I/O") {
			t.Errorf("%s %s:%d %q: want no I/O finding for a flush into memory", f.Kind, f.File, f.Line, f.Suggestion)
		}
	}
	// Into a file: its time below is system calls.
	flush.Category = "syscall"
	fs, _ = Derive(specDoc([]any{bx(), flush}), Options{})
	if len(fs) != 1 || fs[0].Kind != document.KindIO {
		t.Errorf("findings %v, want the flush's system calls", kinds(fs))
	}
}

// TestPartNamesAChange: a cause whose lead is its function's own work on
// its inputs (a sort of the keys it gathered) with a part whose shape
// names a change (the map it copies, 23% of it) is no cause that names
// none: it ranks among the fixes, before a cheaper one in its category's
// words.
func TestPartNamesAChange(t *testing.T) {
	search := call("(*TextFormatter).Format", "t.go", 175, "strings.Index", "strings", 0.30)
	onInputs := document.Shape{Name: "call-on-inputs", File: "t.go", Line: 175, OwnWork: true,
		Says:   "strings.Index(s, sep) works on what Format is given (s)",
		Advice: "the call is Format's own work on its inputs, once per call: fewer or cheaper calls is a change to the algorithm"}
	mapCopy := call("(*TextFormatter).Format", "t.go", 136, "runtime.mapassign_faststr", "maps", 0.09)
	copied := document.Shape{Name: "map-copied", File: "t.go", Line: 136,
		Says: "data is a copy of entry.Data, made entry by entry on every call", Advice: "avoid the copy where data is only read"}
	other := call("Other", "o.go", 10, "sort.Strings", "sort", 0.10)
	fs, _ := Derive(specDoc([]any{bx(), search, onInputs, mapCopy, copied, other}), Options{})
	if len(fs) != 2 {
		t.Fatalf("findings %v, want two", kinds(fs))
	}
	if fs[0].File != "t.go" || !strings.Contains(fs[0].Suggestion, "line 136 (23% of it): data is a copy") {
		t.Errorf("first %s:%d %q; want Format's cause, with the map copy as its part, first", fs[0].File, fs[0].Line, fs[0].Suggestion)
	}
}

// TestAdviceForChannels: a lexer's non-blocking receive from its own
// items channel (runtime.selectnbrecv, which the profile files under the
// scheduler) in a benchmark that starts no goroutine is the module's
// channel use, a cost with words of its own; with a chan-queue shape
// there (filled and drained in one goroutine) the advice is a slice.
func TestAdviceForChannels(t *testing.T) {
	recv := call("(*lexer).nextItem", "lex.go", 82, "runtime.selectnbrecv", "scheduler", 0.095)
	shape := document.Shape{Name: "chan-queue", File: "lex.go", Line: 82,
		Says:   "items, a buffered channel made here, is filled (3 sends, the first at line 137) and drained with a non-blocking receive (line 82) by the same type's methods, in a package that starts no goroutine",
		Advice: "keep the items in a slice instead: append where items is sent to, take from the front where it is received from"}
	checkAdvice(t, []adviceCase{
		{"no shape", []any{bx(), recv}, "each send and receive takes the channel's lock"},
		{"queue", []any{bx(), recv, shape}, "keep the items in a slice instead"},
	})
}

// TestAdviceForRequestCopies: a request copied by WithContext twice in a
// row (internal/site's request-copied-twice) explains the allocation of
// the copy, made in net/http, so the cause takes its advice (one copy
// carrying both values) over the compiler reason's generic words.
func TestAdviceForRequestCopies(t *testing.T) {
	d := doc(benchmark("BenchmarkServe", 1e-6, 2, 640))
	d.Allocations = []document.Allocation{{Benchmark: "BenchmarkServe", Package: mod, Function: mod + ".withVars", File: "m.go", Line: 30,
		Via: "net/http.(*Request).WithContext", Alloc: "runtime.newobject", BytesShare: 0.5, ObjectsShare: 0.5, AllocsPerOp: 1, BytesPerOp: 320,
		Escape: &document.Escape{Cause: "escapes", Sink: "return", Name: "new(http.Request)"}}}
	derive := func() document.Finding {
		fs, _ := Derive(d, Options{})
		for _, f := range fs {
			if f.File == "m.go" {
				return f
			}
		}
		t.Fatalf("no finding at m.go in %v", fs)
		return document.Finding{}
	}
	if f := derive(); !f.Generic || f.Shape != "" {
		t.Errorf("without a shape: generic %v, shape %q; want the category's advice, generic", f.Generic, f.Shape)
	}
	d.Shapes = []document.Shape{{Name: "request-copied-twice", File: "m.go", Line: 30,
		Says: "req is copied twice in a row", Advice: "one copy carrying both values",
		Related: []document.Location{{File: "m.go", Line: 35}}}}
	f := derive()
	if f.Shape != "request-copied-twice" || f.Generic || !strings.Contains(f.Suggestion, "one copy carrying both values") {
		t.Errorf("shape %q, generic %v, suggestion %q; want request-copied-twice's advice", f.Shape, f.Generic, f.Suggestion)
	}
}

// TestStringMethodAdvice: the string a String method returns is what the
// method is for (fmt.Stringer's contract), so its allocation is not told
// "keep one representation": it is inherent, and the alternative is an
// Append or WriteTo form for callers that only write it. A temporary of
// the method, or a function named String that is no method, keeps its
// own advice.
func TestStringMethodAdvice(t *testing.T) {
	const words = "inherent to a String method: callers that only write it can use an Append or WriteTo form"
	for _, tc := range []struct {
		name, fn string
		escape   document.Escape
		string   bool
	}{
		{"conversion returned", "(level).String", document.Escape{Cause: "conversion", Name: "string(b)"}, true},
		{"exported type, flows to the result", "(*Path).String", document.Escape{Cause: "escapes", Name: "string(buf)", Sink: "return"}, true},
		{"concatenation", "Key.String", document.Escape{Cause: "concat"}, true},
		{"a temporary buffer of the method", "(level).String", document.Escape{Cause: "variable-make"}, false},
		{"a function named String", "String", document.Escape{Cause: "conversion", Name: "string(b)"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := doc(benchmark("BenchmarkX", 1e-6, 1, 100))
			d.Allocations = []document.Allocation{{Benchmark: "BenchmarkX", Package: mod, Function: mod + "." + tc.fn, File: "s.go", Line: 5,
				BytesShare: 0.5, ObjectsShare: 0.5, AllocsPerOp: 1, BytesPerOp: 100, Escape: &tc.escape}}
			fs, _ := Derive(d, Options{})
			var got string
			for _, f := range fs {
				if f.File == "s.go" {
					got = f.Suggestion
				}
			}
			if got == "" {
				t.Fatalf("no finding at s.go in %v", fs)
			}
			if has := strings.Contains(got, words); has != tc.string {
				t.Errorf("suggestion %q: has the String method's words %v, want %v", got, has, tc.string)
			}
			site, _ := SiteAdvice(d, &d.Allocations[0])
			if tc.string && site != words {
				t.Errorf("explain's advice %q, want %q", site, words)
			}
		})
	}
}

// TestAPICosts: what the API forces (a String method's string, an
// exported method returning what it allocates) is in the "api" section:
// after every finding to fix, however small that one is, never above
// low, with no expected gain; the API-level alternative is named once per
// type, on its costliest finding.
func TestAPICosts(t *testing.T) {
	d := specDoc([]any{bx(), gc(0.6),
		converts(site("(Level).String", "l.go", 10, 0.5)),             // 30%, 15% as an API cost
		escapesByResult(site("(Level).MarshalText", "l.go", 20, 0.3)), // 18%, 9%
		site("build", "b.go", 5, 0.1)})                                // 6%: a fix
	fs, _ := Derive(d, Options{})
	var got []string
	for _, f := range fs {
		got = append(got, fmt.Sprintf("%s %s %s", f.Section, f.Severity, where(f.File, f.Line)))
		if f.Section == document.SectionAPI && f.Gain != "" {
			t.Errorf("%s:%d: an API cost with an expected gain %q", f.File, f.Line, f.Gain)
		}
	}
	want := []string{"fix low b.go:5", "api low l.go:10", "api low l.go:20"}
	if !slices.Equal(got, want) {
		t.Fatalf("findings %q, want %q", got, want)
	}
	if s := fs[1].Suggestion; !strings.Contains(s, "Append or WriteTo") {
		t.Errorf("the type's first API cost does not name the alternative: %q", s)
	}
	if s := fs[2].Suggestion; strings.Contains(s, "Append") || !strings.Contains(s, "(Level).String") {
		t.Errorf("the type's second API cost: %q; want a pointer to (Level).String's alternative, not the alternative again", s)
	}
}

// TestWholeJobCall: a function whose whole job is one library call
// (Index returning strings.Index) is no finding for that call: its cost
// is its callers' use of it. A line that keeps the call's result for more
// work, or a function with other costs, still is one.
func TestWholeJobCall(t *testing.T) {
	for _, tc := range []struct {
		name  string
		parts []any
		want  int // CPU findings
	}{
		{"return strings.Index(…) is the function's job",
			[]any{bx(), src(call("(*Matcher).Index", "m.go", 10, "strings.Index", "strings", 0.6), "return strings.Index(s, m.lit)")}, 0},
		{"return of a method value call",
			[]any{bx(), src(call("(*Set).Has", "m.go", 10, "sort.SearchStrings", "sort", 0.5), "return sort.SearchStrings(s.keys, k) < len(s.keys)")}, 0},
		{"the result kept, in a loop, for more work",
			[]any{bx(), src(call("(*Matcher).Index", "m.go", 10, "strings.Index", "strings", 0.6), "i := strings.Index(s, m.lit)"),
				document.Shape{Name: "loop", File: "m.go", Line: 8, Function: mod + ".(*Matcher).Index", Related: []document.Location{{File: "m.go", Line: 14}}, Says: "the loop at lines 8–14 runs while s != \"\""}}, 1},
		{"the result assigned outside any loop, the rest cheap",
			[]any{bx(), src(call("stringIndexPrefixFilter.func1", "f.go", 193, "internal/stringslite.Index", "strings", 0.8), "offset = strings.Index(input[startAt:], prefix)")}, 0},
		// A buffer's method appending a number to its own bytes
		// (zap's (*Buffer).AppendFloat): the conversion is its job.
		{"the result assigned to a field, the rest cheap",
			[]any{bx(), src(call("(*Buffer).AppendFloat", "buffer/buffer.go", 79, "strconv.genericFtoa", "strconv", 0.18), "b.bs = strconv.AppendFloat(b.bs, f, 'f', -1, bitSize)")}, 0},
		// A buffer's Write (zap's b.bs = append(b.bs, bs...)): the
		// copy is its job.
		{"a buffer's Write appending what it is given",
			[]any{bx(), src(call("(*Buffer).Write", "buffer/buffer.go", 110, "runtime.memmove", "copying", 0.12), "b.bs = append(b.bs, bs...)")}, 0},
		{"an append of one element is not a whole slice's copy",
			[]any{bx(), src(call("(*Buffer).push", "buffer/buffer.go", 120, "runtime.growslice", "copying", 0.12), "b.bs = append(b.bs, x)")}, 1},
		{"another line costs too",
			[]any{bx(), src(call("(*Matcher).Index", "m.go", 10, "strings.Index", "strings", 0.6), "return strings.Index(s, m.lit)"),
				own("(*Matcher).Index", "m.go", 9, 0.05)}, 1},
		{"a return that calls something else",
			[]any{bx(), src(call("(*Matcher).Index", "m.go", 10, "strings.Index", "strings", 0.6), "return m.find(strings.ToLower(s))")}, 1},
		// A hash linked to the runtime's (//go:linkname memhash
		// runtime.memhash), converted: the profile shows the runtime's
		// assembly, with no package.
		{"a function linked to the runtime's, converted",
			[]any{bx(), src(call("MemHash", "z.go", 53, "aeshashbody", "other", 0.7), "return uint64(memhash(ss.str, 0, uintptr(ss.len)))")}, 0},
		{"a qualified call into the runtime is not the module's",
			[]any{bx(), src(call("(*Key).Same", "k.go", 20, "runtime.memequal", "other", 0.7), "return uint64(other.Hash(k.b))")}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(tc.parts), Options{})
			n := 0
			for _, f := range fs {
				if f.Kind == document.KindCPU {
					n++
				}
			}
			if n != tc.want {
				t.Errorf("%d CPU findings, want %d: %v", n, tc.want, kinds(fs))
			}
		})
	}
}

// TestAPICostCalledByTheModule: a constructor the module's own code calls
// (a parser making its nodes) is the module's choice, not the API's: it
// stays among the causes to fix, at the inherent weight, and the advice
// names the caller and what it can do there.
func TestAPICostCalledByTheModule(t *testing.T) {
	node := escapesByResult(site("NewNode", "node.go", 137, 0.5))
	node.Parent, node.ParentFile, node.ParentLine = mod+".(*Parser).addChild", "parser.go", 222
	fs, _ := Derive(specDoc([]any{bx(), gc(0.6), node}), Options{})
	if len(fs) == 0 {
		t.Fatal("no finding")
	}
	f := fs[0]
	if f.Section != document.SectionFix || f.File != "node.go" {
		t.Fatalf("%s %s:%d, want a finding to fix at node.go:137", f.Section, f.File, f.Line)
	}
	if !strings.Contains(f.Suggestion, "(*Parser).addChild") || !strings.Contains(f.Suggestion, "chunk") {
		t.Errorf("suggestion %q: want the caller (*Parser).addChild and allocating in chunks there", f.Suggestion)
	}
	// The caller's line, where the fix is, is one of the cause's lines.
	found := false
	for _, r := range f.Related {
		found = found || r.File == "parser.go" && r.Line == 222
	}
	if !found {
		t.Errorf("related %v, want the call at parser.go:222", f.Related)
	}
}

// TestReturnedLookup: a map lookup whose value the line returns (return
// m[key], nil) is the one lookup the caller asks for: no part of the
// function's cause, so no "fewer lookups" advice; a lookup kept for more
// work still is.
func TestReturnedLookup(t *testing.T) {
	for _, tc := range []struct {
		name, source string
		part         bool
	}{
		{"returned with an error", "return m[key], nil", false},
		{"returned alone", "return s.m[k]", false},
		{"kept", "v := m[key]", true},
		{"two lookups", "return m[a] + m[b], nil", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc([]any{bx(),
				src(call("(*I).Execute", "i.go", 81, "runtime.mapaccess1_faststr", "maps", 0.5), tc.source),
				own("(*I).Execute", "i.go", 60, 0.3)}), Options{})
			has := false
			for _, f := range fs {
				has = has || strings.Contains(f.Message, "map access") || strings.Contains(f.Suggestion, "fewer lookups")
			}
			if has != tc.part {
				t.Errorf("the lookup is a part: %v, want %v (%v)", has, tc.part, fs)
			}
		})
	}
}

// TestRepeatedCallConfirmed: when the site matchers read the module (the
// document has shapes), the same call text on two lines is a repeated
// call only where the matcher found one (same-call-repeated at both
// lines): on exclusive branches, or after its receiver is reassigned, it
// is one call per path.
func TestRepeatedCallConfirmed(t *testing.T) {
	lines := []any{bx(),
		src(call("F", "x.go", 10, "reflect.Value.FieldByName", "reflect", 0.3), "v := rv.FieldByName(name)"),
		src(call("F", "x.go", 20, "reflect.Value.FieldByName", "reflect", 0.3), "v := rv.FieldByName(name)")}
	other := document.Shape{Name: "sort-slice", File: "y.go", Line: 5, Says: "sort.Slice"}
	same := document.Shape{Name: "same-call-repeated", File: "x.go", Line: 10, Says: "rv.FieldByName(name) is called on 2 lines",
		Related: []document.Location{{File: "x.go", Line: 20}}}
	for _, tc := range []struct {
		name   string
		shapes []any
		want   bool
	}{
		{"no matcher ran: the text decides", nil, true},
		{"the matcher found none here", []any{other}, false},
		{"the matcher found it", []any{other, same}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(append(slices.Clone(lines), tc.shapes...)), Options{})
			got := false
			for _, f := range fs {
				got = got || f.Kind == document.KindRepeated
			}
			if got != tc.want {
				t.Errorf("a repeated-call finding: %v, want %v", got, tc.want)
			}
		})
	}
}

// TestGrowthIsNotTheAPIs: an exported function whose result grows by
// append (Keys appending to the slice it returns) allocates it more than
// once: where a shape at the line names the change (append-unsized: a
// count known before the loop, perfloop fix presizes it) the regrowth is
// a cause to fix; with none (a scan's matches, a lexer's tokens, counted
// only as they come) it is a part of building the result, in "Costs of
// the API" with words that say so, never "inherent" among the fixes.
func TestGrowthIsNotTheAPIs(t *testing.T) {
	keys := site("Keys", "k.go", 12, 0.6)
	keys.Escape = &document.Escape{Cause: "append", Name: "keys", Sink: "return"}
	keys.Alloc = "runtime.growslice"
	unsized := document.Shape{Name: "append-unsized", File: "k.go", Line: 12, Function: mod + ".Keys", Rewrite: "presize",
		Says: "keys grows by append in a loop over m", Advice: "make keys with len(m) as its capacity"}
	fs, _ := Derive(specDoc([]any{bx(), gc(0.5), keys, unsized}), Options{})
	if len(fs) == 0 || fs[0].File != "k.go" || fs[0].Section != document.SectionFix || !strings.Contains(fs[0].Suggestion, "len(m) as its capacity") {
		t.Fatalf("findings %v, want a finding to fix at k.go:12 with the shape's advice", fs)
	}
	kept := document.Shape{Name: "subslice-kept", File: "k.go", Line: 12, Function: mod + ".Keys",
		Says: "keys keeps slices of flat, which the same loop grows by append (line 11)", Advice: "append only to flat in the loop; after it, make keys once"}
	fs, _ = Derive(specDoc([]any{bx(), gc(0.5), keys, kept}), Options{})
	if len(fs) == 0 || fs[0].Section != document.SectionFix || !strings.Contains(fs[0].Suggestion, "append only to flat in the loop") {
		t.Fatalf("findings %v, want a finding to fix at k.go:12 with the subslice-kept advice", fs)
	}
	fs, _ = Derive(specDoc([]any{bx(), gc(0.5), keys}), Options{})
	if len(fs) == 0 || fs[0].File != "k.go" || fs[0].Section != document.SectionAPI || !strings.Contains(fs[0].Suggestion, "no count known before the loop") {
		t.Fatalf("findings %v, want the regrowth at k.go:12 among the API's costs, in its own words", fs)
	}
}

// TestReturnedAddress: a constructor's local whose address it returns
// (var p T … return &p) is the function's result, whatever the compiler
// names first as its reason to move it to the heap (an option call taking
// &p): the API's cost when the user's call makes it; when the module's own
// code calls the constructor, a cause at that caller, without the advice
// of the compiler's reason.
func TestReturnedAddress(t *testing.T) {
	newSite := func(parent string) document.Allocation {
		a := site("New", "markdown.go", 272, 0.5)
		a.Escape = &document.Escape{Cause: "moved-to-heap", Name: "p", Sink: "call", Into: "opt",
			Fix: "the value escapes through an interface or indirect call the compiler cannot see through: make the call concrete, or keep one value and reuse it"}
		a.Parent = parent
		return a
	}
	shape := document.Shape{Name: "returned-address", File: "markdown.go", Line: 272, Function: mod + ".New", Says: "p is returned as &p"}
	for _, tc := range []struct {
		name     string
		parts    []any
		section  document.Section
		concrete bool
	}{
		{"no shape: the compiler's reason", []any{bx(), gc(0.5), newSite("")}, document.SectionFix, true},
		{"returned, the user's call", []any{bx(), gc(0.5), newSite(""), shape}, document.SectionAPI, false},
		{"returned, the module's Run calls it", []any{bx(), gc(0.5), newSite(mod + ".Run"), shape}, document.SectionFix, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(tc.parts), Options{})
			if len(fs) == 0 {
				t.Fatal("no finding")
			}
			f := fs[0]
			if f.Section != tc.section || strings.Contains(f.Suggestion, "make the call concrete") != tc.concrete {
				t.Errorf("%s, %q; want section %s, the compiler's reason's advice %v", f.Section, f.Suggestion, tc.section, tc.concrete)
			}
		})
	}
}

// TestBoxedIntoResult: values boxed into the map[string]any a function
// returns (a boxed-into-result shape at the site) are what the caller
// asked for: an API cost with the API-level alternative, not "avoid
// boxing in the hot path".
func TestBoxedIntoResult(t *testing.T) {
	a := site("Decode", "d.go", 9, 0.5)
	a.Escape = &document.Escape{Cause: "interface", Name: "i"}
	shape := document.Shape{Name: "boxed-into-result", File: "d.go", Line: 9, Function: mod + ".Decode", Says: "i is boxed into the map[string]any the function returns"}
	fs, _ := Derive(specDoc([]any{bx(), gc(0.5), a, shape}), Options{})
	if len(fs) == 0 || fs[0].Section != document.SectionAPI {
		t.Fatalf("findings %v, want an API cost", fs)
	}
	if s := fs[0].Suggestion; !strings.Contains(s, "typed result") || strings.Contains(s, "avoid boxing") {
		t.Errorf("suggestion %q, want the API-level alternative (a typed result)", s)
	}
	// Without the shape, the compiler's reason decides.
	fs, _ = Derive(specDoc([]any{bx(), gc(0.5), a}), Options{})
	if len(fs) == 0 || fs[0].Section != document.SectionFix {
		t.Errorf("without the shape: %v, want a cause to fix", fs)
	}
}

// TestAdviceFromReflection: the shapes of reflection, of fmt on an
// interface value and of a search through a comparator func value explain
// the CPU their lines spend in reflect, fmt and sort,
// so the cause takes their advice (a type switch, a check of NumMethod, a
// type assertion to the map, a direct call) over the category's generic
// words; a shape of another mechanism does not.
func TestAdviceFromReflection(t *testing.T) {
	for _, tc := range []struct {
		shape, callee, cat string
		want               string // the shape the finding takes, "" for generic
	}{
		{"sprintf-any", "fmt.Sprintf", "fmt", "sprintf-any"},
		{"method-by-name", "reflect.Value.MethodByName", "reflect", "method-by-name"},
		{"method-by-name", "strings.Title", "strings", "method-by-name"},
		{"reflect-map-index", "reflect.Value.MapIndex", "reflect", "reflect-map-index"},
		{"reflect-call", "reflect.Value.Call", "reflect", "reflect-call"},
		{"reflect-call", "fmt.Sprintf", "fmt", ""},
		{"search-func-value", "sort.Search", "sort", "search-func-value"},
		{"search-func-value", "strings.Index", "strings", ""},
		{"sprintf-quote", "fmt.Sprintf", "strings", "sprintf-quote"},
		{"map-copied", "runtime.mapassign_faststr", "maps", "map-copied"},
		{"map-copied", "sort.Strings", "sort", ""},
	} {
		t.Run(tc.shape+" "+tc.callee, func(t *testing.T) {
			d := doc(benchmark("BenchmarkRender", 2e-6, 0, 0))
			d.Lines = []document.LineCost{{Benchmark: "BenchmarkRender", Package: mod, Function: mod + ".eval", File: "eval.go", Line: 42,
				Callee: tc.callee, Category: document.Category(tc.cat), Self: 0.3, Cum: 0.3}}
			d.Shapes = []document.Shape{{Name: tc.shape, File: "eval.go", Line: 42, Says: "what the code does", Advice: "the fix"}}
			fs, _ := Derive(d, Options{})
			if len(fs) != 1 {
				t.Fatalf("%d findings, want 1", len(fs))
			}
			if f := fs[0]; f.Shape != tc.want || f.Generic != (tc.want == "") {
				t.Errorf("shape %q, generic %v; want %q", f.Shape, f.Generic, tc.want)
			}
		})
	}
}

// TestAdviceForLocalsMovedTogether: locals of one type each moved to the
// heap (moved-pair) explain the allocations at their lines: the cause
// takes the advice to allocate them together.
func TestAdviceForLocalsMovedTogether(t *testing.T) {
	d := doc(benchmark("BenchmarkClone", 200e-9, 3, 64))
	d.Categories = []document.CategoryShare{{Benchmark: "BenchmarkClone", Package: mod, Category: "gc", Share: 0.3}}
	site := func(line int64, name string) document.Allocation {
		return document.Allocation{Benchmark: "BenchmarkClone", Package: mod, Function: mod + ".(*Tree).Clone", File: "t.go", Line: line,
			BytesShare: 0.5, ObjectsShare: 0.5, AllocsPerOp: 1, BytesPerOp: 24,
			Escape: &document.Escape{Cause: "moved-to-heap", Name: name, Reason: name + " is moved to the heap because its address escapes"}}
	}
	d.Allocations = []document.Allocation{site(630, "cow1"), site(630, "cow2")}
	d.Shapes = []document.Shape{{Name: "moved-pair", File: "t.go", Line: 630, Says: "cow1 and cow2 are each moved to the heap", Advice: "allocate them together"}}
	fs, _ := Derive(d, Options{})
	if len(fs) != 1 || fs[0].Shape != "moved-pair" || fs[0].Generic {
		t.Fatalf("findings %v: want one, with the moved-pair advice", fs)
	}
}

// TestAdviceForACopiedMap: a map made and filled by copying another one
// (map-copied) explains the allocation of the copy, which escapes with the
// value it is stored in.
func TestAdviceForACopiedMap(t *testing.T) {
	d := doc(benchmark("BenchmarkDup", 300e-9, 3, 448))
	d.Categories = []document.CategoryShare{{Benchmark: "BenchmarkDup", Package: mod, Category: "gc", Share: 0.3}}
	d.Allocations = []document.Allocation{{Benchmark: "BenchmarkDup", Package: mod, Function: mod + ".(*Entry).Dup", File: "entry.go", Line: 84,
		BytesShare: 0.9, ObjectsShare: 0.9, AllocsPerOp: 3, BytesPerOp: 448,
		Escape: &document.Escape{Cause: "escapes", Name: "make(Fields, len(entry.Data))", Reason: "make(Fields, len(entry.Data)) escapes to the heap: Entry{...} (struct literal element)"}}}
	d.Shapes = []document.Shape{{Name: "map-copied", File: "entry.go", Line: 84, Says: "data is a copy of entry.Data", Advice: "avoid the copy where it is only read"}}
	fs, _ := Derive(d, Options{})
	if len(fs) != 1 || fs[0].Shape != "map-copied" || fs[0].Generic {
		t.Fatalf("findings %v: want one, with the map-copied advice", fs)
	}
}

// TestAdviceForAnArena: a slice grown by append whose elements are handed
// out by address (append-arena) explains its growth: the advice is chunks
// that never move, not a size hint.
func TestAdviceForAnArena(t *testing.T) {
	d := doc(benchmark("BenchmarkParse", 90e-3, 20, 28<<20))
	d.Categories = []document.CategoryShare{{Benchmark: "BenchmarkParse", Package: mod, Category: "gc", Share: 0.3}}
	d.Allocations = []document.Allocation{{Benchmark: "BenchmarkParse", Package: mod, Function: mod + ".(*cache).getValue", File: "parser.go", Line: 67,
		Alloc: "runtime.growslice", BytesShare: 0.9, ObjectsShare: 0.5, AllocsPerOp: 20, BytesPerOp: 28 << 20,
		Escape: &document.Escape{Cause: "append", Name: "c.vs", Reason: "append to c.vs grows it"}}}
	d.Shapes = []document.Shape{{Name: "append-arena", File: "parser.go", Line: 67, Says: "c.vs grows by append while the function hands out its elements by address", Advice: "fixed-size chunks that never move"}}
	fs, _ := Derive(d, Options{})
	if len(fs) != 1 || fs[0].Shape != "append-arena" || fs[0].Generic {
		t.Fatalf("findings %v: want one, with the append-arena advice", fs)
	}
}

// TestStoredInTheResult: a value the compiler moves to the heap because
// it is stored in what the function returns (a node's children slice),
// which then escapes through a call, outlives the call by design: the
// advice says so instead of "make the call concrete".
func TestStoredInTheResult(t *testing.T) {
	site := func(flow []string) document.Allocation {
		return document.Allocation{Benchmark: "BenchmarkParse", Package: mod, Function: mod + ".(*Parser).led", File: "parser.go", Line: 227,
			BytesShare: 0.6, ObjectsShare: 0.6, AllocsPerOp: 49, BytesPerOp: 4700,
			Escape: &document.Escape{Cause: "escapes", Sink: "call", Name: "[]ASTNode{...}", Flow: flow,
				Reason: "[]ASTNode{...} escapes to the heap: append(expressions, expression) (call parameter)"}}
	}
	for _, tc := range []struct {
		name      string
		flow      []string
		want, not string
	}{
		{"stored in the result", []string{"flow: ~r0 ← &{storage for []ASTNode{...}}:", "  from []ASTNode{...} (spill) at parser.go:227:24",
			"  from ASTNode{...} (struct literal element) at parser.go:225:18", "  from return ASTNode{...}, err (return) at parser.go:225:4",
			"flow: {heap} ← expression:", "  from append(expressions, expression) (call parameter) at parser.go:423:23"}, "inherent to that representation", "make the call concrete"},
		{"passed to a call", []string{"flow: {heap} ← &{storage for []ASTNode{...}}:", "  from sink(x) (call parameter) at parser.go:228:6"}, "make the call concrete", "inherent"},
		// Appended to a slice: kept with it, no indirect call.
		{"appended", []string{"flow: {heap} ← &{storage for &fieldError{...}}:", "  from &fieldError{...} (spill) at parser.go:227:3",
			"  from append(v.errs, &fieldError{...}) (call parameter) at parser.go:226:17"}, "the value is appended to v.errs, which keeps it", "make the call concrete"},
		// The result itself, returned to the module's caller: not this
		// rule's (the allocation is what the function makes).
		{"the result itself", []string{"flow: ~r0 ← &{storage for &visitor{...}}:", "  from &visitor{...} (spill) at eval.go:56:9", "  from return &visitor{...} (return) at eval.go:56:2"}, "the value is (*Parser).led's result, kept by its callers", "keep the value from outliving"},
		// Stored into a field of a value the heap holds: it lives as
		// long as its owner.
		{"stored in a heap value", []string{"flow: {heap} ← &{storage for make([]T, n)}:", "  from make([]T, n) (spill) at parser.go:227:19",
			"  from out.items = make([]T, n) (assign) at parser.go:227:13"}, "the value is stored in out.items, which the heap holds", "keep the value from outliving"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := doc(benchmark("BenchmarkParse", 20e-6, 49, 4700))
			d.Categories = []document.CategoryShare{{Benchmark: "BenchmarkParse", Package: mod, Category: "gc", Share: 0.3}}
			a := site(tc.flow)
			switch tc.name {
			case "appended":
				a.Escape.Into = "append"
			case "the result itself":
				a.Escape.Sink = "return"
			case "stored in a heap value":
				a.Escape.Sink = "heap"
			}
			d.Allocations = []document.Allocation{a}
			fs, _ := Derive(d, Options{})
			if len(fs) != 1 || !strings.Contains(fs[0].Suggestion, tc.want) || strings.Contains(fs[0].Suggestion, tc.not) {
				t.Fatalf("findings %v: want one whose advice says %q, not %q", fs, tc.want, tc.not)
			}
		})
	}
}

// TestAdviceAtTheModulesCall: a constructor's allocation that the
// module's own code makes (a renderer built with its parent, used only
// under a flag) takes the advice of the shape at that call: the call
// carries the cause's whole cost.
func TestAdviceAtTheModulesCall(t *testing.T) {
	sr := escapesByResult(site("NewSmartypantsRenderer", "smartypants.go", 388, 0.5))
	sr.Parent, sr.ParentFile, sr.ParentLine = mod+".NewHTMLRenderer", "html.go", 147
	d := specDoc([]any{bx(), gc(0.6), sr})
	d.Shapes = []document.Shape{{Name: "built-unless-used", File: "html.go", Line: 147, Function: mod + ".NewHTMLRenderer",
		Says:   "sr is built by NewSmartypantsRenderer(params.Flags) with every value, but read only when r.Flags&Smartypants != 0",
		Advice: "build it only when r.Flags&Smartypants != 0"}}
	fs, _ := Derive(d, Options{})
	if len(fs) == 0 || fs[0].Shape != "built-unless-used" || fs[0].Generic {
		t.Fatalf("findings %v: want the built-unless-used advice at the module's call", fs)
	}
}

// TestAppendToAField: an append that grows a field of a heap-held value
// in a method (a visitor's expression stack) is reused from call to
// call: the advice is room where its owner is made, not "reuse the slice
// across calls".
func TestAppendToAField(t *testing.T) {
	for _, tc := range []struct {
		name, sink, want, not string
	}{
		{"a field", "heap", "v.exprs is a field of v, kept with it from call to call", "reuse the slice across calls"},
		{"a local slice", "", "reuse the slice across calls", "is a field of"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := doc(benchmark("BenchmarkExec", 20e-6, 12, 900))
			d.Categories = []document.CategoryShare{{Benchmark: "BenchmarkExec", Package: mod, Category: "gc", Share: 0.3}}
			name := "v.exprs"
			if tc.sink == "" {
				name = "exprs"
			}
			d.Allocations = []document.Allocation{{Benchmark: "BenchmarkExec", Package: mod, Function: mod + ".(*visitor).pushExpr", File: "eval.go", Line: 194,
				BytesShare: 0.4, ObjectsShare: 0.4, AllocsPerOp: 5, BytesPerOp: 360,
				Escape: &document.Escape{Cause: "append", Sink: tc.sink, Name: name,
					Reason: "append to " + name + " grows it: when its capacity runs out, runtime.growslice allocates a larger backing array and copies"}}}
			fs, _ := Derive(d, Options{})
			if len(fs) != 1 || !strings.Contains(fs[0].Suggestion, tc.want) || strings.Contains(fs[0].Suggestion, tc.not) {
				t.Fatalf("findings %v: want one whose advice says %q, not %q", fs, tc.want, tc.not)
			}
		})
	}
}

// TestLookupJob: a cache's Get whose whole job is one map lookup
// assigned to its results (c, found = m[key]) is the lookup its callers
// ask for: no "fewer lookups" finding; with more work beside it, the
// lookup is a part of that work's cause.
func TestLookupJob(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		own        float64
		part       bool
	}{
		{"the whole job", "c, found = sc.m.Load().(map[reflect.Type]*cStruct)[key]", 0.01, false},
		{"with other work", "c, found = sc.m.Load().(map[reflect.Type]*cStruct)[key]", 0.3, true},
		// An interning table's lookup, found or added: the trade it
		// makes (a hash for an allocation), its whole job.
		{"the whole job in an if", "if s, ok := d.interned[string(b)]; ok {", 0.01, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc([]any{bx(),
				src(call("(*structCache).Get", "cache.go", 39, "runtime.mapaccess2", "maps", 0.35), tc.line),
				own("(*structCache).Get", "cache.go", 38, tc.own)}), Options{})
			has := false
			for _, f := range fs {
				has = has || strings.Contains(f.Message, "map access") || strings.Contains(f.Suggestion, "fewer lookups")
			}
			if has != tc.part {
				t.Errorf("the lookup is a part: %v, want %v (%v)", has, tc.part, fs)
			}
		})
	}
}

// TestFixtureCallback: test code the module calls on every op (a custom
// type function the benchmark registers, a test type's method the module
// calls through an interface) is the benchmark's input, one finding per
// benchmark and callback, not a fixture to hoist before b.ResetTimer;
// test code the benchmark calls itself is.
func TestFixtureCallback(t *testing.T) {
	registered := fixture("validator_test.go", 228, 0.3)
	registered.Function, registered.Parent, registered.ParentFile = mod+".ValidateValuerType", mod+".(*validate).extractTypeInternal", "util.go"
	second := registered
	second.Line = 230
	method := fixture("validator_test.go", 188, 0.3)
	method.Function = mod + ".valuer.Value"
	helper := fixture("bench_test.go", 40, 0.3)
	helper.Function, helper.Parent, helper.ParentFile = mod+".(*builder).build", mod+".BenchmarkX", "bench_test.go"
	// The benchmark converting each segment it gets to []rune.
	conv := fixture("grapheme_test.go", 531, 0.99)
	conv.Function = mod + ".BenchmarkX"
	conv.Escape = &document.Escape{Cause: "conversion", Name: "([]rune)(string(c))", Sink: "heap"}
	for _, tc := range []struct {
		name  string
		sites []any
		want  string
		n     int
	}{
		{"a registered function, two lines", []any{registered, second}, "the callback is the benchmark's input", 1},
		{"a test type's method", []any{method}, "the callback is the benchmark's input", 1},
		{"a helper the benchmark calls", []any{helper}, "build the fixture once", 1},
		{"a conversion in the loop", []any{conv}, "the conversion is the benchmark's work on what the module returns, not a fixture to hoist", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(append([]any{bx(), gc(0.3)}, tc.sites...)), Options{})
			var got []document.Finding
			for _, f := range fs {
				if f.Kind == document.KindFixture {
					got = append(got, f)
				}
			}
			if len(got) != tc.n || !strings.Contains(got[0].Suggestion, tc.want) {
				t.Errorf("fixture findings %v: want %d saying %q", got, tc.n, tc.want)
			}
		})
	}
}

// TestAdviceForJSONMap: encoding/json's time encoding a map of interface
// values (a json-map shape at the line) takes the shape's advice, the
// object written by hand, over the encoding category's words.
func TestAdviceForJSONMap(t *testing.T) {
	enc := call("(*JSONFormatter).Format", "json_formatter.go", 123, "encoding/json.(*Encoder).Encode", "encoding", 0.5)
	shape := resultShape("json-map", "(*JSONFormatter).Format", "json_formatter.go", 123, "encoder.Encode(data) encodes data (Fields) with encoding/json: on every call it sorts the map's keys and finds each value's type by reflection")
	shape.Advice = "write the object by hand into the buffer"
	checkAdvice(t, []adviceCase{
		{"no shape", []any{bx(), enc}, "the library or the format decides"},
		{"a map of interface values", []any{bx(), enc, shape}, "sorts the map's keys and finds each value's type by reflection: write the object by hand"},
	})
}

// adviceCase is a document built from parts and what the suggestion of
// its one finding says.
type adviceCase struct {
	name  string
	parts []any
	want  string
}

// checkAdvice derives each case's findings and wants one, whose
// suggestion says the case's words.
func checkAdvice(t *testing.T, cases []adviceCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(tc.parts), Options{})
			if len(fs) != 1 {
				t.Fatalf("findings %v, want one", fs)
			}
			if s := fs[0].Suggestion; !strings.Contains(s, tc.want) {
				t.Errorf("suggestion %q, want %q", s, tc.want)
			}
		})
	}
}

// TestShapeAtAVariantOfTheCall: a profile that names the variant a call
// inlines to (a B-tree's Set calling SetHint) is still the call the
// call-on-inputs shape at the line names: its own work on the tree it is
// given, never "cache its result".
func TestShapeAtAVariantOfTheCall(t *testing.T) {
	set := call("(*DB).insertIntoDatabase", "buntdb.go", 469, "github.com/tidwall/btree.(*BTree).SetHint", "other", 0.6)
	shape := document.Shape{Name: "call-on-inputs", File: "buntdb.go", Line: 469, OwnWork: true,
		Says:   "db.keys.Set(item) works on the state of db.keys (Set has a pointer receiver), which insertIntoDatabase is given",
		Advice: "the call is insertIntoDatabase's own work on the state it is given, once per call: its result follows that state, so there is no result to cache, and fewer or cheaper calls is a change to the algorithm"}
	checkAdvice(t, []adviceCase{
		{"no shape", []any{bx(), set}, "call it less"},
		{"the variant", []any{bx(), set, shape}, "db.keys.Set(item) works on the state of db.keys"},
	})
}

// TestComparatorWords: a Less method whose time is its string compare
// is a comparator a tree calls per probe: never "an index instead of a
// linear scan".
func TestComparatorWords(t *testing.T) {
	less := call("(*dbItem).Less", "buntdb.go", 1424, "cmpbody", "other", 0.3)
	search := call("(*Index).Find", "index.go", 40, "cmpbody", "other", 0.3)
	checkAdvice(t, []adviceCase{
		{"comparator", []any{bx(), less}, "this comparator's job"},
		{"a search", []any{bx(), search}, "instead of a linear scan"},
	})
}

// TestOneCausePerLoggerType: the boxing at debug calls on one logger type
// in two functions is one cause, with the shape's advice; the arguments'
// line (a call over two lines) is where the compiler puts the boxing.
func TestOneCausePerLoggerType(t *testing.T) {
	boxed := func(fn, file string, line int64) document.Allocation {
		a := site(fn, file, line, 0.3)
		a.Escape = &document.Escape{Cause: "interface", Verdict: "colIndex escapes to heap"}
		return a
	}
	shape := func(fn, file string, line, args int64) document.Shape {
		return document.Shape{Name: "log-args-boxed", File: file, Line: line, Function: mod + "." + fn,
			Related: []document.Location{{File: file, Line: args, Note: "a boxed argument"}},
			Says:    fn + " passes colIndex to f.logger.Debugf, which boxes each into an interface",
			Advice:  "test the *ll.Logger's level before its debug calls on hot paths"}
	}
	fs, _ := Derive(specDoc([]any{bx(),
		boxed("(*Blueprint).renderLine", "blueprint.go", 585), shape("(*Blueprint).renderLine", "blueprint.go", 584, 585),
		boxed("(*Markdown).formatCell", "markdown.go", 485), shape("(*Markdown).formatCell", "markdown.go", 484, 485),
	}), Options{})
	var fixes []document.Finding
	for _, f := range fs {
		if f.Section == document.SectionFix {
			fixes = append(fixes, f)
		}
	}
	if len(fixes) != 1 || fixes[0].Shape != "log-args-boxed" || !strings.Contains(fixes[0].Message, "boxes for it too") {
		var got []string
		for _, f := range fixes {
			got = append(got, fmt.Sprintf("%s:%d %s %q", f.File, f.Line, f.Shape, f.Message))
		}
		t.Errorf("fix findings %v; want one log-args-boxed cause for both functions", got)
	}
}

// TestOneCausePerNodeType: the constructors of one node type (a regexp
// parser's newRegexNode and newRegexNodeM), each told to allocate the
// nodes in chunks, are one cause: one allocator for the type; a node type
// of another package is its own.
func TestOneCausePerNodeType(t *testing.T) {
	node := func(fn, file string, line int64, typ string) (document.Allocation, document.Shape) {
		a := escapesByResult(site(fn, file, line, 0.3))
		a.AllocsPerOp = 200
		return a, document.Shape{Name: "node-chunks", File: file, Line: line, Function: mod + "." + fn,
			Says:   fn + " makes every " + typ + " of the tree with an allocation of its own (&" + typ + "{…}, 104 bytes, with its Children): one allocation per node of the input",
			Advice: "allocate the nodes in chunks the code that builds the tree owns"}
	}
	a1, s1 := node("newRegexNode", "syntax/tree.go", 140, "RegexNode")
	a2, s2 := node("newRegexNodeM", "syntax/tree.go", 171, "RegexNode")
	a3, s3 := node("newItem", "list/item.go", 20, "Item")
	fs, _ := Derive(specDoc([]any{bx(), a1, s1, a2, s2, a3, s3}), Options{})
	var got []string
	for _, f := range fs {
		if f.Section == document.SectionFix {
			got = append(got, fmt.Sprintf("%s:%d %s", f.File, f.Line, f.Shape))
		}
	}
	if len(got) != 2 || !slices.ContainsFunc(fs, func(f document.Finding) bool { return strings.Contains(f.Message, "makes the same nodes") }) {
		t.Errorf("fix findings %v; want one node-chunks cause per node type, two in all", got)
	}
}

// TestVariableMakeAdvice: a buffer made with a size known only at run
// time goes into the enclosing struct of a method; a function with no
// receiver has none, and is told a fixed-size array or a caller's buffer.
func TestVariableMakeAdvice(t *testing.T) {
	for _, tc := range []struct{ fn, want, not string }{
		{"(*Encoder).encode", "enclosing struct", ""},
		{"BigComma", "fixed-size array", "enclosing struct"},
	} {
		d := doc(benchmark("BenchmarkX", 1e-6, 1, 100))
		d.Allocations = []document.Allocation{{Benchmark: "BenchmarkX", Package: mod, Function: mod + "." + tc.fn, File: "s.go", Line: 5,
			BytesShare: 0.5, ObjectsShare: 0.5, AllocsPerOp: 1, BytesPerOp: 100, Escape: &document.Escape{Cause: "variable-make"}}}
		got, _ := SiteAdvice(d, &d.Allocations[0])
		if !strings.Contains(got, tc.want) || tc.not != "" && strings.Contains(got, tc.not) {
			t.Errorf("%s: %q, want %q and not %q", tc.fn, got, tc.want, tc.not)
		}
	}
}

// TestDiscardKeptOneNote: a benchmark whose results are discarded at
// several lines, the calls kept by the compiler, is one note with the
// other lines related, not a note per line.
func TestDiscardKeptOneNote(t *testing.T) {
	second := discardLint()
	second.Line = 8
	fs, _ := Derive(specDoc([]any{shares(bx(), 0.013, 0.5), discardLint(), second}), Options{})
	var notes []document.Finding
	for _, f := range fs {
		if f.Rule == document.RuleDiscardKept {
			notes = append(notes, f)
		}
	}
	if len(notes) != 1 || len(notes[0].Related) != 1 || notes[0].Related[0].Line != 8 {
		t.Errorf("discard notes %+v, want one at line 7 with line 8 related", notes)
	}
}

// TestAdviceForDependencyNotInlined: a hot call of another module's
// function the compiler does not inline (cost 83 over a budget of 80),
// made once per iteration of a loop in two functions, is one cause at the
// costlier call, whose advice is the call's change, not the loop's
// algorithm; the same call elsewhere is named. A function of the standard
// library is no such cause, nor is one far over the budget.
func TestAdviceForDependencyNotInlined(t *testing.T) {
	const set = "github.com/x/bitset.(*BitSet).Set"
	add := call("(*Filter).Add", "f.go", 165, set, "other", 0.39)
	addOwn := call("(*Filter).Add", "f.go", 164, "", "application", 0.18)
	both := call("(*Filter).TestAndAdd", "f.go", 240, set, "other", 0.09)
	bothOwn := call("(*Filter).TestAndAdd", "f.go", 237, "", "application", 0.50)
	loopAdd := document.Shape{Name: "loop", File: "f.go", Line: 164, Related: []document.Location{{File: "f.go", Line: 166}}}
	loopBoth := document.Shape{Name: "loop", File: "f.go", Line: 235, Related: []document.Location{{File: "f.go", Line: 241}}}
	ni := document.NotInlined{Function: set, File: "github.com/x/bitset@v1.0.0/bitset.go", Line: 263, Cost: 83, Budget: 80, Dependency: true}
	fs, _ := Derive(specDoc([]any{bx(), add, addOwn, both, bothOwn, loopAdd, loopBoth, ni}), Options{})
	var got []document.Finding
	for _, f := range fs {
		if strings.Contains(f.Suggestion, "(*BitSet).Set") {
			got = append(got, f)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%d findings name Set, want one: %v", len(got), kinds(fs))
	}
	f := got[0]
	if f.Line != 165 || f.Rule != document.RuleCPUNotInlined || f.Generic || f.NoChange {
		t.Errorf("finding at line %d, rule %s, generic %v, no change %v; want line 165, %s, a named change", f.Line, f.Rule, f.Generic, f.NoChange, document.RuleCPUNotInlined)
	}
	for _, want := range []string{"cost 83, over its budget of 80", "loop at lines 164–166", "write its common case out at line 165", "PGO", "the same at f.go:240"} {
		if !strings.Contains(f.Suggestion, want) {
			t.Errorf("advice %q lacks %q", f.Suggestion, want)
		}
	}
	// Far over the budget, or the standard library's: the loop's own
	// algorithm, no inlining advice.
	for _, n := range []document.NotInlined{{Function: set, Cost: 300, Budget: 80, Dependency: true}, {Function: set, Cost: 83, Budget: 80}} {
		fs, _ := Derive(specDoc([]any{bx(), add, addOwn, loopAdd, n}), Options{})
		for _, f := range fs {
			if strings.Contains(f.Suggestion, "does not inline") {
				t.Errorf("cost %d, dependency %v: advice %q names the inlining", n.Cost, n.Dependency, f.Suggestion)
			}
		}
	}
}

// TestInternalOnlyLeftAlone: an unexported function's search that only
// the benchmarks calling it directly show (a width table's binary search,
// which the API answers from a lookup table) is no finding when the module
// benchmarks its API: those benchmarks measure its algorithm out of any
// use. Once an API benchmark's profile shows the function too, it is.
func TestInternalOnlyLeftAlone(t *testing.T) {
	table := micro(benchmark("BenchmarkTable", 2e-3, 0, 0), "inTable")
	width := api(benchmark("BenchmarkWidth", 3e-6, 0, 0), "StringWidth")
	search := callIn("BenchmarkTable", "inTable", "w.go", 198, "runtime.mapaccess1_fast64", "maps", 0.5)
	own := callIn("BenchmarkTable", "inTable", "w.go", 195, "", "application", 0.45)
	widthOwn := callIn("BenchmarkWidth", "StringWidth", "w.go", 620, "strings.IndexByte", "strings", 0.5)
	for _, tc := range []struct {
		name   string
		extra  []any
		wantIn bool
	}{
		{"only the direct benchmark", nil, false},
		{"the API's benchmark reaches it", []any{callIn("BenchmarkWidth", "inTable", "w.go", 198, "runtime.mapaccess1_fast64", "maps", 0.04)}, true},
	} {
		parts := append([]any{table, width, search, own, widthOwn}, tc.extra...)
		fs, _ := Derive(specDoc(parts), Options{})
		found := false
		for _, f := range fs {
			found = found || f.Section == document.SectionFix && f.Line == 198
		}
		if found != tc.wantIn {
			t.Errorf("%s: inTable's finding present %v, want %v: %v", tc.name, found, tc.wantIn, kinds(fs))
		}
	}
}

// TestDecodingIsOwnWork: the runtime's decoding of a string's runes (a
// range over the input) is the function's own work on what it is given,
// never "string building" to "reuse buffers" for.
func TestDecodingIsOwnWork(t *testing.T) {
	dec := call("(*Condition).runeWidthSum", "w.go", 645, "runtime.decoderune", "strings", 0.12)
	fs, _ := Derive(specDoc([]any{bx(), dec}), Options{})
	if len(fs) != 1 {
		t.Fatalf("findings %v, want one", kinds(fs))
	}
	f := fs[0]
	if !f.NoChange || strings.Contains(f.Suggestion, "reuse buffers") || !strings.Contains(f.Message, "decoding UTF-8") {
		t.Errorf("finding %q / %q (no change %v), want decoding as the function's own work", f.Message, f.Suggestion, f.NoChange)
	}
}

// TestGrowDropped: a builder grown before a loop that can return without
// it (a rune loop giving up at a joiner) takes the shape's change, and a
// returned builder's growth is never told to be reused across calls.
func TestGrowDropped(t *testing.T) {
	a := site("(*Condition).wrapRunes", "w.go", 821, 0.5)
	a.Via, a.Escape = "strings.(*Builder).Grow", &document.Escape{Cause: "callee"}
	shape := document.Shape{Name: "grow-dropped", File: "w.go", Line: 821, Function: mod + ".(*Condition).wrapRunes",
		Says:   "out.Grow(len(s)) reserves room in out, whose text wrapRunes returns (line 839), but the return at line 824 leaves out behind",
		Advice: "reserve the room once the function knows it keeps out: after the check that returns without it, or at the first write"}
	fs, _ := Derive(specDoc([]any{bx(), a, shape}), Options{})
	if len(fs) != 1 || fs[0].Shape != "grow-dropped" || !strings.Contains(fs[0].Suggestion, "after the check that returns without it") {
		t.Fatalf("findings %+v, want the grow-dropped advice", fs)
	}
	fs, _ = Derive(specDoc([]any{bx(), a}), Options{})
	if len(fs) != 1 || strings.Contains(fs[0].Suggestion, "reuse it across calls") {
		t.Errorf("without the shape: %+v, want no reuse across calls", fs)
	}
}

// TestLoopDriver: a library call in a loop's condition (for g.Next()) is
// the loop's step, not a result to cache.
func TestLoopDriver(t *testing.T) {
	next := call("(*Condition).TruncatePrefix", "w.go", 783, "github.com/x/iterators.(*Iterator).Next", "other", 0.11)
	loop := document.Shape{Name: "loop", File: "w.go", Line: 783, Related: []document.Location{{File: "w.go", Line: 790}},
		Says: "the loop at lines 783–790 runs while g.Next() && g.Start() < len(s)"}
	fs, _ := Derive(specDoc([]any{bx(), next, loop}), Options{})
	if len(fs) != 1 || strings.Contains(fs[0].Suggestion, "cache its result") || !strings.Contains(fs[0].Suggestion, "drives the loop at lines 783–790") || !fs[0].NoChange {
		t.Fatalf("findings %+v, want the loop's step, no change named", fs)
	}
	// The same call in the loop's body is not its driver.
	next.Line = 785
	fs, _ = Derive(specDoc([]any{bx(), next, loop}), Options{})
	if len(fs) == 1 && strings.Contains(fs[0].Suggestion, "drives the loop") {
		t.Errorf("a call in the body: %q, want no loop driver", fs[0].Suggestion)
	}
}

// TestMeasuredInput: a function that measures all of its input only to
// compare the measure with a bound (a measure-compared shape naming the
// measuring function) takes the measure's cumulative share of a benchmark
// it runs in as a cause at its call, with the shape's change; without the
// measuring function named, or below CPUMin, no cause.
func TestMeasuredInput(t *testing.T) {
	shape := document.Shape{Name: "measure-compared", File: "w.go", Line: 656, Function: mod + ".(*Condition).Truncate",
		Says:    "c.StringWidth(s) measures all of s only to compare the measure with w",
		Advice:  "stop measuring once the answer is known",
		Related: []document.Location{{File: "w.go", Line: 600, Function: mod + ".(*Condition).StringWidth", Note: "the measure"}}}
	trunc := document.Hotspot{Benchmark: "BenchmarkX", Package: mod, Function: mod + ".(*Condition).Truncate", Flat: 0.02, Cum: 0.95}
	width := document.Hotspot{Benchmark: "BenchmarkX", Package: mod, Function: mod + ".(*Condition).StringWidth", Flat: 0.5, Cum: 0.88}
	fs, _ := Derive(specDoc([]any{bx(), shape, trunc, width}), Options{})
	if len(fs) != 1 || fs[0].Line != 656 || fs[0].Generic || !strings.Contains(fs[0].Suggestion, "stop measuring once the answer is known") || fs[0].Impact < 0.8 {
		t.Fatalf("findings %+v, want Truncate's measure at line 656 with the shape's change", fs)
	}
	width.Cum = 0.05
	if fs, _ := Derive(specDoc([]any{bx(), shape, trunc, width}), Options{}); len(fs) != 0 {
		t.Errorf("measure at 5%%: %v, want nothing", kinds(fs))
	}
	shape.Related = nil
	width.Cum = 0.88
	if fs, _ := Derive(specDoc([]any{bx(), shape, trunc, width}), Options{}); len(fs) != 0 {
		t.Errorf("no measuring function named: %v, want nothing", kinds(fs))
	}
}

// TestMapUnsizedFilled: a store into a map its caller made without a
// size, the map a parameter, is no longer "its own work on its inputs":
// the shape names the size where the map is made.
func TestMapUnsizedFilled(t *testing.T) {
	store := call("munge", "d.go", 1354, "runtime.mapassign_faststr", "maps", 0.31)
	onInputs := document.Shape{Name: "map-on-inputs", File: "d.go", Line: 1354, OwnWork: true,
		Says: "lineHash[line] stores into lineHash, with what munge is given", Advice: "its own work on its inputs"}
	unsized := document.Shape{Name: "map-unsized", File: "d.go", Line: 1354,
		Says:   "lineHash[line] stores into lineHash, made without a size (line 1325 in linesToStrings)",
		Advice: "give it a size where linesToStrings makes it"}
	fs, _ := Derive(specDoc([]any{bx(), store, onInputs, unsized}), Options{})
	if len(fs) != 1 || fs[0].NoChange || !strings.Contains(fs[0].Suggestion, "give it a size where linesToStrings makes it") {
		t.Fatalf("findings %+v, want the size named", fs)
	}
	fs, _ = Derive(specDoc([]any{bx(), store, onInputs}), Options{})
	if len(fs) != 1 || !fs[0].NoChange {
		t.Errorf("without the shape: %+v, want its own work", fs)
	}
}

// TestOwnCodeWithNamedChange: a function's own code below OwnCodeMin is a
// cause when a shape at its lines names a change (a loop walking its
// input from the front to find a tail), as a call of that share is.
func TestOwnCodeWithNamedChange(t *testing.T) {
	loop := call("truncatePrefixRunes", "w.go", 799, "", "application", 0.12)
	tail := document.Shape{Name: "tail-from-front", File: "w.go", Line: 799, Function: mod + ".truncatePrefixRunes",
		Says: "the loop over s walks it from the front", Advice: "walk s back from its end"}
	if fs, _ := Derive(specDoc([]any{bx(), loop}), Options{}); len(fs) != 0 {
		t.Errorf("own code at 12%% alone: %v, want nothing", kinds(fs))
	}
	fs, _ := Derive(specDoc([]any{bx(), loop, tail}), Options{})
	if len(fs) != 1 || fs[0].Shape != "tail-from-front" || fs[0].NoChange {
		t.Fatalf("with the shape: %+v, want its change", fs)
	}
}

// TestAllocShapePart: a generic cause whose allocation at a line holds
// half of its bytes, though little of its CPU, names that line's change
// as its part: the bytes do not vary from run to run.
func TestAllocShapePart(t *testing.T) {
	own := call("(*Condition).Wrap", "w.go", 878, "", "application", 0.30)
	next := call("(*Condition).Wrap", "w.go", 892, "github.com/x/iterators.(*Iterator).Next", "other", 0.15)
	dropped := site("(*Condition).Wrap", "w.go", 821, 0.5)
	dropped.BytesPerOp, dropped.AllocsPerOp = 2048, 1
	dropped.Via, dropped.Escape = "strings.(*Builder).Grow", &document.Escape{Cause: "callee"}
	kept := site("(*Condition).Wrap", "w.go", 851, 0.5)
	kept.BytesPerOp, kept.AllocsPerOp = 2048, 1
	kept.Via, kept.Escape = "strings.(*Builder).Grow", &document.Escape{Cause: "callee"}
	shape := document.Shape{Name: "grow-dropped", File: "w.go", Line: 821, Function: mod + ".(*Condition).Wrap",
		Says: "out.Grow(n) reserves room in out, but the return at line 824 leaves out behind", Advice: "reserve the room once the function knows it keeps out"}
	fs, _ := Derive(specDoc([]any{bx(), own, next, dropped, kept, shape}), Options{})
	found := false
	for _, f := range fs {
		found = found || f.Section == document.SectionFix && strings.Contains(f.Suggestion, "reserve the room once the function knows it keeps out")
	}
	if !found {
		t.Errorf("findings %+v, want the dropped buffer's change named", fs)
	}
}

// TestResetNil: an append into a buffer its loop resets to nil takes the
// shape's change, x = x[:0], over "preallocate".
func TestResetNil(t *testing.T) {
	a := site("merge", "d.go", 977, 0.5)
	a.Escape = &document.Escape{Cause: "append"}
	shape := document.Shape{Name: "reset-nil", File: "d.go", Line: 977, Function: mod + ".merge",
		Says:   "textDelete = append(textDelete, …) appends to textDelete, which line 1039 sets to nil in the same loop",
		Advice: "reset it with textDelete = textDelete[:0] at line 1039"}
	fs, _ := Derive(specDoc([]any{bx(), a, shape}), Options{})
	if len(fs) != 1 || fs[0].Shape != "reset-nil" || !strings.Contains(fs[0].Suggestion, "textDelete[:0]") {
		t.Fatalf("findings %+v, want the reset's change", fs)
	}
}

// TestLockPerCall: a method whose time is its one lock round trip per
// call (a lock-per-call shape at the Lock, the Unlock its related line)
// names no change, even where a lighter line leads the cause; a shape that
// names a change at the same cause (a wall-clock read) speaks first.
func TestLockPerCall(t *testing.T) {
	lock := call("(*cache).Incr", "cache.go", 260, "sync.(*RWMutex).Lock", "other", 0.26)
	store := call("(*cache).Incr", "cache.go", 273, "runtime.mapassign_faststr", "maps", 0.27)
	unlock := call("(*cache).Incr", "cache.go", 274, "sync.(*RWMutex).Unlock", "other", 0.25)
	shape := document.Shape{Name: "lock-per-call", OwnWork: true, File: "cache.go", Line: 260,
		Related: []document.Location{{File: "cache.go", Line: 274, Note: "the Unlock"}},
		Says:    "Incr takes c.mu, a sync.RWMutex, once per call (Lock here, released at line 274): the lock that makes cache safe for concurrent use",
		Advice:  "one lock round trip per call is the price of a type safe for concurrent use: nothing to change at this line"}
	clock := call("(*cache).Incr", "cache.go", 258, "time.Now", "time", 0.30)
	wall := document.Shape{Name: "wall-clock", File: "cache.go", Line: 258,
		Says:   "time.Now().UnixNano() reads the wall clock and the monotonic clock, then keeps only the wall time as an integer, on every call",
		Advice: "read the clock once, monotonically: time.Since(base)"}
	fs, _ := Derive(specDoc([]any{bx(), lock, store, unlock, shape}), Options{})
	if len(fs) != 1 || fs[0].Shape != "lock-per-call" || !fs[0].NoChange || fs[0].Generic {
		t.Fatalf("findings %+v, want one, the lock-per-call shape's, naming no change", fs)
	}
	fs, _ = Derive(specDoc([]any{bx(), lock, store, unlock, clock, shape, wall}), Options{})
	if len(fs) != 1 || fs[0].Shape != "wall-clock" {
		t.Fatalf("findings %+v, want one, the wall-clock shape's", fs)
	}
}

// TestChanIterator: a channel iterator's cause takes the benchmark's
// scheduler share (the receive, the parking and waking), not only the
// send at its line, and its shape's advice.
func TestChanIterator(t *testing.T) {
	send := call("(*Set).Iter.func1", "set.go", 37, "runtime.chansend1", "scheduler", 0.32)
	shape := document.Shape{Name: "chan-iterator", File: "set.go", Line: 37,
		Says:   "Iter returns a channel that a goroutine it starts fills one element per send",
		Advice: "a range-over-func iterator visits the same elements on the caller's goroutine"}
	sched := document.CategoryShare{Benchmark: "BenchmarkX", Category: "scheduler", Share: 0.86}
	fs, _ := Derive(specDoc([]any{bx(), send, sched, shape}), Options{})
	var got *document.Finding
	for i := range fs {
		if fs[i].Shape == "chan-iterator" {
			got = &fs[i]
		}
	}
	if got == nil {
		t.Fatalf("findings %+v, want the chan-iterator shape's", fs)
	}
	if !strings.Contains(got.Message, "with the receive and the scheduler's hand-offs, 86% of BenchmarkX's CPU") {
		t.Errorf("message %q, want the scheduler's share", got.Message)
	}
}

// TestLockPerElementCall: a constructor whose time is its calls of Add,
// one per value, each taking the set's lock, is a cause at the call with
// the lock-per-element shape's advice; without the shape it is none.
func TestLockPerElementCall(t *testing.T) {
	hot := document.Hotspot{Benchmark: "BenchmarkX", Package: mod, Function: mod + ".NewSet", File: "set.go", Line: 60, Cum: 0.73}
	shape := document.Shape{Name: "lock-per-element", File: "set.go", Line: 60, Function: mod + ".NewSet",
		Says:   "NewSet calls s.Add once per iteration of the loop at lines 59–61, and Add takes the sync.RWMutex s embeds on every call: a lock round trip per element",
		Advice: "take the lock once for the whole loop"}
	fs, _ := Derive(specDoc([]any{bx(), hot, shape}), Options{})
	if len(fs) != 1 || fs[0].Line != 60 || fs[0].Shape != "lock-per-element" || fs[0].NoChange || fs[0].Generic {
		t.Fatalf("findings %+v, want one at set.go:60 with the shape's advice", fs)
	}
	if fs, _ := Derive(specDoc([]any{bx(), hot}), Options{}); len(fs) != 0 {
		t.Errorf("without the shape: findings %+v, want none", fs)
	}
}

// TestVariadicArgumentIsAPI: a benchmark's line that calls a method with
// a variadic parameter through an interface builds the argument's slice,
// which the call keeps: the signature's cost, never "build the fixture
// once".
func TestVariadicArgumentIsAPI(t *testing.T) {
	b := benchmark("BenchmarkX", 1e-6, 0.5, 8)
	a := document.Allocation{Benchmark: "BenchmarkX", Package: mod, Function: mod + ".benchContains.func1", File: "bench_test.go", Line: 230,
		InTest: true, BytesShare: 1, ObjectsShare: 1, AllocsPerOp: 0.5, BytesPerOp: 8,
		Escape: &document.Escape{Cause: "interface", Sink: "call", Name: "... argument", Into: "s.Contains",
			Reason: "... argument escapes to the heap: converted to an interface that escapes: s.Contains(... argument...) (call parameter)", Verdict: "... argument escapes to heap"}}
	fs, _ := Derive(specDoc([]any{b, a}), Options{})
	if len(fs) == 0 {
		t.Fatal("no finding")
	}
	for _, f := range fs {
		if f.Section == document.SectionBenchmark || f.Kind == document.KindFixture {
			t.Errorf("%s %s: %q, want no fixture finding", f.Section, f.Kind, f.Message)
		}
	}
	if f := fs[0]; f.Section != document.SectionAPI || !strings.Contains(f.Message, "variadic argument") {
		t.Errorf("finding %s %q, want the API's variadic slice", f.Section, f.Message)
	}
}

// TestCowCopyOneCause: a copy-on-write node copied for a writer that does
// not own it (internal/site's cow-copy at mutableFor) allocates in two
// functions: the slices mutableFor makes and the node a free list's
// newNode makes two calls below. One design, one cause, with the node's
// cost named in its message.
func TestCowCopyOneCause(t *testing.T) {
	slices := site("(*node[...]).mutableFor", "btree.go", 243, 0.6)
	slices.Escape = &document.Escape{Cause: "escapes", Verdict: "make(items, len(n.items), cap(n.items)) escapes to heap"}
	node := site("(*FreeList[...]).newNode", "btree.go", 105, 0.3)
	node.Escape = &document.Escape{Cause: "escapes", Sink: "return", Verdict: "new(node) escapes to heap"}
	node.Parent, node.ParentFile, node.ParentLine = mod+".(*cowContext[...]).newNode", "btree.go", 649
	shape := document.Shape{Name: "cow-copy", File: "btree.go", Line: 242, Function: mod + ".(*node[...]).mutableFor",
		Related: []document.Location{{File: "btree.go", Line: 243, Note: "a slice of the copy"}, {File: "btree.go", Line: 648, Function: mod + ".(*cowContext[...]).newNode", Note: allocatingCallee}},
		Says:    "mutableFor copies n when it belongs to another copy-on-write owner (n.cow != cow)",
		Advice:  "copy-on-write's cost, what the clone defers to the writes after it"}
	fs, _ := Derive(specDoc([]any{bx(), gc(0.5), slices, node}), Options{})
	if len(fs) != 2 {
		t.Fatalf("without the shape: findings %v, want two", kinds(fs))
	}
	fs, _ = Derive(specDoc([]any{bx(), gc(0.5), slices, node, shape}), Options{})
	if len(fs) != 1 {
		t.Fatalf("findings %v, want one", kinds(fs))
	}
	if f := fs[0]; f.Shape != "cow-copy" || f.Line != 243 || !strings.Contains(f.Message, "the copied node, made in (*FreeList).newNode") {
		t.Errorf("finding %s:%d shape %q message %q; want mutableFor's, naming newNode's node", f.File, f.Line, f.Shape, f.Message)
	}
}

// TestChainWalkRanksAsFix: a function's own code is ranked below the
// fixes that name a change, but a shape that names a change of its
// complexity (a walk repeated per pair, chain-walk-per-pair) makes it a
// fix like the others, ranked by its cost.
func TestChainWalkRanksAsFix(t *testing.T) {
	walk := own("nodeContains", "u.go", 167, 0.8)
	sprintf := call("Label", "l.go", 9, "fmt.Sprintf", "fmt", 0.5)
	concat := document.Shape{Name: "sprintf-simple", File: "l.go", Line: 9, Function: mod + ".Label",
		Says: "fmt.Sprintf(\"item-%d\", i) formats only an integer", Advice: "concatenate: \"item-\" + strconv.Itoa(i)"}
	shape := document.Shape{Name: "chain-walk-per-pair", File: "u.go", Line: 167, Function: mod + ".nodeContains",
		Says: "nodeContains walks a chain of pointers (contained = contained.Parent) from its start on every call; HasNodes calls it in two nested loops (line 115)", Advice: "walk each chain once"}
	for _, tc := range []struct {
		name  string
		doc   []any
		first string
	}{
		{"own code: after the fix", []any{bx(), walk, sprintf, concat}, "l.go"},
		{"a walk per pair: by its cost", []any{bx(), walk, sprintf, concat, shape}, "u.go"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(tc.doc), Options{})
			if len(fs) < 2 || fs[0].File != tc.first {
				t.Errorf("findings %v, want %s first", kinds(fs), tc.first)
			}
		})
	}
}

// TestCallsFirst: a line that returns a call's result names the call,
// for a function, a pointer receiver's method and a value receiver's.
func TestCallsFirst(t *testing.T) {
	for _, tc := range []struct {
		expr, callee string
		want         bool
	}{
		{"strings.Index(s, m.lit)", "strings.Index", true},
		{"re.MatchString(s)", "regexp.(*Regexp).MatchString", true},
		{"m.MatchAll(n)", "github.com/andybalholm/cascadia.Selector.MatchAll", true},
		{"len(m.MatchAll(n))", "github.com/andybalholm/cascadia.Selector.MatchAll", false},
		{"a + strings.Index(s, t)", "strings.Index", false},
	} {
		if got := callsFirst(tc.expr, tc.callee); got != tc.want {
			t.Errorf("callsFirst(%q, %q) = %v, want %v", tc.expr, tc.callee, got, tc.want)
		}
	}
}

// TestDispatchAlternativesApart: two helpers that allocate under one line
// of one caller (an encoder calling encodeTag or encodeBigInt through a
// function value, one per kind of value) merge into one cause as steps
// of one path would, unless each names its own change at its line (a
// copy-override shape, a big-round-trip shape): then they are two causes.
// Helpers called at different lines of their caller stay one cause.
func TestDispatchAlternativesApart(t *testing.T) {
	tag := site("encodeTag", "encode.go", 2129, 0.3)
	tag.Escape = &document.Escape{Cause: "moved-to-heap", Name: "vem"}
	big := site("encodeBigInt", "encode.go", 1805, 0.4)
	big.Escape = &document.Escape{Cause: "callee", Name: "math/big.(*Int).SetBytes"}
	for _, a := range []*document.Allocation{&tag, &big} {
		a.Parent, a.ParentFile, a.ParentLine = mod+".getEncodeFunc.func1", "encode.go", 2398
	}
	copyShape := document.Shape{Name: "copy-override", File: "encode.go", Line: 2129, Function: mod + ".encodeTag",
		Says: "encodeTag copies *em into vem on every call so that branches can change a field", Advice: "copy it only in the branches that change a field"}
	bigShape := document.Shape{Name: "big-round-trip", File: "encode.go", Line: 1805, Function: mod + ".encodeBigInt",
		Says: "new(big.Int).SetBytes(vbi.Bytes()) turns vbi's magnitude into bytes and back", Advice: "new(big.Int).Abs(&vbi)"}
	fs, _ := Derive(specDoc([]any{bx(), gc(0.5), tag, big}), Options{})
	if len(fs) != 1 {
		t.Fatalf("without shapes: findings %v, want one", kinds(fs))
	}
	fs, _ = Derive(specDoc([]any{bx(), gc(0.5), tag, big, copyShape, bigShape}), Options{})
	if len(fs) != 2 || fs[0].Shape != "big-round-trip" || fs[1].Shape != "copy-override" {
		t.Fatalf("findings %v, want encodeBigInt's and encodeTag's, each with its shape", kinds(fs))
	}
	tag.ParentLine = 2390 // a step before the other on the caller's path
	fs, _ = Derive(specDoc([]any{bx(), gc(0.5), tag, big, copyShape, bigShape}), Options{})
	if len(fs) != 1 {
		t.Errorf("called at two lines of one caller: findings %v, want one", kinds(fs))
	}
}

// TestSameErrorOneChange: the same error text (one constant format) built
// on the error paths of two functions of a package is one change, an
// error type: one finding, led by the costlier, naming the other.
func TestSameErrorOneChange(t *testing.T) {
	signed := call("toNumberE", "number.go", 154, "fmt.Errorf", "strings", 0.2)
	unsigned := call("toUnsignedNumberE", "number.go", 298, "fmt.Errorf", "strings", 0.3)
	built := func(fn string, line int64, format string) document.Shape {
		return document.Shape{Name: "error-built", File: "number.go", Line: line, Function: mod + "." + fn,
			Says:   "fmt.Errorf(" + format + ", …) builds the error " + fn + " returns when err != nil: its error path, taken on every op where this line is hot",
			Advice: "an error type that keeps the cause and formats in its Error method"}
	}
	fs, _ := Derive(specDoc([]any{bx(), signed, unsigned, built("toNumberE", 154, "errorMsgWith"), built("toUnsignedNumberE", 298, "errorMsgWith")}), Options{})
	if len(fs) != 1 || fs[0].Line != 298 || !strings.Contains(fs[0].Message, "toNumberE builds the same error") {
		t.Fatalf("findings %v, want toUnsignedNumberE's, naming toNumberE's", kinds(fs))
	}
	fs, _ = Derive(specDoc([]any{bx(), signed, unsigned, built("toNumberE", 154, "errorMsgWith"), built("toUnsignedNumberE", 298, "errorMsgOther")}), Options{})
	if len(fs) != 2 {
		t.Errorf("two error texts: findings %v, want two", kinds(fs))
	}
}

// TestDirReadIsWalksJob: a walk's directory listing (fs.ReadDir, 80% of
// its benchmark in system calls) names no change — bufio and batching do
// not apply — and the entries fs.ReadDir allocates for what it returns
// are not a cause of their own.
func TestDirReadIsWalksJob(t *testing.T) {
	read := call("(*glob).globDir", "glob.go", 215, "io/fs.ReadDir", "syscall", 0.8)
	entries := site("(*glob).globDir", "glob.go", 215, 0.6)
	entries.Escape = &document.Escape{Cause: "callee", Name: "io/fs.ReadDir"}
	fs, _ := Derive(specDoc([]any{bx(), gc(0.2), read, entries}), Options{})
	if len(fs) != 1 {
		t.Fatalf("findings %v, want the listing's alone", kinds(fs))
	}
	if f := fs[0]; !f.NoChange || strings.Contains(f.Suggestion, "bufio") || !strings.Contains(f.Suggestion, "read each directory once") {
		t.Errorf("finding no_change=%v %q; want no change named, in a walk's words", f.NoChange, f.Suggestion)
	}
}

// TestFailingBenchmarks: benchmarks that fail are a finding at the top of
// the broken ones — one per command they run (exec-per-op) or per
// message up to its numbers — not only a row of the appendix; one that
// lint names is lint's finding.
func TestFailingBenchmarks(t *testing.T) {
	failed := func(name, err string) document.Benchmark {
		b := benchmark(name, 0, 0, 0)
		b.Status, b.Error, b.Metrics = "failed", err, nil
		return b
	}
	execShape := func(bench string) document.Shape {
		return document.Shape{Name: "exec-per-op", File: "builtins_benchmark_test.go", Line: 32, Function: mod + "." + bench,
			Says:    bench + " runs a command per op (exec.Command(*jsonnetPath, …) at line 18, through RunBenchmark)",
			Advice:  "profile the program itself",
			Related: []document.Location{{File: "builtins_benchmark_test.go", Line: 18, Note: "the command started per op"}}}
	}
	fs, _ := Derive(specDoc([]any{bx(),
		failed("BenchmarkSubstr", "--- FAIL: BenchmarkSubstr"), execShape("BenchmarkSubstr"),
		failed("BenchmarkReverse", "--- FAIL: BenchmarkReverse"), execShape("BenchmarkReverse"),
		failed("BenchmarkWidthAll", "--- FAIL: BenchmarkWidthAll\nbenchmark_test.go:35: got 1292721, want 1292760"),
		failed("BenchmarkWidthAllEastAsian", "--- FAIL: BenchmarkWidthAllEastAsian\nbenchmark_test.go:35: got 1431042, want 1431081"),
		failed("BenchmarkLinted", "--- FAIL: BenchmarkLinted\npanic: index out of range"),
		failed("BenchmarkScan", "--- FAIL: BenchmarkScan\nscan_test.go:297: open /go/src/m/testdata/scan.star: no such file or directory"),
		failed("BenchmarkParse", "--- FAIL: BenchmarkParse\nparse_test.go:504: open /go/src/m/testdata/scan.star: no such file or directory"),
		document.LintFinding{Analyzer: "makezero", File: "x_test.go", Line: 9, Message: "append to a slice made with a length", Benchmarks: []string{"BenchmarkLinted"}},
	}), Options{})
	var got []string
	for _, f := range fs {
		if f.Rule == document.RuleBrokenFails {
			got = append(got, fmt.Sprintf("%s:%d %s", f.File, f.Line, f.Message))
		}
	}
	if len(got) != 3 {
		t.Fatalf("failure findings %q, want one for the command, one for the message and one for the missing file", got)
	}
	all := strings.Join(got, " | ")
	if !strings.Contains(all, "2 of 8 benchmarks fail (BenchmarkReverse, …): each runs a command per op") {
		t.Errorf("no finding names the command the failing benchmarks run: %q", got)
	}
	if !strings.Contains(all, "scan_test.go:297 2 of 8 benchmarks fail (BenchmarkParse, …): scan_test.go:297: open") {
		t.Errorf("the two benchmarks that open one missing file at different lines are not one finding: %q", got)
	}
	if !strings.Contains(all, "benchmark_test.go:35 2 of 8 benchmarks fail (BenchmarkWidthAll, …): benchmark_test.go:35: got 1292721, want 1292760") {
		t.Errorf("the two failures of one message are not one finding at the line that reported them: %q", got)
	}
}

// TestComparedTextIsTheCallsCost: a comparison of two values' texts
// (string-compared) is the cause of what formatting them costs under it —
// go-version's Compare over String over bytes — and the formatter is a
// cause only where it is called otherwise.
func TestComparedTextIsTheCallsCost(t *testing.T) {
	b := bx()
	b.CallPath = &document.CallPath{Functions: []string{mod + ".BenchmarkX", mod + ".(*Version).Compare", mod + ".(*Version).String", mod + ".(*Version).bytes", "strconv.AppendInt"}}
	compare := document.Hotspot{Benchmark: "BenchmarkX", Package: mod, Function: mod + ".(*Version).Compare", File: "version.go", Line: 171, Flat: 0.02, Cum: 0.95}
	shape := document.Shape{Name: "string-compared", File: "version.go", Line: 171, Function: mod + ".(*Version).Compare",
		Says: "Compare compares v.String() with other.String(): String builds each text anew (string(v.bytes())) on every call", Advice: "compare the fields String is built from, directly"}
	conv := call("(*Version).bytes", "version.go", 446, "strconv.AppendInt", "strconv", 0.79)
	fs, _ := Derive(specDoc([]any{b, compare, shape, conv}), Options{})
	if len(fs) != 1 || fs[0].Line != 171 || !strings.Contains(fs[0].Suggestion, "compare the fields") {
		for _, f := range fs {
			t.Logf("%s:%d %s", f.File, f.Line, f.Message)
		}
		t.Fatalf("got %d findings; want Compare's alone, at line 171, naming the comparison", len(fs))
	}
}

// TestTieOrderedBySpread: two causes tied on their costliest share come
// in the order of what the module's benchmarks pay in all, when that
// differs by half a benchmark or more: the one three benchmarks pay for
// first, whatever the file or line say; with two, still a tie.
func TestTieOrderedBySpread(t *testing.T) {
	for _, tc := range []struct {
		benches []string
		first   string
	}{
		{[]string{"BenchmarkX", "BenchmarkY", "BenchmarkZ"}, "b.go"},
		{[]string{"BenchmarkX", "BenchmarkY"}, "a.go"},
	} {
		parts := []any{callIn("BenchmarkX", "alpha", "a.go", 10, "strings.Index", "strings", 0.45)}
		for _, b := range tc.benches {
			parts = append(parts, benchmark(b, 1e-6, 0, 0), callIn(b, "beta", "b.go", 10, "sort.Sort", "sort", 0.44))
		}
		fs, _ := Derive(specDoc(parts), Options{})
		var order []string
		for _, f := range fs {
			if f.Section == document.SectionFix {
				order = append(order, f.File)
			}
		}
		if len(order) < 2 || order[0] != tc.first {
			t.Errorf("beta in %d benchmarks: fix findings in the order %v; want %s first", len(tc.benches), order, tc.first)
		}
	}
}

// TestDiscardedLibraryCallIsMeasured: a benchmark line that calls another
// package and drops the result (_ = id.String(), or the call as a
// statement, regexp.MustCompile(expr): a baseline beside the module's)
// allocates what the loop measures, not a fixture; a line that builds an
// input per op, or passes the call's result to a helper of its own, is
// one.
func TestDiscardedLibraryCallIsMeasured(t *testing.T) {
	for _, tc := range []struct {
		source  string
		fixture bool
	}{
		{"_ = id.String()", false},
		{"id.String()", false},
		{"in := bytes.Repeat(chunk, 64)", true},
		{"use(id.String())", true},
	} {
		a := site("BenchmarkX.func1", "x_test.go", 95, 0.33)
		a.InTest, a.Via = true, "github.com/other/uuid.UUID.String"
		a.Escape = &document.Escape{Cause: "callee", Name: a.Via}
		l := call("BenchmarkX.func1", "x_test.go", 95, a.Via, "other", 0.2)
		l.InTest, l.Source = true, tc.source
		fs, _ := Derive(specDoc([]any{bx(), a, l}), Options{})
		got := false
		for _, f := range fs {
			got = got || f.Rule == document.RuleFixtureAlloc
		}
		if got != tc.fixture {
			t.Errorf("%q: fixture finding %v, want %v", tc.source, got, tc.fixture)
		}
	}
}

// TestExecBenchmarksOneFinding: benchmarks that run one command per op,
// built and measured, are one leave-alone finding that names the child
// process, whatever their samples show of the parent's wait.
func TestExecBenchmarksOneFinding(t *testing.T) {
	var parts []any
	for i, name := range []string{"BenchmarkSubstr", "BenchmarkReverse", "BenchmarkFoldl"} {
		b := busy(shares(benchmark(name, 3e-3, 0, 0), 0, 0.1), 0.01+0.03*float64(i))
		parts = append(parts, b, document.Shape{Name: "exec-per-op", File: "builtins_benchmark_test.go", Line: int64(32 + 4*i), Function: mod + "." + name,
			Says:    name + " runs a command per op (exec.Command(*jsonnetPath, …) at line 18, through RunBenchmark): each op starts a child process",
			Advice:  "profile the program itself",
			Related: []document.Location{{File: "builtins_benchmark_test.go", Line: 18, Note: "the command started per op"}}})
	}
	fs, _ := Derive(specDoc(parts), Options{})
	var got []string
	for _, f := range fs {
		got = append(got, f.Message)
	}
	if len(fs) != 1 || !strings.HasPrefix(fs[0].Message, "3 benchmarks (BenchmarkFoldl, …) each runs a command per op") {
		t.Errorf("findings %q; want one that names the command the three run", got)
	}
}

// TestTestSupportLeftAlone: a cost in a package only the module's tests
// and main programs import is the benchmarks' own code: a leave-alone
// finding naming the package, never what to do first.
func TestTestSupportLeftAlone(t *testing.T) {
	a := site("Decode", "internal/gpx/gpx.go", 14, 0.6)
	a.Function = mod + "/internal/gpx.(*Segment).Decode"
	d := specDoc([]any{bx(), a})
	d.TestSupport = []string{mod + "/internal/gpx"}
	fs, _ := Derive(d, Options{})
	for _, f := range fs {
		if f.Section == document.SectionFix {
			t.Errorf("fix finding %s:%d %q in a test-support package", f.File, f.Line, f.Message)
		}
	}
	if len(fs) != 1 || fs[0].Section != document.SectionLeaveAlone || !strings.Contains(fs[0].Message, "is in internal/gpx, a package of the module that only its tests and main programs import") {
		t.Errorf("findings %v; want one leave-alone naming internal/gpx", kinds(fs))
	}
}

// TestBaselineHelperLeftAlone: what another library allocates under a
// test helper that runs it and nothing of the module (a comparison
// sub-benchmark's code) is a leave-alone finding naming the library, not
// a fixture to hoist; the same allocation under a helper without that
// shape stays a fixture.
func TestBaselineHelperLeftAlone(t *testing.T) {
	for _, shaped := range []bool{true, false} {
		a := site("unmarshalWithStdlibXML", "benchmark_test.go", 69, 0.99)
		a.InTest, a.Via = true, "encoding/xml.(*Decoder).Token"
		parts := []any{bx(), a}
		if shaped {
			parts = append(parts, document.Shape{Name: "baseline-call", File: "benchmark_test.go", Line: 66, Function: a.Function,
				Says:   "unmarshalWithStdlibXML calls nothing of the module: it runs encoding/xml (xml.NewDecoder, Decoder.Token), so what its benchmarks measure is encoding/xml's cost, a comparison beside the module's",
				Advice: "leave it as it is"})
		}
		fs, _ := Derive(specDoc(parts), Options{})
		var got []string
		fixture, left := false, false
		for _, f := range fs {
			got = append(got, string(f.Rule)+": "+f.Message)
			fixture = fixture || f.Rule == document.RuleFixtureAlloc
			left = left || f.Section == document.SectionLeaveAlone && strings.Contains(f.Message, "xml.(*Decoder).Token allocates 99% of BenchmarkX's bytes under benchmark_test.go:69")
		}
		if fixture == shaped || left != shaped {
			t.Errorf("shaped %v: findings %q; want a fixture finding only without the shape, a leave-alone naming the library only with it", shaped, got)
		}
	}
}

// TestOnePartsCause: the slices one struct's value holds, made at several
// places (a Match's group slice in addMatch, its Captures in tidy), each
// told the stored value "outlives the call by design", are one cause with
// the parts' advice: allocate them with the value; another type's parts
// are their own.
func TestOnePartsCause(t *testing.T) {
	part := func(fn, file string, line int64, typ string) (document.Allocation, document.Shape) {
		a := site(fn, file, line, 0.3)
		a.Escape = &document.Escape{Cause: "escapes", Name: "make([]int, 2)", Sink: "heap", Into: "m.matches[c]"}
		return a, document.Shape{Name: "parts-apart", File: file, Line: line, Function: mod + "." + fn,
			Says:   typ + "'s parts are allocated one by one: matches[c] (addMatch, line 342), Captures (tidy, line 260) — slices that live and die with the " + typ + ", an allocation each",
			Advice: "allocate them with the " + typ + ": carve matches[c] out of one []int made with it"}
	}
	a1, s1 := part("(*Match).addMatch", "match.go", 342, "Match")
	a2, s2 := part("(*Match).tidy", "match.go", 260, "Match")
	a3, s3 := part("(*runner).init", "runner.go", 2347, "runner")
	fs, _ := Derive(specDoc([]any{bx(), a1, s1, a2, s2, a3, s3}), Options{})
	var got []string
	for _, f := range fs {
		if f.Section == document.SectionFix {
			got = append(got, fmt.Sprintf("%s:%d %s %q", f.File, f.Line, f.Shape, f.Suggestion))
		}
	}
	if len(got) != 2 || !slices.ContainsFunc(fs, func(f document.Finding) bool {
		return strings.Contains(f.Message, "makes another of its parts") && strings.Contains(f.Suggestion, "allocate them with the Match")
	}) {
		t.Errorf("fix findings %v; want one parts-apart cause per type, two in all, Match's naming tidy's part", got)
	}
}

// TestConversionForAPI: bytes converted to a string to call another
// package's API that takes one (zapio's w.Log.Check(w.Level, string(b)))
// are that API's cost, in the shape's words: never "keep one
// representation" among the fixes.
func TestConversionForAPI(t *testing.T) {
	a := converts(site("(*Writer).log", "zapio/writer.go", 146, 0.5))
	s := document.Shape{Name: "conversion-for-api", File: "zapio/writer.go", Line: 146, Function: mod + ".(*Writer).log",
		Says:   "string(b) copies the bytes to call zap.Logger.Check, which takes a string (its parameter msg)",
		Advice: "the copy is the input Logger.Check asks for, an API of another package: inherent to calling it with bytes"}
	fs, _ := Derive(specDoc([]any{bx(), a, s}), Options{})
	f := find(fs, document.KindAlloc)
	if f == nil || f.Section != document.SectionAPI || !strings.Contains(f.Suggestion, "Logger.Check asks for") || strings.Contains(f.Suggestion, "keep one representation") {
		t.Errorf("finding %+v; want the API's cost in the shape's words", f)
	}
}

// TestArgsFormattedIsTheAPIs: a helper formatting its caller's ...any
// values (zap's getMessageln: fmt.Sprintln(fmtArgs...)) is what a
// Sprint-style API promises: "Costs of the API", never "the fix is at
// its caller".
func TestArgsFormattedIsTheAPIs(t *testing.T) {
	a := site("getMessageln", "sugar.go", 391, 0.5)
	a.Escape, a.Via = nil, "fmt.Sprintln"
	a.Parent, a.ParentFile, a.ParentLine = mod+".(*SugaredLogger).logln", "sugar.go", 365
	s := document.Shape{Name: "args-formatted", File: "sugar.go", Line: 391, Function: mod + ".getMessageln",
		Says:   "getMessageln formats getMessageln's own arguments (fmtArgs..., its ...any parameter) with fmt.Sprintln",
		Advice: "inherent to an API that takes ...any to format"}
	fs, _ := Derive(specDoc([]any{bx(), a, s}), Options{})
	f := find(fs, document.KindAlloc)
	if f == nil || f.Section != document.SectionAPI || !strings.Contains(f.Suggestion, "inherent to an API that takes ...any") {
		t.Errorf("finding %+v; want the API's cost in the shape's words", f)
	}
}

// TestScratchPerCall: a large value an unexported constructor returns
// for a caller that only calls its methods (goyacc's yyNewParser, whose
// result the compiler sees escape as a call parameter) is no result its
// callers keep: the advice is the pool the scratch-per-call shape names.
func TestScratchPerCall(t *testing.T) {
	a := site("yyNewParser", "yaccpar", 30, 0.5)
	a.Escape = &document.Escape{Cause: "escapes", Name: "&yyParserImpl{}", Sink: "return",
		Fix: "the value is yyNewParser's result, kept by its callers"}
	shape := document.Shape{Name: "scratch-per-call", File: "yaccpar", Line: 30, Function: mod + ".yyNewParser",
		Says: "yyNewParser makes a yyParserImpl (18.2 KiB) for each call of yyParse, which calls its methods and drops it", Advice: "keep the yyParserImpls in a sync.Pool"}
	for _, tc := range []struct {
		name  string
		parts []any
		pool  bool
	}{
		{"no shape", []any{bx(), gc(0.5), a}, false},
		{"scratch per call", []any{bx(), gc(0.5), a, shape}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(tc.parts), Options{})
			if len(fs) == 0 {
				t.Fatal("no finding")
			}
			f := fs[0]
			if strings.Contains(f.Suggestion, "sync.Pool") != tc.pool || tc.pool && (f.Generic || f.Section != document.SectionFix) {
				t.Errorf("%s, generic %v, %q; want the pool %v", f.Section, f.Generic, f.Suggestion, tc.pool)
			}
		})
	}
}

// TestBufferEmptyOneCause: a buffer a function declares empty and fills
// in a loop (a buffer-empty shape at scanString's declaration, naming the
// buffer's Write and WriteByte as the callees that allocate) is one cause
// whatever number of its write methods the heap profile puts the growth
// in, with the shape's advice, pointing at the declaration.
func TestBufferEmptyOneCause(t *testing.T) {
	grow := func(fn string, line int64, share float64) document.Allocation {
		a := site("bytes2.(*Buffer)."+fn, "bytes2/buffer.go", line, share)
		a.Function = mod + "/bytes2.(*Buffer)." + fn
		a.Escape = &document.Escape{Cause: "append", Sink: "heap", Name: "buf.bytes",
			Reason: "append to buf.bytes grows it: when its capacity runs out, runtime.growslice allocates a larger backing array and copies"}
		a.Parent, a.ParentFile, a.ParentLine = mod+".(*Tokenizer).scanString", "token.go", 793
		return a
	}
	shape := document.Shape{Name: "buffer-empty", File: "token.go", Line: 772, Function: mod + ".(*Tokenizer).scanString",
		Related: []document.Location{
			{File: "bytes2/buffer.go", Line: 35, Function: mod + "/bytes2.(*Buffer).Write", Note: allocatingCallee},
			{File: "bytes2/buffer.go", Line: 47, Function: mod + "/bytes2.(*Buffer).WriteByte", Note: allocatingCallee}},
		Says:   "scanString declares buffer, a bytes2.Buffer, empty and writes into it in a loop (lines 782 and 793)",
		Advice: "give buffer room where scanString declares it"}
	for _, tc := range []struct {
		name  string
		parts []any
		shape bool
	}{
		{"no shape", []any{bx(), gc(0.5), grow("Write", 36, 0.6), grow("WriteByte", 48, 0.3)}, false},
		{"the buffer declared empty", []any{bx(), gc(0.5), grow("Write", 36, 0.6), grow("WriteByte", 48, 0.3), shape}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(tc.parts), Options{})
			var fix []document.Finding
			for _, f := range fs {
				if f.Section == document.SectionFix {
					fix = append(fix, f)
				}
			}
			if len(fix) != 1 {
				t.Fatalf("%d fix findings, want 1: %v", len(fix), fix)
			}
			if got := strings.Contains(fix[0].Suggestion, "give buffer room") && slices.Contains(lines(&fix[0]), 772); got != tc.shape {
				t.Errorf("%q, related lines %v; want the shape's advice and its line 772: %v", fix[0].Suggestion, lines(&fix[0]), tc.shape)
			}
		})
	}
}

// TestGeneratedParserShapes: a goyacc parser's own code at a line where
// it copies its large symbol type (copied-large) takes that advice, not
// "the algorithm itself"; the values boxed into one formatter of the
// package at three call sites (format-boxed) are one cause.
func TestGeneratedParserShapes(t *testing.T) {
	copied := document.Shape{Name: "copied-large", File: "yaccpar", Line: 195, Function: mod + ".(*yyParserImpl).Parse",
		Says: "Parse copies a yySymType (1096 bytes) in its loop at lines 195, 214 and 313: yyS[yyp] = yyVAL", Advice: "shrink the type"}
	boxed := func(fn string, line int64, share float64) []any {
		a := site(fn, "ast.go", line, share)
		a.Escape = &document.Escape{Cause: "escapes", Sink: "interface", Name: "original", Reason: "converted to an interface that escapes"}
		return []any{a, document.Shape{Name: "format-boxed", File: "ast.go", Line: line, Function: mod + "." + fn,
			Says: fn + " calls Myprintf, the package's own formatter, with the format \"%s\" and original", Advice: "write it directly"}}
	}
	parts := []any{bx(), gc(0.3), copied, own("(*yyParserImpl).Parse", "yaccpar", 195, 0.3)}
	parts = append(parts, boxed("formatID", 3424, 0.3)...)
	parts = append(parts, boxed("(*ColName).Format", 2400, 0.2)...)
	parts = append(parts, boxed("SelectExprs.Format", 1455, 0.1)...)
	fs, _ := Derive(specDoc(parts), Options{})
	n := 0
	for _, f := range fs {
		switch {
		case f.File == "yaccpar" && (f.Shape != "copied-large" || f.Generic || f.Severity == document.SeverityLow):
			t.Errorf("the parser's own code: %s, generic %v, %s; want the copied-large advice ranked as a fix", f.Shape, f.Generic, f.Severity)
		case f.File == "ast.go":
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d findings at the formatter's call sites, want one", n)
	}
}

// TestInputCopiedAdvice: the conversion a constructor copies its string
// input with, into a field the package only reads (an input-copied
// shape), takes that advice, not "reuse buffers".
func TestInputCopiedAdvice(t *testing.T) {
	line := document.LineCost{Benchmark: "BenchmarkX", Package: mod, Function: mod + ".NewStringTokenizer", File: "token.go", Line: 59,
		Callee: "runtime.stringtoslicebyte", Category: "strings", Self: 0.2, Cum: 0.2}
	shape := document.Shape{Name: "input-copied", File: "token.go", Line: 59, Function: mod + ".NewStringTokenizer",
		Says: "NewStringTokenizer copies its string sql into buf ([]byte(sql)), which the package only reads", Advice: "read sql itself"}
	for _, tc := range []struct {
		name  string
		parts []any
		want  bool
	}{
		{"no shape", []any{bx(), line}, false},
		{"input copied", []any{bx(), line, shape}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(tc.parts), Options{})
			if len(fs) == 0 {
				t.Fatal("no finding")
			}
			if got := strings.Contains(fs[0].Suggestion, "read sql itself"); got != tc.want {
				t.Errorf("%q: the shape's advice %v, want %v", fs[0].Suggestion, got, tc.want)
			}
		})
	}
}

// TestSelectSpinAdvice: the select of a loop that spins once a channel
// it only closes is closed (a select-spin shape at the line) takes that
// advice, not "a channel that only counts is an atomic counter's work".
func TestSelectSpinAdvice(t *testing.T) {
	line := document.LineCost{Benchmark: "BenchmarkX", Package: mod, Function: mod + ".(*poolCommon).ReleaseContext", File: "ants.go", Line: 451,
		Callee: "runtime.selectgo", Category: "scheduler", Self: 0.7, Cum: 0.7}
	shape := document.Shape{Name: "select-spin", File: "ants.go", Line: 451, Function: mod + ".(*poolCommon).ReleaseContext",
		Says: "ReleaseContext's endless loop (line 450) selects on p.allDone, a channel the package only closes", Advice: "block on what the case waits for"}
	for _, tc := range []struct {
		name  string
		parts []any
		want  bool
	}{
		{"no shape", []any{bx(), line}, false},
		{"a spinning select", []any{bx(), line, shape}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(tc.parts), Options{})
			if len(fs) == 0 {
				t.Fatal("no finding")
			}
			if got := strings.Contains(fs[0].Suggestion, "block on what the case waits for"); got != tc.want {
				t.Errorf("%q: the shape's advice %v, want %v", fs[0].Suggestion, got, tc.want)
			}
		})
	}
}

// TestPoolShapes: a worker pool's hand-off (worker-idle at the channel
// its worker ranges over), its sync.Pool's New (pool-new) and its idle
// stack growing to its peak (grown-to-peak) take their shapes' words:
// the hand-off and the stack's growth name no change, the pool's New
// asks who keeps its values.
func TestPoolShapes(t *testing.T) {
	recv := document.LineCost{Benchmark: "BenchmarkX", Package: mod, Function: mod + ".(*goWorker).run.func1", File: "worker.go", Line: 68,
		Callee: "runtime.chanrecv2", Category: "scheduler", Self: 0.3, Cum: 0.3}
	idle := document.Shape{Name: "worker-idle", File: "worker.go", Line: 68, Function: mod + ".(*goWorker).run", OwnWork: true,
		Says: "the goroutine waits here for its next piece of work from w.task", Advice: "handing each task over a channel to a parked goroutine is what a worker pool does"}
	made := site("NewPool.func1", "pool.go", 58, 0.4)
	made.Escape = &document.Escape{Cause: "unknown", Reason: "no compiler diagnostic on this line explains the allocation"}
	poolNew := document.Shape{Name: "pool-new", File: "pool.go", Line: 58, Function: mod + ".NewPool",
		Says: "NewPool's pool makes a goWorker here only when it has none to give", Advice: "find who keeps the values taken from the pool"}
	grow := site("(*workerStack).insert", "worker_stack.go", 47, 0.3)
	grow.Escape = &document.Escape{Cause: "append", Sink: "heap", Name: "ws.items", Reason: "append to ws.items grows it"}
	peak := document.Shape{Name: "grown-to-peak", File: "worker_stack.go", Line: 47, Function: mod + ".(*workerStack).insert", OwnWork: true,
		Says: "insert appends to ws.items, which the package only reslices to shrink", Advice: "its growth is paid once per value as it fills"}
	ticker := site("(*poolCommon).purgeStaleWorkers", "ants.go", 252, 0.2)
	ticker.Via = "time.NewTicker"
	ticker.Escape = &document.Escape{Cause: "callee", Reason: "allocates inside time.NewTicker"}
	setup := document.Shape{Name: "goroutine-setup", File: "ants.go", Line: 252, Function: mod + ".(*poolCommon).purgeStaleWorkers", OwnWork: true,
		Says: "purgeStaleWorkers runs as a goroutine the package starts (line 325), and this line runs once per start", Advice: "what it makes here is made once per goroutine started"}
	fs, _ := Derive(specDoc([]any{bx(), gc(0.4), recv, idle, made, poolNew, grow, peak, ticker, setup}), Options{})
	want := map[string]string{"worker.go": "what a worker pool does", "pool.go": "who keeps the values", "worker_stack.go": "paid once per value", "ants.go": "once per goroutine started"}
	for _, f := range fs {
		if w, ok := want[f.File]; ok {
			if !strings.Contains(f.Suggestion, w) || f.Generic {
				t.Errorf("%s:%d: %q, generic %v; want %q", f.File, f.Line, f.Suggestion, f.Generic, w)
			}
			delete(want, f.File)
		}
	}
	if len(want) > 0 {
		t.Errorf("no finding at %v", want)
	}
}

// TestPartsOfAnotherType: a constructor's allocations join the caller
// that makes most of its values, but not when they are the parts of
// another type's value (regexp2's newMatch under initMatch, whose own
// parts are the Runner's): the Match's parts are one change with the
// Match's other parts, the Runner's another, each finding with its own
// lines.
func TestPartsOfAnotherType(t *testing.T) {
	runner := site("(*Runner).initMatch", "runner.go", 2347, 0.2)
	match := site("newMatch", "match.go", 217, 0.4)
	match.Parent, match.ParentFile, match.ParentLine = mod+".(*Runner).initMatch", "runner.go", 2314
	added := site("(*Match).addMatch", "match.go", 335, 0.3)
	runnerParts := document.Shape{Name: "parts-apart", File: "runner.go", Line: 2347, Function: mod + ".(*Runner).initMatch",
		Says: "Runner's parts are allocated one by one: runtrack and runstack (initMatch, line 2347)", Advice: "allocate them with the Runner"}
	matchParts := document.Shape{Name: "parts-apart", File: "match.go", Line: 217, Function: mod + ".newMatch",
		Says: "Match's parts are allocated one by one: matches (newMatch, line 217), matches[c] (addMatch, line 335)", Advice: "allocate them with the Match"}
	addedParts := matchParts
	addedParts.Line, addedParts.Function = 335, mod+".(*Match).addMatch"
	fs, _ := Derive(specDoc([]any{bx(), runner, match, added, runnerParts, matchParts, addedParts}), Options{})
	var runnerAt, matchAt *document.Finding
	for i := range fs {
		switch {
		case strings.HasPrefix(fs[i].Suggestion, "Runner's parts"):
			runnerAt = &fs[i]
		case strings.HasPrefix(fs[i].Suggestion, "Match's parts"):
			matchAt = &fs[i]
		}
	}
	if runnerAt == nil || matchAt == nil {
		t.Fatalf("want a Runner finding and a Match finding, got %v", fs)
	}
	for _, r := range runnerAt.Related {
		if r.File == "match.go" {
			t.Errorf("the Runner's finding holds the Match's line %s:%d", r.File, r.Line)
		}
	}
	lines := []int64{matchAt.Line}
	for _, r := range matchAt.Related {
		lines = append(lines, r.Line)
	}
	if !slices.Contains(lines, 217) || !slices.Contains(lines, 335) {
		t.Errorf("the Match's finding has lines %v, want 217 and 335", lines)
	}
}

// TestStdHashIsTheHash: a hash table's maphash.String (26% of its
// benchmark, category crypto) is the hash itself: no change named, and
// no words of key sizes or security, which a signature's would need.
func TestStdHashIsTheHash(t *testing.T) {
	for _, tc := range []struct {
		callee string
		hash   bool
	}{
		{"hash/maphash.String", true},
		{"crypto/sha256.Sum256", false},
	} {
		t.Run(tc.callee, func(t *testing.T) {
			h := call("hashString", "hashtable.go", 437, tc.callee, "crypto", 0.26)
			fs, _ := Derive(specDoc([]any{bx(), h}), Options{})
			if len(fs) != 1 {
				t.Fatalf("findings %v, want the hash's alone", kinds(fs))
			}
			f := fs[0]
			if got := f.NoChange && !f.Generic && strings.Contains(f.Suggestion, "is the hash itself"); got != tc.hash {
				t.Errorf("%s: no_change=%v generic=%v %q; want the hash itself %v", tc.callee, f.NoChange, f.Generic, f.Suggestion, tc.hash)
			}
		})
	}
}

// TestGrownToPeakStaysApart: a queue's growth (grown-to-peak at its make)
// made under Push never joins Push's own cause, whose error it would take
// the words of: two findings, each in its shape's words.
func TestGrownToPeakStaysApart(t *testing.T) {
	errSite := site("(*BytesQueue).Push", "queue.go", 95, 0.3)
	errSite.Escape = &document.Escape{Cause: "return", Reason: "&queueError{...} escapes to the heap"}
	grow := site("(*BytesQueue).allocateAdditionalMemory", "queue.go", 119, 0.6)
	grow.Parent, grow.ParentFile, grow.ParentLine = mod+".(*BytesQueue).Push", "queue.go", 97
	peak := document.Shape{Name: "grown-to-peak", File: "queue.go", Line: 119, Function: mod + ".(*BytesQueue).allocateAdditionalMemory", OwnWork: true,
		Says: "allocateAdditionalMemory makes q.array anew, larger", Advice: "its growth is paid once per value as it fills"}
	errConst := document.Shape{Name: "error-constant", File: "queue.go", Line: 95, Function: mod + ".(*BytesQueue).Push",
		Says: "Push returns &queueError{…} on this path", Advice: "make it once, a package-level var"}
	fs, _ := Derive(specDoc([]any{bx(), gc(0.3), errSite, grow, peak, errConst}), Options{})
	var got []string
	for _, f := range fs {
		if f.Section == document.SectionFix {
			got = append(got, fmt.Sprintf("%s:%d %s", f.File, f.Line, f.Suggestion))
		}
	}
	if len(got) != 2 || !strings.Contains(strings.Join(got, " | "), "queue.go:119 allocateAdditionalMemory makes q.array anew") || !strings.Contains(strings.Join(got, " | "), "queue.go:95 Push returns") {
		t.Errorf("fix findings %q, want the growth and the error apart, each in its shape's words", got)
	}
}

// TestTransportTLS: the time under a TLS connection's Write is the
// transport's, said so with no change named, not "a cheaper algorithm
// or key size"; and a buffered read's system calls and the decryption
// under them are one finding, with the read's advice. An allocation at
// the line is no refill: the read's advice does not explain it.
func TestTransportTLS(t *testing.T) {
	read := document.Shape{Name: "read-buffered", File: "session.go", Line: 553, Function: mod + ".(*Session).recvLoop",
		Says: "io.ReadFull(s.bufRead, hdr) reads from s.bufRead, a *bufio.Reader", Advice: "the read itself is not the change"}
	readAlloc := site("(*Session).recvLoop", "session.go", 553, 0.3)
	readAlloc.Via, readAlloc.Escape = "io.ReadFull", &document.Escape{Cause: "callee", Name: "io.ReadFull"}
	fs, _ := Derive(specDoc([]any{bx(), gc(0.1),
		call("(*Session).sendLoop", "session.go", 488, "crypto/tls.(*Conn).Write", "crypto", 0.4),
		call("(*Session).recvLoop", "session.go", 553, "io.ReadAtLeast", "syscall", 0.2),
		call("(*Session).recvLoop", "session.go", 553, "crypto/tls.(*Conn).Read", "crypto", 0.15),
		readAlloc, read}), Options{})
	at := map[int64][]document.Finding{}
	for _, f := range fs {
		if f.Section == document.SectionFix {
			at[f.Line] = append(at[f.Line], f)
		}
	}
	if w := at[488]; len(w) != 1 || !strings.Contains(w[0].Message, "TLS record encryption") || w[0].Generic || !w[0].NoChange || strings.Contains(w[0].Suggestion, "key size") {
		t.Errorf("the TLS write: %+v; want one finding naming the transport, no change, not generic", w)
	}
	var buffered []string
	for _, f := range at[553] {
		if f.Shape == "read-buffered" {
			buffered = append(buffered, string(f.Rule)+": "+f.Message)
			if f.Kind == document.KindAlloc {
				t.Errorf("the allocation at the read's line told the read's advice: %s", f.Message)
			}
		}
	}
	if len(buffered) != 1 {
		t.Errorf("the buffered read's line: %q; want one finding with the read's shape", buffered)
	}
}

// TestLookupCostIsAFinding: a function whose whole job is a sync.Map
// lookup is no finding for that call — unless the lookup's own cost is
// avoidable: a registry only an exported configuring method fills
// (registry-unset), or a key hashed field by field (sync-map-wide-key),
// whose caches of one key type are one change.
func TestLookupCostIsAFinding(t *testing.T) {
	lookup := func(fn, file string, line int64, cum float64) document.LineCost {
		l := call(fn, file, line, "internal/sync.(*HashTrieMap[go.shape.interface {},go.shape.interface {}]).Load", "maps", cum)
		l.Source = "conv, ok := c.convs.Load(specificType{typ: typ, lt: lt})"
		return l
	}
	unset := document.Shape{Name: "registry-unset", File: "typeconverter.go", Line: 73, Function: mod + ".(*TypeConverters).getTypeConverter",
		Says: "getTypeConverter looks its input up in convs, a sync.Map, on every call, though only RegisterTypeConverters store into it", Advice: "keep a flag"}
	wide := func(fn string, line int64) document.Shape {
		return document.Shape{Name: "sync-map-wide-key", File: "config.go", Line: line, Function: mod + "." + fn,
			Says: fn + " looks c.cache up with key, a 40-byte cacheKey {fingerprint [32]byte; rtype uintptr}: hashed per call", Advice: "keep the last key and its value"}
	}
	for _, tc := range []struct {
		name  string
		parts []any
		want  []int64
	}{
		{"no shape: the lookup is the function's job", []any{bx(), lookup("(*TypeConverters).getTypeConverter", "typeconverter.go", 73, 0.15)}, nil},
		{"a registry nothing fills", []any{bx(), lookup("(*TypeConverters).getTypeConverter", "typeconverter.go", 73, 0.15), unset}, []int64{73}},
		{"two caches of one key type", []any{bx(), lookup("(*config).getDecoder", "config.go", 249, 0.19), lookup("(*config).getEncoder", "config.go", 269, 0.2),
			wide("(*config).getDecoder", 249), wide("(*config).getEncoder", 269)}, []int64{269}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(tc.parts), Options{})
			var got []int64
			for _, f := range fs {
				if f.Section == document.SectionFix {
					got = append(got, f.Line)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("fix findings at lines %v, want %v", got, tc.want)
			}
		})
	}
}

// TestStaticCallee: the compiler's name of a method it resolved is told
// from an interface method, a function or a func value, which its words
// do not tell apart.
func TestStaticCallee(t *testing.T) {
	for into, want := range map[string]bool{
		"(*redblacktree.Tree).Put": true,
		"(*Parser).AddBlock":       true,
		"CharSet.mapHashFill":      true,
		"e.MonotonicRead":          false,
		"json.Unmarshal":           false,
		"opt":                      false,
		".autotmp_21":              false,
		"(func(go.shape.*x.T, string))(&.dict[0])": false,
		"rule.Rule.Action.applyAction":             false,
	} {
		if got := staticCallee(into); got != want {
			t.Errorf("staticCallee(%q) = %v, want %v", into, got, want)
		}
	}
}

// TestSliceRemadeOverPartsApart: parts made anew at every call are kept,
// not carved out of one allocation: slice-remade speaks for the cause,
// whatever the parts weigh.
func TestSliceRemadeOverPartsApart(t *testing.T) {
	remade := document.Shape{Name: "slice-remade", File: "x.go", Line: 10, Function: mod + ".F",
		Says: "F makes s.a anew (make([]byte, n)) at every call", Advice: "keep the array"}
	got := specLines(specDoc([]any{bx(), gc(0.2), partsSite(100), partsApart("x.go", 10), remade}), nil)
	want := []string{"alloc-site fix low x.go:10 BenchmarkX 6.0% shape=slice-remade"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestLibraryAllocOnInputsNamesNoChange: an allocation inside another
// library's call that computes from what the function is given (apd's
// zi.Lsh(x, n) growing math/big's words) is the call's own work: a row
// that names no change. A call that writes into state the function is
// given (chi's r.SetPathValue, set again by every level) stays a fix.
func TestLibraryAllocOnInputsNamesNoChange(t *testing.T) {
	for _, tc := range []struct {
		says     string
		noChange bool
	}{
		{"zi.Lsh(x.inner(&tmp2), n) works on what Lsh is given (n, x)", true},
		{"r.SetPathValue(key, value) works on the state of r (SetPathValue has a pointer receiver), which routeHTTP is given", false},
	} {
		a := site("(*BigInt).Lsh", "bigint.go", 632, 0.6)
		a.Via = "math/big.(*Int).Lsh"
		a.Escape = &document.Escape{Cause: "callee", Name: a.Via}
		s := document.Shape{Name: "call-on-inputs", File: "bigint.go", Line: 632, Function: a.Function, OwnWork: true,
			Says: tc.says, Advice: "the call is Lsh's own work on its inputs, once per call: there is no result to cache, and fewer or cheaper calls is a change to the algorithm"}
		fs, _ := Derive(specDoc([]any{bx(), a, s}), Options{})
		var got *document.Finding
		for i := range fs {
			if fs[i].Section == document.SectionFix && fs[i].Line == 632 {
				got = &fs[i]
			}
		}
		if got == nil || got.NoChange != tc.noChange {
			t.Errorf("%q: finding %+v; want one with no_change %v", tc.says, got, tc.noChange)
		}
	}
}

// TestOneCausePerContext: the calls that pass one context type by value
// down a tree of interface methods (a Pattern's Match at its root, a
// sequence's Match at each child) are one finding with the shape's
// advice, the costlier leading and naming the other.
func TestOneCausePerContext(t *testing.T) {
	shape := func(fn string, line int64) document.Shape {
		return document.Shape{Name: "context-per-call", File: "match.go", Line: line, Function: mod + "." + fn,
			Says:   "m.Match(x, s) passes x, a matchContext of 8 words, by value to Match, an interface method 9 of whose 13 implementations ignore it",
			Advice: "call the implementations that ignore it without it, and shrink matchContext"}
	}
	root := own("(*Pattern).Match", "match.go", 27, 0.26)
	seq := own("multiMatcher.Match", "match.go", 389, 0.09)
	fs, _ := Derive(specDoc([]any{bx(), root, seq, shape("(*Pattern).Match", 27), shape("multiMatcher.Match", 389)}), Options{})
	var fixes []document.Finding
	for _, f := range fs {
		if f.Section == document.SectionFix {
			fixes = append(fixes, f)
		}
	}
	if len(fixes) != 1 || fixes[0].Line != 27 || fixes[0].Shape != "context-per-call" || !strings.Contains(fixes[0].Message, "multiMatcher.Match passes it down too: 9%") {
		t.Errorf("fix findings %+v; want one at match.go:27 with the shape's advice, naming multiMatcher.Match", fixes)
	}
}

// TestTableFallbackOneCause: a function that computes beyond its table
// (apd's tableExp10) and the caller it is inlined in (NumDigits, whose
// line the profile names) are one finding with the shape's advice, the
// costlier leading; without the shapes, neither call is a cause.
func TestTableFallbackOneCause(t *testing.T) {
	caller := document.Hotspot{Benchmark: "BenchmarkX", Package: mod, Function: mod + ".NumDigits", File: "table.go", Line: 94, Cum: 0.66}
	fn := document.Hotspot{Benchmark: "BenchmarkX", Package: mod, Function: mod + ".tableExp10", File: "table.go", Line: 136, Cum: 0.62}
	says := "returns pow10LookupTable[x] when x <= powerTenTableSize and computes the value again at every call beyond it (setBigWithPow(tmp, x) at line 136), from x alone"
	advice := "keep the values computed beyond the table"
	at := document.Shape{Name: "table-fallback", File: "table.go", Line: 136, Function: mod + ".tableExp10", Says: "tableExp10 " + says, Advice: advice}
	call := document.Shape{Name: "table-fallback", File: "table.go", Line: 94, Function: mod + ".NumDigits", Says: "NumDigits calls tableExp10(n, &tmp), which " + says, Advice: advice,
		Related: []document.Location{{File: "table.go", Line: 136, Note: "the value computed beyond the table"}}}
	fs, _ := Derive(specDoc([]any{bx(), caller, fn, at, call}), Options{})
	if len(fs) != 1 || fs[0].Line != 94 || fs[0].Shape != "table-fallback" || !strings.Contains(fs[0].Message, "tableExp10 computes it there: 62%") {
		t.Fatalf("findings %+v; want one at table.go:94 with the shape's advice, naming tableExp10", fs)
	}
	if fs, _ := Derive(specDoc([]any{bx(), caller, fn}), Options{}); len(fs) != 0 {
		t.Errorf("without the shapes: findings %+v, want none", fs)
	}
}

// TestInlineOverflowIsTheLayouts: the allocation of a receiver's field
// made only when its value outgrows an inline array field (apd's BigInt)
// is the layout's cost, never what to do first.
func TestInlineOverflowIsTheLayouts(t *testing.T) {
	a := site("(*BigInt).updateInner", "bigint.go", 187, 0.6)
	a.Escape = &document.Escape{Cause: "new", Verdict: "new(big.Int) escapes to heap"}
	s := document.Shape{Name: "inline-overflow", File: "bigint.go", Line: 187, Function: a.Function,
		Says:   "updateInner allocates z._inner (new(big.Int)) only when the value no longer fits in z._inline, its [2]big.Word",
		Advice: "leave it: the heap form of a large value is the inline layout's trade-off"}
	for _, tc := range []struct {
		parts   []any
		section document.Section
	}{
		{[]any{bx(), a}, document.SectionFix},
		{[]any{bx(), a, s}, document.SectionAPI},
	} {
		fs, _ := Derive(specDoc(tc.parts), Options{})
		if len(fs) != 1 || fs[0].Section != tc.section {
			t.Errorf("with %d parts: findings %+v; want one in section %s", len(tc.parts), fs, tc.section)
		}
	}
}

// TestTextCopiedExplainsGrowth: a buffer a lexer grows with the runes it
// reads, then converts to a string (a text-copied shape at the append),
// gets the shape's advice — a slice of the input — not "preallocate".
func TestTextCopiedExplainsGrowth(t *testing.T) {
	a := site("(*Lexer).fetchText", "lexer.go", 375, 0.4)
	a.Escape = &document.Escape{Cause: "append", Name: "data", Reason: "append to data grows it"}
	s := document.Shape{Name: "text-copied", File: "lexer.go", Line: 375, Function: a.Function,
		Says:   "fetchText copies what l.read() reads into data one element at a time (line 375) and converts the copy with string(data) (line 379)",
		Advice: "where the text has no escape (the common case), take it as a slice of the input"}
	fs, _ := Derive(specDoc([]any{bx(), a, s}), Options{})
	if len(fs) != 1 || fs[0].Shape != "text-copied" || fs[0].Generic || !strings.Contains(fs[0].Suggestion, "a slice of the input") {
		t.Errorf("findings %+v; want one with the text-copied advice", fs)
	}
}

// TestUpperLoweredAtTheLowering: the time of a strings.ToLower call in
// setString is explained by the caller that formats in upper case
// (the shape at SetFloat64's format, related to the ToLower line), with
// its advice, not "its own work on its input".
func TestUpperLoweredAtTheLowering(t *testing.T) {
	lower := call("(*Decimal).setString", "decimal.go", 111, "strings.ToLower", "strings", 0.25)
	onInputs := document.Shape{Name: "call-on-inputs", File: "decimal.go", Line: 111, Function: mod + ".(*Decimal).setString", OwnWork: true,
		Says: "strings.ToLower(s) works on what setString is given (s)", Advice: "the call is setString's own work on its inputs"}
	upper := document.Shape{Name: "upper-lowered", File: "decimal.go", Line: 251, Function: mod + ".(*Decimal).SetFloat64",
		Related: []document.Location{{File: "decimal.go", Line: 111, Note: "the text lowered"}},
		Says:    "SetFloat64 formats with 'E' (its letters in upper case) and passes the text to SetString, which lowers it with strings.ToLower(s) (line 111)",
		Advice:  "format with 'e'"}
	checkAdvice(t, []adviceCase{
		{"own work", []any{bx(), lower, onInputs}, "works on what setString is given"},
		{"formatted upper", []any{bx(), lower, onInputs, upper}, "format with 'e'"},
	})
}

// TestSetupOnlyNamesNoChange: an allocation in its category's words in
// a function only a constructor runs (glob's parser under MustCompile,
// whose Pattern the benchmarks match with) is a cost per value made: a
// row that names no change, in the shape's words.
func TestSetupOnlyNamesNoChange(t *testing.T) {
	a := site("Compiler.Compile", "parse.go", 126, 0.4)
	a.Escape = &document.Escape{Cause: "append", Name: "stack", Reason: "append to stack grows it"}
	s := document.Shape{Name: "setup-only", File: "parse.go", Line: 90, Function: a.Function,
		Says:   "Compile runs only under MustCompile, which makes the Pattern the benchmarks then use in their loops (Match at glob_test.go:913), and no method of Pattern calls it: it is paid once per Pattern made, not per use",
		Advice: "leave it unless callers make a Pattern per use"}
	for _, tc := range []struct {
		parts    []any
		noChange bool
	}{
		{[]any{bx(), a}, false},
		{[]any{bx(), a, s}, true},
	} {
		fs, _ := Derive(specDoc(tc.parts), Options{})
		if len(fs) != 1 || fs[0].NoChange != tc.noChange || tc.noChange && (fs[0].Generic || !strings.Contains(fs[0].Suggestion, "paid once per Pattern made")) {
			t.Errorf("with %d parts: findings %+v; want one with no_change %v", len(tc.parts), fs, tc.noChange)
		}
	}
}

// TestSetupOnlyNodes: the nodes of a tree built only under a constructor
// whose value the benchmarks use (a pattern's compiled matchers) are what
// compiling makes: no change named, never "allocate them in chunks";
// the same nodes of a parse the benchmarks time as their use get chunks.
func TestSetupOnlyNodes(t *testing.T) {
	setup := document.Shape{Name: "setup-only", File: "tree.go", Line: 130, Function: mod + ".newNode",
		Says:   "newNode runs only under Compile, which makes the Pattern the benchmarks then use in their loops (Match at x_test.go:20), and no method of Pattern calls it: it is paid once per Pattern made, not per use",
		Advice: "leave it unless callers make a Pattern per use"}
	for _, tc := range []struct {
		parts  []any
		chunks bool
	}{
		{[]any{bx(), gc(0.4), nodes(100), nodeChunks()}, true},
		{[]any{bx(), gc(0.4), nodes(100), nodeChunks(), setup}, false},
	} {
		fs, _ := Derive(specDoc(tc.parts), Options{})
		var fix *document.Finding
		for i := range fs {
			if fs[i].Section == document.SectionFix {
				fix = &fs[i]
			}
		}
		if fix == nil || strings.Contains(fix.Suggestion, "in chunks") != tc.chunks || fix.NoChange == tc.chunks {
			t.Errorf("with %d parts: fix %+v; want chunks advised %v", len(tc.parts), fix, tc.chunks)
		}
	}
}

// TestScratchShortAtTheCaller: an allocation inside strconv.AppendUint
// in the module's Append is explained by the caller that hands it a
// stack array too short for the text (a scratch-short shape naming
// Append as the callee that allocates): the caller's array is the change.
func TestScratchShortAtTheCaller(t *testing.T) {
	a := site("(*BigInt).Append", "bigint.go", 417, 0.2)
	a.Via = "strconv.AppendUint"
	a.Escape = &document.Escape{Cause: "callee", Name: a.Via}
	a.Parent, a.ParentFile, a.ParentLine = mod+".(*Decimal).Append", "format.go", 65
	s := document.Shape{Name: "scratch-short", File: "format.go", Line: 65, Function: mod + ".(*Decimal).Append",
		Related: []document.Location{{File: "bigint.go", Line: 406, Function: a.Function, Note: "the callee that allocates"}},
		Says:    "Append passes scratch[:0], a [16]byte, to d.Coeff.Append, which appends up to 21 bytes",
		Advice:  "make scratch a [21]byte, the longest text's length"}
	checkAdvice(t, []adviceCase{
		{"no shape", []any{bx(), a}, ""},
		{"the caller's array", []any{bx(), a, s}, "make scratch a [21]byte"},
	})
}

// TestOwnLoopTieNamesTheChange: a function's own time in two loops, the
// one whose shape names a change (a byte-at-a-time clear) tied with the
// other within the profile's sampling error, gives that change whichever
// of the two the profile put first; far behind, it does not lead.
func TestOwnLoopTieNamesTheChange(t *testing.T) {
	loop := func(line, end int64, advice string) document.Shape {
		return document.Shape{Name: "loop", File: "enc.s", Line: line, Function: mod + ".encodeBlock",
			Related: []document.Location{{File: "enc.s", Line: end}}, Says: fmt.Sprintf("the assembly loop at lines %d–%d", line, end), Advice: advice}
	}
	clear := loop(297, 301, "clear it with wider stores")
	inner := loop(339, 393, "")
	for _, tc := range []struct {
		inner, clear float64
		want         bool
	}{
		{0.15, 0.125, true},
		{0.55, 0.05, false},
	} {
		fs, _ := Derive(specDoc([]any{sampled(bx(), 40), clear, inner,
			own("encodeBlock", "enc.s", 350, tc.inner), own("encodeBlock", "enc.s", 299, tc.clear), flat("encodeBlock", tc.inner+tc.clear)}), Options{})
		var got *document.Finding
		for i := range fs {
			if fs[i].Section == document.SectionFix {
				got = &fs[i]
			}
		}
		if got == nil || strings.Contains(got.Suggestion, "clear it with wider stores") != tc.want {
			t.Errorf("loops at %.0f%% and %.0f%%: finding %+v; want the clear's change named %v", 100*tc.inner, 100*tc.clear, got, tc.want)
		}
	}
}

// TestMadeTogetherAtTheMake: a variable-length make (the compiler's
// reason for the allocation) with a made-together shape at its line, the
// second make of the pair related, takes the shape's advice, one
// allocation cut in two, over the category's "hoist the buffer into the
// enclosing struct".
func TestMadeTogetherAtTheMake(t *testing.T) {
	d := doc(benchmark("BenchmarkDiff", 2e-5, 86, 35000))
	d.Allocations = []document.Allocation{{Benchmark: "BenchmarkDiff", Package: mod, Function: mod + ".(*DMP).bisect", File: "diff.go", Line: 269,
		Alloc: "runtime.makeslice", BytesShare: 0.6, ObjectsShare: 0.5, AllocsPerOp: 43, BytesPerOp: 17000,
		Escape: &document.Escape{Cause: "variable-make", Name: "v1"}}}
	d.Shapes = []document.Shape{{Name: "made-together", File: "diff.go", Line: 269, Function: mod + ".(*DMP).bisect",
		Says:    "bisect makes v1 and v2, two []int of length n, one after the other at every call, and keeps neither past it",
		Advice:  "make them as one and cut it in two",
		Related: []document.Location{{File: "diff.go", Line: 270}}}}
	f := findingAt(t, d, "diff.go")
	if f.Shape != "made-together" || f.Generic || !strings.Contains(f.Suggestion, "make them as one") {
		t.Fatalf("diff.go:%d: shape %q, generic %v, suggestion %q; want the made-together advice", f.Line, f.Shape, f.Generic, f.Suggestion)
	}
}

// TestTypeComparedAtTheCase: runtime.ifaceeq at a switch's cases on a
// reflect.Type (the profile's "other" category), with a type-compared
// shape at the first case, takes the shape's advice (the kinds the cases
// can have) over "decide first by something cheap".
func TestTypeComparedAtTheCase(t *testing.T) {
	d := doc(benchmark("BenchmarkEncode", 2e-5, 0, 0))
	fn := mod + ".(*encoder).appendValue"
	d.Lines = []document.LineCost{
		{Benchmark: "BenchmarkEncode", Package: mod, Function: fn, File: "enc.go", Line: 20, Callee: "runtime.ifaceeq", Category: "other", Self: 0.05, Cum: 0.05},
		{Benchmark: "BenchmarkEncode", Package: mod, Function: fn, File: "enc.go", Line: 22, Callee: "runtime.ifaceeq", Category: "other", Self: 0.05, Cum: 0.05},
	}
	d.Shapes = []document.Shape{{Name: "type-compared", File: "enc.go", Line: 20, Function: fn,
		Says:    "appendValue compares t, a reflect.Type, with 4 of the package's types in turn",
		Advice:  "decide by the kind first, one load",
		Related: []document.Location{{File: "enc.go", Line: 22}}}}
	f := findingAt(t, d, "enc.go")
	if f.Shape != "type-compared" || f.Generic || !strings.Contains(f.Suggestion, "decide by the kind first") {
		t.Fatalf("enc.go:%d: shape %q, generic %v, suggestion %q; want the type-compared advice", f.Line, f.Shape, f.Generic, f.Suggestion)
	}
}

// TestBufferPerCallAtTheMake: a small buffer that escapes through the
// call it is handed to (the compiler's "call parameter") takes the
// buffer-per-call shape's advice, an array in the receiver, over "make
// the call concrete, or keep one value and reuse it".
func TestBufferPerCallAtTheMake(t *testing.T) {
	d := doc(benchmark("BenchmarkDecode", 2e-7, 1, 8))
	d.Allocations = []document.Allocation{{Benchmark: "BenchmarkDecode", Package: mod, Function: mod + ".(*Decoder).Decode", File: "wkb.go", Line: 247,
		Alloc: "runtime.makeslice", BytesShare: 0.5, ObjectsShare: 0.5, AllocsPerOp: 1, BytesPerOp: 8,
		Escape: &document.Escape{Cause: "escapes", Sink: "call", Into: "readByteOrderType", Name: "buf"}}}
	d.Shapes = []document.Shape{{Name: "buffer-per-call", File: "wkb.go", Line: 247, Function: mod + ".(*Decoder).Decode",
		Says:   "Decode makes buf, 8 bytes, at every call and hands it to readByteOrderType(d.r, buf)",
		Advice: "keep a [8]byte array in Decoder (a field, buf [8]byte) and hand the call d.buf[:]"}}
	f := findingAt(t, d, "wkb.go")
	if f.Shape != "buffer-per-call" || f.Generic || !strings.Contains(f.Suggestion, "keep a [8]byte array in Decoder") {
		t.Fatalf("wkb.go:%d: shape %q, generic %v, suggestion %q; want the buffer-per-call advice", f.Line, f.Shape, f.Generic, f.Suggestion)
	}
}

// TestNodeChunksSingleNodeParent: a node constructor's allocations made
// mostly where a function calls it once (a node-chunks shape's related
// call marked one node per call) are trees of one node: the shape's
// chunks are not its advice.
func TestNodeChunksSingleNodeParent(t *testing.T) {
	d := doc(benchmark("BenchmarkMarshal", 2e-5, 300, 20000))
	d.Categories = []document.CategoryShare{{Benchmark: "BenchmarkMarshal", Package: mod, Category: "gc", Share: 0.3}}
	d.Allocations = []document.Allocation{{Benchmark: "BenchmarkMarshal", Package: mod, Function: mod + ".NewGeometry", File: "geometry.go", Line: 24,
		Parent: mod + ".newDoc", ParentFile: "feature.go", ParentLine: 112,
		Alloc: "runtime.newobject", BytesShare: 0.3, ObjectsShare: 0.3, AllocsPerOp: 300, BytesPerOp: 16800,
		Escape: &document.Escape{Cause: "escapes", Sink: "return"}}}
	shape := document.Shape{Name: "node-chunks", File: "geometry.go", Line: 24, Function: mod + ".NewGeometry",
		Says: "NewGeometry makes every Geometry of the tree with an allocation of its own", Advice: "allocate the nodes in chunks",
		Related: []document.Location{{File: "feature.go", Line: 112, Function: mod + ".newDoc", Note: document.SingleNodeNote}}}
	d.Shapes = []document.Shape{shape}
	fs, _ := Derive(d, Options{})
	for _, f := range fs {
		if f.File == "geometry.go" && strings.Contains(f.Suggestion, "allocate the nodes in chunks") {
			t.Errorf("geometry.go:24 takes the node-chunks advice %q: its nodes are made one per call of newDoc", f.Suggestion)
		}
	}
	// Made where a recursive parser calls it: chunks are the advice.
	d.Shapes[0].Related = nil
	found := false
	fs, _ = Derive(d, Options{})
	for _, f := range fs {
		found = found || f.File == "geometry.go" && strings.Contains(f.Suggestion, "allocate the nodes in chunks")
	}
	if !found {
		t.Errorf("without the mark, geometry.go:24 does not take the node-chunks advice")
	}
}

// TestGeneratedFileAdvice: a fix in a file marked generated says the
// change belongs in its generator; the same fix in a file written by
// hand does not.
func TestGeneratedFileAdvice(t *testing.T) {
	d := doc(benchmark("BenchmarkMarshal", 2e-5, 86, 35000))
	d.Categories = []document.CategoryShare{{Benchmark: "BenchmarkMarshal", Package: mod, Category: "gc", Share: 0.3}}
	d.Allocations = []document.Allocation{{Benchmark: "BenchmarkMarshal", Package: mod, Function: mod + ".(*Feature).MarshalTo", File: "tile.pb.go", Line: 669,
		Alloc: "runtime.makeslice", BytesShare: 0.6, ObjectsShare: 0.5, AllocsPerOp: 43, BytesPerOp: 17000,
		Escape: &document.Escape{Cause: "variable-make", Name: "dAtA4"}}}
	d.Shapes = []document.Shape{{Name: "generated-file", File: "tile.pb.go", Line: 1, Says: "tile.pb.go is generated"}}
	suggestion := func() string { return findingAt(t, d, "tile.pb.go").Suggestion }
	if s := suggestion(); !strings.Contains(s, "make the change in its generator") {
		t.Errorf("a fix in a generated file: %q, want it to send the change to the generator", s)
	}
	d.Shapes = nil
	if s := suggestion(); strings.Contains(s, "generator") {
		t.Errorf("a fix in a file written by hand: %q, names a generator", s)
	}
}

// findingAt derives d's findings and returns the first at file.
func findingAt(t *testing.T, d *document.Report, file string) document.Finding {
	t.Helper()
	fs, _ := Derive(d, Options{})
	for _, f := range fs {
		if f.File == file {
			return f
		}
	}
	t.Fatalf("no finding at %s: %+v", file, fs)
	return document.Finding{}
}

// TestPoolPutBoxed: a slice boxed to go back into a sync.Pool, in a
// benchmark that decodes, is a fix with the pool's advice, not a value
// decoding builds for the caller.
func TestPoolPutBoxed(t *testing.T) {
	b := benchmark("BenchmarkDecodeStruct", 2e-6, 288, 12)
	b.CallPath = &document.CallPath{Functions: []string{mod + ".BenchmarkDecodeStruct", mod + ".(*Reader).DecodeMsg", mod + ".(*Reader).ReadTextUnmarshal"}, Share: 0.9}
	d := doc(b)
	d.Categories = []document.CategoryShare{{Benchmark: "BenchmarkDecodeStruct", Package: mod, Category: "gc", Share: 0.3}}
	d.Allocations = []document.Allocation{{Benchmark: "BenchmarkDecodeStruct", Package: mod, Function: mod + ".(*Reader).ReadTextUnmarshal", File: "read.go", Line: 1641,
		Alloc: "runtime.convTslice", BytesShare: 0.9, ObjectsShare: 0.9, AllocsPerOp: 12, BytesPerOp: 288,
		Escape: &document.Escape{Cause: "interface", Name: "tmp", Sink: "interface", Reason: "converted to an interface that escapes: (*sync.Pool).Put(.autotmp_4, .autotmp_5) (call parameter)"}}}
	d.Shapes = []document.Shape{{Name: "pool-put-boxed", File: "read.go", Line: 1641, Says: "bytesPool.Put(tmp) puts tmp, a []byte, into the pool's interface", Advice: "keep pointers in bytesPool"}}
	f := findingAt(t, d, "read.go")
	if f.Section != document.SectionFix || !strings.Contains(f.Suggestion, "keep pointers in bytesPool") {
		t.Errorf("a slice boxed for the pool's Put: section %q, %q; want a fix with the pool's advice", f.Section, f.Suggestion)
	}
	d.Shapes = nil
	if f := findingAt(t, d, "read.go"); f.Section == document.SectionFix && strings.Contains(f.Suggestion, "keep pointers") {
		t.Errorf("with no shape at the line, the finding still names the pool's advice: %q", f.Suggestion)
	}
}

// TestDecodedStringThroughPointer: a decoder's string copy stored
// through an unsafe pointer into the caller's field (*(*string)(p) =
// string(s)) is part of what decoding builds: a cost of the API, as a
// copy the compiler names string(s) is.
func TestDecodedStringThroughPointer(t *testing.T) {
	b := benchmark("BenchmarkUnmarshalString", 7e-7, 1024, 1)
	b.CallPath = &document.CallPath{Functions: []string{mod + ".BenchmarkUnmarshalString", mod + ".Unmarshal", mod + ".decoder.decodeString", "runtime.slicebytetostring"}, Share: 0.3}
	d := doc(b)
	d.Categories = []document.CategoryShare{{Benchmark: "BenchmarkUnmarshalString", Package: mod, Category: "gc", Share: 0.3}}
	d.Allocations = []document.Allocation{{Benchmark: "BenchmarkUnmarshalString", Package: mod, Function: mod + ".decoder.decodeString", File: "decode.go", Line: 300,
		BytesShare: 1, ObjectsShare: 1, AllocsPerOp: 1, BytesPerOp: 1024,
		Escape: &document.Escape{Cause: "conversion", Name: "*(*string)(p)", Verdict: "string(s) escapes to heap", Sink: "heap", Reason: "string(s) (*(*string)(p)) converts between string and []byte (or []rune), which copies into a new allocation"}}}
	if f := findingAt(t, d, "decode.go"); f.Section != document.SectionAPI {
		t.Errorf("a decoded string stored through the caller's pointer: section %q (%q), want the API's costs", f.Section, f.Suggestion)
	}
}

// TestPackageBuildFails: a package whose tests do not build is a finding
// of its own, naming the package and the compiler's error.
func TestPackageBuildFails(t *testing.T) {
	d := doc(benchmark("BenchmarkX", 1e-6, 0, 0))
	d.Packages = []document.Package{{Package: mod + "/codec", Status: "failed", Error: "build failed: codec/file_test.go:96:24: data.Msgsize undefined"}}
	fs, _ := Derive(d, Options{})
	for _, f := range fs {
		if f.Rule == document.RuleBrokenBuild {
			if f.Section != document.SectionBroken || !strings.Contains(f.Message, mod+"/codec: its tests do not build (codec/file_test.go:96:24: data.Msgsize undefined)") {
				t.Errorf("build failure: section %q, %q", f.Section, f.Message)
			}
			return
		}
	}
	t.Errorf("no finding for a package whose tests do not build: %+v", fs)
}

// TestPeekSkippedOneCause: the reads that consume peeked bytes with a
// reader's Skip (ReadUint64, ReadFloat64) are one finding with the
// shape's advice, the costlier leading and naming the other's line.
func TestPeekSkippedOneCause(t *testing.T) {
	shape := func(fn string, line int64) document.Shape {
		return document.Shape{Name: "peek-skipped", File: "read.go", Line: line, Function: mod + "." + fn,
			Says:   "m.R.Skip(1) consumes the byte that m.R.PeekByte() (line 1) already buffered, through Skip",
			Advice: "consume them with m.R.Next(1) in place of m.R.Skip(1)"}
	}
	skip := "github.com/philhofer/fwd.(*Reader).Skip"
	u := call("(*Reader).ReadUint64", "read.go", 807, skip, "other", 0.3)
	f := call("(*Reader).ReadFloat64", "read.go", 609, skip, "other", 0.2)
	fs, _ := Derive(specDoc([]any{bx(), u, f, shape("(*Reader).ReadUint64", 807), shape("(*Reader).ReadFloat64", 609)}), Options{})
	var fixes []document.Finding
	for _, f := range fs {
		if f.Section == document.SectionFix {
			fixes = append(fixes, f)
		}
	}
	if len(fixes) != 1 || fixes[0].Line != 807 || fixes[0].Shape != "peek-skipped" || !strings.Contains(fixes[0].Message, "(*Reader).ReadFloat64 consumes what it peeked the same way, at read.go:609") {
		t.Errorf("fix findings %+v; want one at read.go:807 with the shape's advice, naming ReadFloat64's line", fixes)
	}
}

// TestLinknameCallNoChange: an allocation the compiler does not explain
// at a call of a runtime function bound with //go:linkname is the
// runtime's: no change named, in the shape's words.
func TestLinknameCallNoChange(t *testing.T) {
	d := doc(benchmark("BenchmarkEncodeMap", 2e-7, 96, 1))
	d.Categories = []document.CategoryShare{{Benchmark: "BenchmarkEncodeMap", Package: mod, Category: "gc", Share: 0.3}}
	d.Allocations = []document.Allocation{{Benchmark: "BenchmarkEncodeMap", Package: mod, Function: mod + ".(*MapIter).Init", File: "map.go", Line: 30,
		BytesShare: 1, ObjectsShare: 1, AllocsPerOp: 1, BytesPerOp: 96,
		Escape: &document.Escape{Cause: "unknown", Reason: "no compiler diagnostic on this line explains the allocation", Fix: "allocate less here: reuse the value across calls or let the caller provide the memory"}}}
	d.Shapes = []document.Shape{{Name: "linkname-call", File: "map.go", Line: 30, OwnWork: true, Function: mod + ".(*MapIter).Init",
		Says: "mapiterinit(t, m, &it.hiter) calls runtime.mapiterinit through //go:linkname", Advice: "the allocation is runtime.mapiterinit's own: nothing to change at this line"}}
	f := findingAt(t, d, "map.go")
	if !f.NoChange || !strings.Contains(f.Suggestion, "runtime.mapiterinit") {
		t.Errorf("an allocation inside a linknamed runtime call: no_change %v, %q; want no change, in the shape's words", f.NoChange, f.Suggestion)
	}
	d.Shapes = nil
	if f := findingAt(t, d, "map.go"); f.NoChange {
		t.Errorf("without the shape, the allocation names no change: %q", f.Suggestion)
	}
}

// TestDecodedIntoReceiver: a decoder method's make stored through its
// receiver (dst = make(Int, sz) … *s = dst) is the value decoded for
// the caller, and so is the map's making in the CPU profile at that
// line: costs of the API, not a layout to change.
func TestDecodedIntoReceiver(t *testing.T) {
	b := benchmark("BenchmarkInt_DecodeMsg", 3e-6, 38000, 14)
	b.CallPath = &document.CallPath{Functions: []string{mod + ".BenchmarkInt_DecodeMsg", mod + ".(*Int).DecodeMsg", "runtime.makemap"}, Share: 0.5}
	d := doc(b)
	d.Categories = []document.CategoryShare{{Benchmark: "BenchmarkInt_DecodeMsg", Package: mod, Category: "gc", Share: 0.3}}
	d.Allocations = []document.Allocation{{Benchmark: "BenchmarkInt_DecodeMsg", Package: mod, Function: mod + ".(*Int).DecodeMsg", File: "set.go", Line: 459,
		BytesShare: 1, ObjectsShare: 1, AllocsPerOp: 14, BytesPerOp: 38000,
		Escape: &document.Escape{Cause: "escapes", Name: "make(Int, sz)", Verdict: "make(Int, sz) escapes to heap", Sink: "heap", Reason: "make(Int, sz) escapes to the heap: *s = dst (assign)",
			Flow: []string{"flow: dst ← &{storage for make(Int, sz)}:", "  from make(Int, sz) (spill) at set.go:459:13", "  from dst = make(Int, sz) (assign) at set.go:459:7", "flow: {heap} ← dst:", "  from *s = dst (assign) at set.go:471:5"}}}}
	d.Lines = []document.LineCost{{Benchmark: "BenchmarkInt_DecodeMsg", Package: mod, Function: mod + ".(*Int).DecodeMsg", File: "set.go", Line: 459,
		Callee: "runtime.makemap", Category: "maps", Self: 0.3, Cum: 0.3}, {Benchmark: "BenchmarkInt_DecodeMsg", Package: mod, Function: mod + ".(*Int).DecodeMsg", File: "set.go", Line: 466,
		Callee: "runtime.mapassign_fast64", Category: "maps", Self: 0.2, Cum: 0.2}}
	fs, _ := Derive(d, Options{})
	for _, f := range fs {
		if f.File == "set.go" && f.Section == document.SectionFix && !f.NoChange {
			t.Errorf("the map a decoder makes for its receiver: a fix %q (%s)", f.Message, f.Suggestion)
		}
	}
	// The same make, kept in a local the function drops: not decoded.
	d.Allocations[0].Escape.Flow = d.Allocations[0].Escape.Flow[:3]
	d.Allocations[0].Escape.Reason = "make(Int, sz) escapes to the heap: too large for the stack"
	fixed := false
	fs, _ = Derive(d, Options{})
	for _, f := range fs {
		fixed = fixed || f.File == "set.go" && f.Section == document.SectionFix && !f.NoChange
	}
	if !fixed {
		t.Errorf("a make not stored for the caller is not a fix: %+v", fs)
	}
}

// TestDecodedMapMaking: the CPU a decoder spends making the map it
// stores for its caller (runtime.makemap at the line of a decoded
// allocation) is named as what decoding builds, with no change; the
// same call at a line with no such allocation keeps the map words.
func TestDecodedMapMaking(t *testing.T) {
	b := benchmark("BenchmarkInt64_UnmarshalMsg", 3e-6, 38000, 14)
	b.CallPath = &document.CallPath{Functions: []string{mod + ".BenchmarkInt64_UnmarshalMsg", mod + ".(*Int64).UnmarshalMsg", "runtime.makemap"}, Share: 0.5}
	d := doc(b)
	d.Allocations = []document.Allocation{{Benchmark: b.Name, Package: mod, Function: mod + ".(*Int64).UnmarshalMsg", File: "set.go", Line: 3872,
		BytesShare: 1, ObjectsShare: 1, AllocsPerOp: 14, BytesPerOp: 38000,
		Escape: &document.Escape{Cause: "escapes", Name: "make(Int64, sz)", Flow: []string{"  from *s = dst (assign) at set.go:3884:5"}}}}
	dv := &deriver{t: DefaultThresholds, doc: d, module: mod, byKey: map[string]*bench{}, byCallee: map[string]*cause{}}
	dv.index()
	l := &document.LineCost{Benchmark: b.Name, Package: mod, Function: mod + ".(*Int64).UnmarshalMsg", File: "set.go", Line: 3872, Callee: "runtime.makemap", Category: "maps"}
	fix, _, ownWork := dv.inputsFix(l, cpuWords["maps"][1])
	if !ownWork || !strings.Contains(fix, "what decoding builds for the caller") {
		t.Errorf("makemap at a decoded map's line: %q (own work %v), want what decoding builds", fix, ownWork)
	}
	l.Line = 3900
	if fix, _, _ := dv.inputsFix(l, cpuWords["maps"][1]); fix != cpuWords["maps"][1] {
		t.Errorf("makemap at a line with no decoded allocation: %q, want the map words", fix)
	}
	// A decoded string's copy at its line: the same.
	l.Line, l.Callee, l.Category = 3872, "runtime.slicebytetostring", "strings"
	if fix, _, ownWork := dv.inputsFix(l, cpuWords["strings"][1]); !ownWork || !strings.Contains(fix, "what decoding builds for the caller") {
		t.Errorf("slicebytetostring at a decoded value's line: %q (own work %v), want what decoding builds", fix, ownWork)
	}
}

// TestCopyIntoResult: the copy of a pooled buffer into the slice an
// exported function returns (b := make(…); copy(b, buf.data); return b)
// is the API's cost, not "copy less".
func TestCopyIntoResult(t *testing.T) {
	l := call("Marshal", "json.go", 281, "runtime.memmove", "strings", 0.3)
	s := document.Shape{Name: "result-computed", File: "json.go", Line: 281, Function: mod + ".Marshal", Says: "copy(b, buf.data) fills b, which Marshal returns",
		Advice: "the call is Marshal's result, computed from what it is given: its own work, with no result to keep"}
	find := func(parts ...any) *document.Finding {
		fs, _ := Derive(specDoc(append([]any{bx(), l}, parts...)), Options{})
		for i := range fs {
			if fs[i].File == "json.go" {
				return &fs[i]
			}
		}
		return nil
	}
	if f := find(s); f == nil || f.Section != document.SectionAPI {
		t.Errorf("the copy into the returned slice: %+v, want a cost of the API", f)
	}
	if f := find(); f == nil || f.Section != document.SectionFix {
		t.Errorf("a copy with no shape: %+v, want a fix", f)
	}
}

// TestDecoderCallsReturner: an exported function's returned string that
// a decoder method of the module (a set's UnmarshalMsg) calls for each
// entry stays a cost of the API; the same call from another of the
// module's methods is a fix at that caller.
func TestDecoderCallsReturner(t *testing.T) {
	for _, tc := range []struct {
		caller string
		api    bool
	}{
		{"(*String).UnmarshalMsg", true},
		{"(*String).Fill", false},
	} {
		a := converts(site("ReadStringBytes", "read.go", 991, 0.8))
		a.Escape.Sink = "return"
		a.Parent, a.ParentFile, a.ParentLine = mod+"."+tc.caller, "set.go", 120
		f := findingAt(t, specDoc([]any{bx(), a}), "read.go")
		if (f.Section == document.SectionAPI) != tc.api {
			t.Errorf("called by %s: section %q (%q), want API %v", tc.caller, f.Section, f.Suggestion, tc.api)
		}
	}
}

// TestStrconvOnInputs: a strconv call the profile shows as its internal
// function (AppendFloat as genericFtoa) on what the function is given
// takes the line's call-on-inputs words: its own work, not "convert once".
func TestStrconvOnInputs(t *testing.T) {
	l := call("rwFloat32Bytes", "json.go", 259, "strconv.genericFtoa", "strings", 0.3)
	s := document.Shape{Name: "call-on-inputs", File: "json.go", Line: 259, Function: mod + ".rwFloat32Bytes", OwnWork: true,
		Says:   "strconv.AppendFloat(scratch[:0], float64(f), 'f', -1, 32) works on what rwFloat32Bytes is given (msg, scratch)",
		Advice: "the call is rwFloat32Bytes's own work on its inputs, once per call"}
	f := findingAt(t, specDoc([]any{bx(), l, s}), "json.go")
	if !f.NoChange || !strings.Contains(f.Suggestion, "works on what rwFloat32Bytes is given") {
		t.Errorf("strconv on the inputs: no change %v, %q; want the shape's words, no change", f.NoChange, f.Suggestion)
	}
}
