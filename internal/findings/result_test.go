package findings

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

// resultShape is a shape of site.Result's at file:line of fn.
func resultShape(name, fn, file string, line int64, says string) document.Shape {
	return document.Shape{Name: name, File: file, Line: line, Function: mod + "." + fn, Says: says}
}

// TestResultFollowed: a value an unexported function returns is the API's
// cost when an exported function returns it in turn (a result-forwarded
// shape), and the module function that calls it on most of its
// allocations does not make it the module's choice when that call hands
// the result on (a result-passed shape at the call); without the shapes,
// the compiler's reason decides.
func TestResultFollowed(t *testing.T) {
	str := site("(*Decoder).stringWithLen", "s.go", 59, 0.6)
	str.Escape = &document.Escape{Cause: "conversion", Name: "string(b)", Sink: "return"}
	str.Parent, str.ParentFile, str.ParentLine = mod+".(*Decoder).string", "s.go", 51
	forwarded := resultShape("result-forwarded", "(*Decoder).stringWithLen", "s.go", 56,
		"stringWithLen's result is what the exported (*Decoder).DecodeString returns (through (*Decoder).string)")
	passed := resultShape("result-passed", "(*Decoder).string", "s.go", 51, "string returns stringWithLen's result")
	forwardedToo := resultShape("result-forwarded", "(*Decoder).string", "s.go", 50,
		"string's result is what the exported (*Decoder).DecodeString returns")
	for _, tc := range []struct {
		name    string
		shapes  []any
		section document.Section
	}{
		{"no shapes: an unexported function's conversion", nil, document.SectionFix},
		{"returned by the API, through a caller that returns it", []any{forwarded, passed, forwardedToo}, document.SectionAPI},
		{"returned by the API, but the module's caller keeps it", []any{forwarded}, document.SectionFix},
		// A parser's addChild returns the node NewNode made, but
		// nothing exported returns addChild's result: making it is
		// addChild's choice, a cause to fix there.
		{"returned on by a caller whose result is not the API's", []any{forwarded, passed}, document.SectionFix},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(append([]any{bx(), gc(0.5), str}, tc.shapes...)), Options{})
			if len(fs) == 0 {
				t.Fatal("no finding")
			}
			f := fs[0]
			if f.Section != tc.section {
				t.Errorf("%s:%d in section %s (%q), want %s", f.File, f.Line, f.Section, f.Suggestion, tc.section)
			}
			if tc.section == document.SectionAPI && strings.Contains(f.Suggestion, "keep one representation") {
				t.Errorf("suggestion %q: the string is the result, not a second representation", f.Suggestion)
			}
		})
	}
}

// TestSizedMapReturned: entries stored into a map the function returns,
// made with its size (a result-computed shape at the store), are the
// result: the map's growth there and the assignment's time are costs of
// the API, never "reuse it with clear(m)" (the caller keeps it) or "fewer
// lookups" (each store is an entry of the result). A map returned without
// a size stays a cause to fix: a size hint is the fix there.
func TestSizedMapReturned(t *testing.T) {
	grow := site("(*Decoder).DecodeMap", "m.go", 171, 0.7)
	grow.Escape = &document.Escape{Cause: "map", Name: "m"}
	grow.Alloc = "internal/runtime/maps.(*table).grow"
	grow.Parent, grow.ParentFile, grow.ParentLine = mod+".(*Decoder).decodeMapPtr", "m.go", 142
	store := call("(*Decoder).DecodeMap", "m.go", 171, "runtime.mapassign_faststr", "maps", 0.25)
	sized := resultShape("result-computed", "(*Decoder).DecodeMap", "m.go", 171,
		"m[mk] stores into the map DecodeMap returns, made with its size (make(map[string]interface{}, n)): its storage is the result")
	passed := resultShape("result-passed", "(*Decoder).decodeMapPtr", "m.go", 142, "decodeMapPtr stores through its pointer parameter DecodeMap's result")
	for _, tc := range []struct {
		name    string
		shapes  []any
		section document.Section
	}{
		{"no shape: the map grows in a function", nil, document.SectionFix},
		{"sized and returned", []any{sized, passed}, document.SectionAPI},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(append([]any{bx(), gc(0.5), grow, store}, tc.shapes...)), Options{})
			if len(fs) == 0 {
				t.Fatal("no finding")
			}
			for _, f := range fs {
				if f.Section != tc.section {
					t.Errorf("%s:%d %s in section %s, want %s", f.File, f.Line, f.Kind, f.Section, tc.section)
				}
				if tc.section == document.SectionAPI && (strings.Contains(f.Suggestion, "clear(m)") || strings.Contains(f.Suggestion, "fewer lookups")) {
					t.Errorf("suggestion %q for the map the API returns", f.Suggestion)
				}
			}
		})
	}
}

// TestComputedResult: a library call that computes the value the
// function returns (z.Sub(x, y) into the Int a Decimal's Sub returns, a
// result-computed shape at the line) is the operation itself: a cost of
// the API when the function is the API's or an exported function returns
// its result, never "call it less: cache its result". An unexported
// function no exported one returns keeps the cause to fix.
func TestComputedResult(t *testing.T) {
	sub := call("Decimal.Sub", "d.go", 679, "math/big.(*Int).Sub", "other", 0.6)
	subShape := resultShape("result-computed", "Decimal.Sub", "d.go", 679, "new(big.Int).Sub(d.value, d2.value) computes v, which Sub returns")
	mul := call("Decimal.rescale", "d.go", 625, "math/big.(*Int).Mul", "other", 0.5)
	mulShape := resultShape("result-computed", "Decimal.rescale", "d.go", 625, "value.Mul(d.value, x) computes into value, which rescale returns")
	forwarded := resultShape("result-forwarded", "Decimal.rescale", "d.go", 606, "rescale's result is what the exported Decimal.Sub returns")
	for _, tc := range []struct {
		name    string
		parts   []any
		section document.Section
	}{
		{"no shape: a library call", []any{sub}, document.SectionFix},
		{"an exported method's result", []any{sub, subShape}, document.SectionAPI},
		{"an unexported function no exported one returns", []any{mul, mulShape}, document.SectionFix},
		{"an unexported function whose result Sub returns", []any{mul, mulShape, forwarded}, document.SectionAPI},
		// The profile files big.(*Int).SetString's time under string
		// work (it scans digits) in some runs: it is still math/big's
		// call computing the Int NewFromString returns.
		{"an exported function's result, its time below filed as strings", []any{
			call("NewFromString", "d.go", 309, "math/big.(*Int).SetString", "strings", 0.6),
			resultShape("result-computed", "NewFromString", "d.go", 309, "dValue.SetString(intString, 10) computes into dValue, which NewFromString returns")}, document.SectionAPI},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(append([]any{bx()}, tc.parts...)), Options{})
			if len(fs) != 1 {
				t.Fatalf("%d findings %v, want 1", len(fs), kinds(fs))
			}
			f := fs[0]
			if f.Section != tc.section {
				t.Errorf("%s:%d in section %s (%q), want %s", f.File, f.Line, f.Section, f.Suggestion, tc.section)
			}
			if tc.section == document.SectionAPI && (strings.Contains(f.Suggestion, "cache its result") || f.Generic || f.Gain != "") {
				t.Errorf("suggestion %q (generic %v, gain %q): want the operation named as the API's cost", f.Suggestion, f.Generic, f.Gain)
			}
		})
	}
}

// TestAPICostKeptApart: a function's API cost (the call that computes its
// result) and a cost of the same function to fix (a buffer it makes on
// the way) are two causes: merging them would hide the fix among the
// API's costs, or rank the API's cost as a fix.
func TestAPICostKeptApart(t *testing.T) {
	sub := call("Decimal.Sub", "d.go", 679, "math/big.(*Int).Sub", "other", 0.6)
	subShape := resultShape("result-computed", "Decimal.Sub", "d.go", 679, "new(big.Int).Sub(d.value, d2.value) computes v, which Sub returns")
	buf := site("Decimal.Sub", "d.go", 670, 0.5)
	fs, _ := Derive(specDoc([]any{bx(), gc(0.3), sub, subShape, buf}), Options{})
	var got []string
	for _, f := range fs {
		got = append(got, fmt.Sprintf("%s %s", f.Section, where(f.File, f.Line)))
	}
	want := []string{"fix d.go:670", "api d.go:679"}
	if !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
}

// TestSiteAdviceFollowsResult: perfloop explain's advice for a site is the
// report's: the string an unexported function returns to the API
// (result-forwarded) is the API's cost, not a second representation to
// drop; a store into the sized map the API returns names that map.
func TestSiteAdviceFollowsResult(t *testing.T) {
	str := site("(*Decoder).stringWithLen", "s.go", 59, 0.6)
	str.Escape = &document.Escape{Cause: "conversion", Name: "string(b)", Sink: "return"}
	grow := site("(*Decoder).DecodeMap", "m.go", 171, 0.7)
	grow.Escape = &document.Escape{Cause: "map", Name: "m"}
	grow.Alloc = "internal/runtime/maps.(*table).grow"
	for _, tc := range []struct {
		name   string
		a      document.Allocation
		shape  document.Shape
		want   string
		unwant string
	}{
		{"forwarded string", str, resultShape("result-forwarded", "(*Decoder).stringWithLen", "s.go", 56, "stringWithLen's result is what the exported (*Decoder).DecodeString returns"),
			"DecodeString", "keep one representation"},
		{"sized map", grow, resultShape("result-computed", "(*Decoder).DecodeMap", "m.go", 171, "m[mk] stores into the map DecodeMap returns, made with its size (make(map[string]any, n))"),
			"made with its size", "clear(m)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := specDoc([]any{bx(), tc.a, tc.shape})
			got, generic := SiteAdvice(d, &d.Allocations[0])
			if !strings.Contains(got, tc.want) || strings.Contains(got, tc.unwant) || generic {
				t.Errorf("advice %q (generic %v), want it to name %q and not %q", got, generic, tc.want, tc.unwant)
			}
		})
	}
}

// TestConstMathAdvice: a function whose time is a math call with
// constant arguments (math.Log2(10), a math-const shape at the line) is
// told to compute the number once, not to "look at the lines".
func TestConstMathAdvice(t *testing.T) {
	parts := []any{bx(),
		call("Decimal.NumDigits", "d.go", 883, "math.log2", "other", 0.45),
		own("Decimal.NumDigits", "d.go", 880, 0.3)}
	shape := document.Shape{Name: "math-const", File: "d.go", Line: 883, Function: mod + ".Decimal.NumDigits",
		Says:   "math.Log2(10) computes the same number on every call of NumDigits: the compiler does not fold a math call",
		Advice: "compute it once: a package-level var (var x = math.Log2(10)) or its value written as a constant"}
	for _, tc := range []struct {
		name    string
		shapes  []any
		generic bool
	}{
		{"no shape", nil, true},
		{"the constant call", []any{shape}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(append(slices.Clone(parts), tc.shapes...)), Options{})
			if len(fs) == 0 {
				t.Fatal("no finding")
			}
			f := fs[0]
			if f.Generic != tc.generic || !tc.generic && !strings.Contains(f.Suggestion, "compute it once") {
				t.Errorf("suggestion %q (generic %v), want generic %v", f.Suggestion, f.Generic, tc.generic)
			}
		})
	}
}

// TestResultAdviceKeptPerType: the API-level alternative is named once per
// type, but a cost whose advice the code at its line gave (the sized map
// DecodeMap returns) keeps it: pointing to another method's alternative
// would drop what is true of this one.
func TestResultAdviceKeptPerType(t *testing.T) {
	str := site("(*Decoder).DecodeString", "s.go", 59, 0.6)
	str.Escape = &document.Escape{Cause: "conversion", Name: "string(b)", Sink: "return"}
	grow := site("(*Decoder).DecodeMap", "m.go", 171, 0.3)
	grow.Escape = &document.Escape{Cause: "map", Name: "m"}
	grow.Alloc = "internal/runtime/maps.(*table).grow"
	sized := resultShape("result-computed", "(*Decoder).DecodeMap", "m.go", 171,
		"m[mk] stores into the map DecodeMap returns, made with its size (make(map[string]interface{}, n)): its storage is the result")
	fs, _ := Derive(specDoc([]any{bx(), gc(0.5), str, grow, sized}), Options{})
	var got []string
	for _, f := range fs {
		got = append(got, fmt.Sprintf("%s %s", f.Section, where(f.File, f.Line)))
		if f.File == "m.go" && !strings.Contains(f.Suggestion, "made with its size") {
			t.Errorf("m.go:171's suggestion %q, want the sized map's words", f.Suggestion)
		}
	}
	if want := []string{"api s.go:59", "api m.go:171"}; !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
}

// TestComputedResultToFix: a library call that computes the value a
// function returns, where that value is not the API's (pow10's power of
// ten, an operand of the module's arithmetic), is a cause to fix with
// the shape's words: the call is the function's result, so the fix is
// to call the function less for the inputs that recur, not "call it
// less: cache its result" of the library call.
func TestComputedResultToFix(t *testing.T) {
	exp := call("pow10", "const.go", 56, "math/big.(*Int).Exp", "other", 0.5)
	shape := resultShape("result-computed", "pow10", "const.go", 56, "new(big.Int).Exp(tenInt, big.NewInt(n), nil) computes the value pow10 returns")
	shape.Advice = "the call is pow10's result, so calling it less means calling pow10 less: keep pow10's results for the inputs that recur (a table or a memo), or compute less per call"
	fs, _ := Derive(specDoc([]any{bx(), exp, shape}), Options{})
	if len(fs) != 1 {
		t.Fatalf("findings %v, want 1", kinds(fs))
	}
	f := fs[0]
	if f.Section != document.SectionFix || f.Generic || !strings.Contains(f.Suggestion, "keep pow10's results") {
		t.Errorf("%s %q (generic %v), want a cause to fix with the shape's advice", f.Section, f.Suggestion, f.Generic)
	}
}

// TestPartsInOrder: a function's parts are named costliest first, whatever
// benchmark found each: a library call of 49% comes before its own code's
// 2% and the note that it is not inlined, and its words are the cause's
// advice.
func TestPartsInOrder(t *testing.T) {
	hot := document.Hotspot{Benchmark: "BenchmarkA", Package: mod, Function: mod + ".pow10", Flat: 0.05, Cum: 0.05}
	fs, _ := Derive(specDoc([]any{benchmark("BenchmarkA", 1e-6, 10, 1000), benchmark("BenchmarkB", 1e-6, 10, 1000),
		notInlined("pow10", "const.go", 52, 117, 80), hot,
		callIn("BenchmarkB", "pow10", "const.go", 56, "math/big.(*Int).Exp", "other", 0.49)}), Options{})
	if len(fs) != 1 {
		t.Fatalf("findings %v, want 1", kinds(fs))
	}
	msg := fs[0].Message
	exp, own := strings.Index(msg, "big.(*Int).Exp"), strings.Index(msg, "its own code")
	if exp < 0 || own >= 0 && own < exp || strings.Index(msg, "not inlined") < exp {
		t.Errorf("message %q: want the call's 49%% named first", msg)
	}
	if !strings.HasPrefix(fs[0].Suggestion, "call it less") {
		t.Errorf("suggestion %q: want the largest part's words", fs[0].Suggestion)
	}
}

// TestPartsOfOneKind: a function's calls that are one kind of work (two
// readers' ReadByte, each "reading through an io.Reader") are one part:
// together they outweigh its own code, and their advice is the cause's.
func TestPartsOfOneKind(t *testing.T) {
	fs, _ := Derive(specDoc([]any{bx(),
		call("(*Decoder).readCode", "d.go", 606, "bytes.(*Buffer).ReadByte", "strings", 0.17),
		call("(*Decoder).readCode", "d.go", 608, "bytes.(*Reader).ReadByte", "strings", 0.09),
		own("(*Decoder).readCode", "d.go", 607, 0.22)}), Options{})
	if len(fs) != 1 {
		t.Fatalf("findings %v, want 1", kinds(fs))
	}
	if s := fs[0].Suggestion; !strings.HasPrefix(s, "read fewer, larger pieces") {
		t.Errorf("suggestion %q, want the readers' advice", s)
	}
}

// TestHelperCalledByBenchmarks: a function's allocation cause joins its
// caller's only when that caller makes most of its allocations; an
// exported parser that benchmarks call directly (NewFromString) and that
// one module function also calls (UnmarshalJSON) stays its own cause,
// not the caller's with benchmarks that never call the caller.
func TestHelperCalledByBenchmarks(t *testing.T) {
	direct := site("NewFromString", "d.go", 306, 0.6)
	direct.Escape = &document.Escape{Cause: "concat"}
	viaJSON := direct
	viaJSON.Benchmark = "BenchmarkY"
	viaJSON.BytesShare, viaJSON.ObjectsShare = 0.3, 0.3
	viaJSON.Parent, viaJSON.ParentFile, viaJSON.ParentLine = mod+".(*Decimal).UnmarshalJSON", "e.go", 18
	conv := site("(*Decimal).UnmarshalJSON", "e.go", 18, 0.5)
	conv.Benchmark = "BenchmarkY"
	conv.Escape = &document.Escape{Cause: "conversion", Name: "string(b)"}
	fs, _ := Derive(specDoc([]any{bx(), benchmark("BenchmarkY", 1e-6, 10, 1000), gc(0.5), direct, viaJSON, conv}), Options{})
	for _, f := range fs {
		if f.File == "e.go" && slices.Contains(f.Benchmarks, "BenchmarkX") {
			t.Errorf("UnmarshalJSON's finding %v holds BenchmarkX, which calls NewFromString directly", f.Benchmarks)
		}
	}
	if len(fs) != 2 {
		t.Errorf("%d findings, want 2 (NewFromString's, UnmarshalJSON's)", len(fs))
	}
}

// TestHelperAPICostKeptApart: a helper's allocation that is the API's
// result (quoRem's quotient, which DivRound returns) does not join its
// caller's cause to fix (DivRound's temporary), nor the other way round.
func TestHelperAPICostKeptApart(t *testing.T) {
	q := site("Decimal.quoRem", "d.go", 822, 0.5)
	q.Escape = &document.Escape{Cause: "moved-to-heap", Name: "q", Sink: "return"}
	q.Parent, q.ParentFile, q.ParentLine = mod+".Decimal.DivRound", "d.go", 838
	forwarded := resultShape("result-forwarded", "Decimal.quoRem", "d.go", 790, "quoRem's result is what the exported Decimal.DivRound returns")
	passed := resultShape("result-passed", "Decimal.DivRound", "d.go", 838, "DivRound returns quoRem's result")
	tmp := site("Decimal.DivRound", "d.go", 844, 0.4)
	fs, _ := Derive(specDoc([]any{bx(), gc(0.5), q, tmp, forwarded, passed}), Options{})
	var got []string
	for _, f := range fs {
		got = append(got, fmt.Sprintf("%s %s", f.Section, where(f.File, f.Line)))
	}
	if want := []string{"fix d.go:844", "api d.go:822"}; !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
}

// TestInputConverted: a strconv call converting the function's own
// parameter once per call (an input-converted shape) is the function's
// work on its input: in the API's costs when the API returns its result,
// otherwise a cause to fix with the shape's words; never "convert once
// and keep the number".
func TestInputConverted(t *testing.T) {
	// Go 1.26 names strconv's internals internal/strconv.
	conv := call("newFromFloat", "d.go", 447, "internal/strconv.genericFtoa", "strings", 0.4)
	shape := resultShape("input-converted", "newFromFloat", "d.go", 447, "strconv.AppendFloat(buf[:0], val, 'e', -1, bitSize) converts newFromFloat's parameter val, once per call")
	shape.Advice = "the conversion is newFromFloat's work on its input, not a repeat: a faster path only for inputs that allow one, or fewer calls of newFromFloat"
	forwarded := resultShape("result-forwarded", "newFromFloat", "d.go", 441, "newFromFloat's result is what the exported NewFromFloat returns")
	for _, tc := range []struct {
		name    string
		shapes  []any
		section document.Section
	}{
		{"the API returns its result", []any{shape, forwarded}, document.SectionAPI},
		{"a function of the module's own", []any{shape}, document.SectionFix},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(append([]any{bx(), conv}, tc.shapes...)), Options{})
			if len(fs) != 1 {
				t.Fatalf("findings %v, want 1", kinds(fs))
			}
			f := fs[0]
			if f.Section != tc.section || strings.Contains(f.Suggestion, "convert once") || f.Generic {
				t.Errorf("%s %q (generic %v), want section %s with the shape's words", f.Section, f.Suggestion, f.Generic, tc.section)
			}
		})
	}
}

// TestReflectSliceBytesAdvice: reflect.Value.Slice's allocation under
// v.Slice(0, n).Bytes() (a reflect-slice-bytes shape at the line) is told
// to read the array's bytes with v.Bytes(), not to cache reflection per
// type.
func TestReflectSliceBytesAdvice(t *testing.T) {
	alloc := site("decodeByteArrayValue", "s.go", 190, 0.9)
	alloc.Via = "reflect.Value.Slice"
	alloc.Escape = &document.Escape{Cause: "callee", Name: "reflect.Value.Slice"}
	shape := resultShape("reflect-slice-bytes", "decodeByteArrayValue", "s.go", 190, "v.Slice(0, n).Bytes() makes a reflect.Value of a new slice only to read its bytes: on a byte array, Slice allocates that slice's header")
	shape.Advice = "when v is addressable, v.Bytes()[:n] gives the same bytes without the allocation (Value.Bytes takes an addressable byte array)"
	fs, _ := Derive(specDoc([]any{bx(), gc(0.3), call("decodeByteArrayValue", "s.go", 190, "reflect.Value.Slice", "reflect", 0.2), alloc, shape}), Options{})
	if len(fs) != 1 {
		t.Fatalf("findings %v, want 1", kinds(fs))
	}
	if s := fs[0].Suggestion; !strings.Contains(s, "v.Bytes()[:n]") || fs[0].Generic {
		t.Errorf("suggestion %q (generic %v), want v.Bytes()", s, fs[0].Generic)
	}
}

// TestAPICostCalledMostlyByBenchmarks: a function the API exposes whose
// allocations the benchmarks' own calls make for the most part stays an
// API cost though one module function also calls it (NewFromString,
// called by UnmarshalJSON too): the module's caller is "where the fix
// is" only when it makes most of them.
func TestAPICostCalledMostlyByBenchmarks(t *testing.T) {
	direct := escapesByResult(site("NewFromString", "d.go", 309, 0.6))
	viaJSON := direct
	viaJSON.Benchmark = "BenchmarkY"
	viaJSON.BytesShare, viaJSON.ObjectsShare = 0.3, 0.3
	viaJSON.Parent, viaJSON.ParentFile, viaJSON.ParentLine = mod+".(*Decimal).UnmarshalJSON", "e.go", 18
	fs, _ := Derive(specDoc([]any{bx(), benchmark("BenchmarkY", 1e-6, 10, 1000), gc(0.5), direct, viaJSON}), Options{})
	if len(fs) != 1 || fs[0].Section != document.SectionAPI || strings.Contains(fs[0].Suggestion, "UnmarshalJSON") {
		t.Errorf("findings %v, want one API cost not sent to UnmarshalJSON", fs)
	}
}

// TestReflectInterfaceAssertAdvice: the allocation inside
// reflect.Value.Interface under v.Interface().(time.Time) (a
// reflect-interface-assert shape) is told to read the value through
// v.Addr(), not "call it less (cache its result)".
func TestReflectInterfaceAssertAdvice(t *testing.T) {
	alloc := site("timeEncoder", "time.go", 20, 0.5)
	alloc.Via = "reflect.Value.Interface"
	alloc.Escape = &document.Escape{Cause: "callee", Name: "reflect.Value.Interface"}
	shape := resultShape("reflect-interface-assert", "timeEncoder", "time.go", 20, "v.Interface().(time.Time) boxes a copy of the time.Time on the heap only to assert it back")
	shape.Advice = "when v is addressable, *v.Addr().Interface().(*time.Time) reads it without the copy (a pointer in an interface is not allocated)"
	fs, _ := Derive(specDoc([]any{bx(), gc(0.4), alloc, shape}), Options{})
	if len(fs) != 1 {
		t.Fatalf("findings %v, want 1", kinds(fs))
	}
	if s := fs[0].Suggestion; !strings.Contains(s, "v.Addr()") || fs[0].Generic {
		t.Errorf("suggestion %q (generic %v), want v.Addr()", s, fs[0].Generic)
	}
}

// TestHelperResultAtCaller: an unexported helper whose allocation is the
// value it returns (return reflect.New(t): a result-computed shape at
// the line) is its module caller's choice: the cause is to fix at the
// caller that calls it on most of its allocations, not "call it less
// (cache its result)" at the helper; with no module caller (a benchmark
// of the helper itself) the compiler's reason decides.
func TestHelperResultAtCaller(t *testing.T) {
	newValue := func(parent string) document.Allocation {
		a := site("(*Decoder).newValue", "t.go", 42, 0.5)
		a.Via = "reflect.New"
		a.Escape = &document.Escape{Cause: "callee", Name: "reflect.New"}
		if parent != "" {
			a.Parent, a.ParentFile, a.ParentLine = mod+"."+parent, "m.go", 259
		}
		return a
	}
	shape := resultShape("result-computed", "(*Decoder).newValue", "t.go", 42, "reflect.New(t) computes the value newValue returns")
	for _, tc := range []struct {
		name, parent, want string
	}{
		{"called by the module's map decoder", "(*Decoder).decodeTypedMapValue", "the module's own (*Decoder).decodeTypedMapValue calls it"},
		{"called by a benchmark", "", "a buffer you keep (an Append or Reset variant)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc([]any{bx(), gc(0.5), newValue(tc.parent), shape}), Options{})
			if len(fs) != 1 || fs[0].Section != document.SectionFix {
				t.Fatalf("findings %v, want one cause to fix", fs)
			}
			if s := fs[0].Suggestion; !strings.Contains(s, tc.want) {
				t.Errorf("suggestion %q, want %q", s, tc.want)
			}
			if m := fs[0].Message; strings.Contains(m, "the API returns it") {
				t.Errorf("message %q: a helper's result is not the API's", m)
			}
		})
	}
}

// TestMadePerIterationAtCaller: a constructor's value that its module
// caller makes on every iteration of a loop and drops after it (a
// made-per-iteration shape at the loop's call, whose function makes the
// value) is fixed at the loop: one value made before it and reset per
// iteration, not "call it only when its result is used".
func TestMadePerIterationAtCaller(t *testing.T) {
	frame := site("(*DataFrame).Copy", "data_frame.go", 25, 0.5)
	frame.Escape = &document.Escape{Cause: "escapes", Sink: "return", Name: "&DataFrame{...}"}
	frame.Parent, frame.ParentFile, frame.ParentLine = mod+".(*DataFrame).newIterDataFrame", "data_frame.go", 35
	returned := resultShape("returned-address", "(*DataFrame).Copy", "data_frame.go", 25, "result is returned as &DataFrame{…}")
	loop := resultShape("made-per-iteration", "(*evalVisitor).evalBlock", "eval.go", 840,
		"newIterDataFrame returns a new *DataFrame, made on every iteration of the loop at line 838 and used only within that iteration (passed to v.evalProgram): one allocation per element")
	loop.Advice = "reuse one DataFrame across the loop: make it before the loop and reset it in each iteration (its fields set again, its maps cleared) instead of a new one per element, as long as v.evalProgram does not keep it past the iteration"
	loop.Related = []document.Location{{File: "eval.go", Line: 838, Function: mod + ".(*evalVisitor).evalBlock", Note: "the loop"},
		{File: "data_frame.go", Line: 34, Function: mod + ".(*DataFrame).newIterDataFrame", Note: "makes the value"}}
	for _, tc := range []struct {
		name  string
		parts []any
		want  string
	}{
		{"no loop shape", []any{bx(), gc(0.5), frame, returned}, "the module's own (*DataFrame).newIterDataFrame calls it: the fix is there"},
		// The loop's own function calling the cause's is not the
		// value's maker.
		{"called by the loop's function", []any{bx(), gc(0.5), func() document.Allocation {
			a := frame
			a.Parent = mod + ".(*evalVisitor).evalBlock"
			return a
		}(), returned, loop}, "the module's own (*evalVisitor).evalBlock calls it: the fix is there"},
		{"made per iteration by the caller's caller", []any{bx(), gc(0.5), frame, returned, loop}, "made on every iteration of the loop at line 838 and used only within that iteration (passed to v.evalProgram): one allocation per element: reuse one DataFrame across the loop"},
		// The benchmark's profile never runs the loop's function (a
		// benchmark of Copy itself): the loop is not where its cost
		// comes from.
		{"a loop the benchmark does not run", []any{bx(), gc(0.5), frame, returned, loop,
			document.Hotspot{Benchmark: "BenchmarkX", Package: mod, Function: mod + ".(*DataFrame).Copy", File: "data_frame.go", Line: 25, Flat: 0.5, Cum: 0.9}},
			"the module's own (*DataFrame).newIterDataFrame calls it: the fix is there"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(tc.parts), Options{})
			if len(fs) != 1 || fs[0].Section != document.SectionFix {
				t.Fatalf("findings %v, want one cause to fix", fs)
			}
			if s := fs[0].Suggestion; !strings.Contains(s, tc.want) {
				t.Errorf("suggestion %q, want %q", s, tc.want)
			}
		})
	}
}

// TestForwardedResultStaysAPI: an exported method's result that the
// exported function the benchmark calls hands back as its own
// (hamba/avro's Marshal: return DefaultConfig.Marshal(schema, v), a
// result-computed shape at the call) is what the API returns, in "Costs
// of the API", not a fix at that caller; called by the module's own code
// (raymond's visitor, through its nodes' Accept), it is a fix there.
func TestForwardedResultStaysAPI(t *testing.T) {
	copied := site("(*frozenConfig).Marshal", "config.go", 152, 0.5)
	copied.Escape = &document.Escape{Cause: "escapes", Sink: "return", Name: "make([]byte, len(result))"}
	copied.Parent, copied.ParentFile, copied.ParentLine = mod+".Marshal", "encoder.go", 41
	returned := resultShape("result-computed", "(*frozenConfig).Marshal", "config.go", 152, "make([]byte, len(result)) computes copied, which Marshal returns")
	forwarded := resultShape("result-computed", "Marshal", "encoder.go", 41, "DefaultConfig.Marshal(schema, v) computes the value Marshal returns")
	b := bx()
	b.CallPath = &document.CallPath{Functions: []string{mod + ".BenchmarkX", mod + ".Marshal", mod + ".(*frozenConfig).Marshal"}}
	inner := bx() // a benchmark of the module's own code that calls Marshal
	inner.CallPath = &document.CallPath{Functions: []string{mod + ".BenchmarkX", mod + ".(*Encoder).Encode", mod + ".Marshal", mod + ".(*frozenConfig).Marshal"}}
	for _, tc := range []struct {
		name    string
		parts   []any
		section document.Section
	}{
		{"handed back to the benchmark", []any{b, gc(0.5), copied, returned, forwarded}, document.SectionAPI},
		{"used by the caller", []any{b, gc(0.5), copied, returned}, document.SectionFix},
		{"handed back to the module's own code", []any{inner, gc(0.5), copied, returned, forwarded}, document.SectionFix},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(tc.parts), Options{})
			if len(fs) != 1 || fs[0].Section != tc.section {
				t.Fatalf("findings %+v, want one in section %s", fs, tc.section)
			}
		})
	}
}

// TestFixedCapacityIsTheModules: a value the API returns whose buffer is
// made with a constant capacity the module chose (a fixed-capacity shape
// at its line: a logger's With() making 500 bytes for any child) is a
// cause to fix, sized from what it holds, not a cost of the API.
func TestFixedCapacityIsTheModules(t *testing.T) {
	ctx := site("Logger.With", "log.go", 281, 0.5)
	ctx.Escape = &document.Escape{Cause: "escapes", Sink: "return", Name: "make([]byte, 0, 500)"}
	returned := resultShape("returned-address", "Logger.With", "log.go", 281, "l.context is returned")
	fixed := resultShape("fixed-capacity", "Logger.With", "log.go", 281, "l.context is made with a constant capacity of 500 and given a copy of context, of any length, at line 283")
	fixed.Advice = "size it from what it holds: make(…, 0, len(context)+n)"
	for _, tc := range []struct {
		name    string
		parts   []any
		section document.Section
		want    string
	}{
		{"the API's", []any{bx(), gc(0.5), ctx, returned}, document.SectionAPI, "inherent to the API"},
		{"a constant capacity", []any{bx(), gc(0.5), ctx, returned, fixed}, document.SectionFix, "size it from what it holds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(tc.parts), Options{})
			if len(fs) != 1 || fs[0].Section != tc.section || !strings.Contains(fs[0].Suggestion, tc.want) {
				t.Fatalf("findings %v, want one in %s saying %q", fs, tc.section, tc.want)
			}
		})
	}
}

// TestAPICostCPUAtItsLine: the CPU time of making an API cost's value at
// its own line (string(b)'s copy under runtime.slicebytetostring, where
// the string is what the API returns) is that cost's, not a cause to fix
// told to "reuse buffers".
func TestAPICostCPUAtItsLine(t *testing.T) {
	str := site("(*Decoder).stringWithLen", "s.go", 59, 0.6)
	str.Escape = &document.Escape{Cause: "conversion", Name: "string(b)", Sink: "return"}
	forwarded := resultShape("result-forwarded", "(*Decoder).stringWithLen", "s.go", 56, "stringWithLen's result is what the exported (*Decoder).DecodeString returns")
	conv := call("(*Decoder).stringWithLen", "s.go", 59, "runtime.slicebytetostring", "strings", 0.12)
	fs, _ := Derive(specDoc([]any{bx(), gc(0.3), str, forwarded, conv}), Options{})
	var got []string
	for _, f := range fs {
		got = append(got, fmt.Sprintf("%s %s", f.Section, where(f.File, f.Line)))
	}
	if want := []string{"api s.go:59"}; !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
}

// TestLibraryCallAtAPILine: a library call at an API cost's line that is
// no part of making its value (a regexp run there) stays a cause to fix.
func TestLibraryCallAtAPILine(t *testing.T) {
	str := site("(*Decoder).stringWithLen", "s.go", 59, 0.6)
	str.Escape = &document.Escape{Cause: "conversion", Name: "string(b)", Sink: "return"}
	forwarded := resultShape("result-forwarded", "(*Decoder).stringWithLen", "s.go", 56, "stringWithLen's result is what the exported (*Decoder).DecodeString returns")
	re := call("(*Decoder).stringWithLen", "s.go", 59, "regexp.(*Regexp).FindString", "regexp", 0.3)
	fs, _ := Derive(specDoc([]any{bx(), gc(0.3), str, forwarded, re}), Options{})
	var got []string
	for _, f := range fs {
		got = append(got, fmt.Sprintf("%s %s", f.Section, where(f.File, f.Line)))
	}
	if want := []string{"fix s.go:59", "api s.go:59"}; !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
}

// TestCallerMapFilled: the stores that fill a map the caller gets, made
// with its size (through a pointer parameter, in a function the API
// reaches only through a func value), are the decoding itself: no
// "fewer lookups" cause; other map access in the function still is one.
func TestCallerMapFilled(t *testing.T) {
	store := call("(*Decoder).decodeMapStringStringPtr", "m.go", 130, "runtime.mapassign_faststr", "maps", 0.2)
	shape := resultShape("result-computed", "(*Decoder).decodeMapStringStringPtr", "m.go", 130,
		"m[mk] stores into the map decodeMapStringStringPtr fills for its caller through ptr, made with its size (make(map[string]string, ln)): its storage is the result")
	lookup := call("(*Decoder).decodeMapStringStringPtr", "m.go", 125, "runtime.mapaccess1_faststr", "maps", 0.2)
	for _, tc := range []struct {
		name  string
		parts []any
		want  int
	}{
		{"no shape", []any{store}, 1},
		{"the caller's sized map", []any{store, shape}, 0},
		{"a lookup beside it", []any{store, shape, src(lookup, "v := d.cache[k]")}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(append([]any{bx()}, tc.parts...)), Options{})
			n := 0
			for _, f := range fs {
				if f.Section == document.SectionFix && strings.Contains(f.Suggestion, "fewer lookups") {
					n++
				}
			}
			if n != tc.want {
				t.Errorf("%d findings told fewer lookups, want %d: %v", n, tc.want, fs)
			}
		})
	}
}

// TestSetMapIndexWords: reflect.Value.SetMapIndex stores an entry, copying
// its key and value into the map: no lookup to save, and the values it
// was given can serve the next entry.
func TestSetMapIndexWords(t *testing.T) {
	fs, _ := Derive(specDoc([]any{bx(),
		call("(*Decoder).decodeTypedMapValue", "m.go", 269, "reflect.Value.SetMapIndex", "maps", 0.05),
		call("(*Decoder).decodeTypedMapValue", "m.go", 259, "reflect.Value.Elem", "reflect", 0.02),
		call("(*Decoder).decodeTypedMapValue", "m.go", 264, "reflect.Value.Elem", "reflect", 0.02)}), Options{})
	if len(fs) != 1 {
		t.Fatalf("findings %v, want 1", kinds(fs))
	}
	if s := fs[0].Suggestion; strings.Contains(s, "fewer lookups") || !strings.Contains(s, "SetZero") {
		t.Errorf("suggestion %q, want the reuse of the key and value SetMapIndex copies", s)
	}
}

// TestResultWithARewrite: the value an exported function returns, made
// at a line where a mechanical rewrite makes the same value more cheaply
// (return fmt.Sprintf("%d", id): strconv.Itoa), is a cause to fix, not a
// cost of the API.
func TestResultWithARewrite(t *testing.T) {
	box := site("Label", "l.go", 34, 0.9)
	box.Escape = &document.Escape{Cause: "interface", Name: "id"}
	box.Via = "fmt.Sprintf"
	computed := resultShape("result-computed", "Label", "l.go", 34, "fmt.Sprintf computes the string Label returns")
	rewrite := document.Shape{Name: "sprintf-simple", File: "l.go", Line: 34, Function: mod + ".Label",
		Says: `fmt.Sprintf("%d", id) formats one integer`, Advice: "strconv.Itoa(id)", Rewrite: "strconv"}
	for _, tc := range []struct {
		name    string
		shapes  []any
		section document.Section
	}{
		{"the result, no cheaper way", []any{computed}, document.SectionAPI},
		{"the result, made more cheaply by a rewrite", []any{computed, rewrite}, document.SectionFix},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(append([]any{bx(), gc(0.5), box}, tc.shapes...)), Options{})
			if len(fs) == 0 {
				t.Fatal("no finding")
			}
			if f := fs[0]; f.Section != tc.section {
				t.Errorf("%s:%d in section %s (%q), want %s", f.File, f.Line, f.Section, f.Suggestion, tc.section)
			}
		})
	}
}

// TestCallInputs: a library call's fallback advice ("call it less: cache
// its result") stands only where the call's inputs can recur (a
// call-inputs-recur shape: constants, or values its loop does not
// change), and then with the shape's words; a call on what the function
// was given (a call-on-inputs shape: truncDigits's QuoRem of its
// parameter) is the function's work on its inputs, with no cache advice.
// The shape is the one of the profiled call when a line has several
// (the profile names big.(*Int).exp for Exp).
func TestCallInputs(t *testing.T) {
	onInputs := func(fn string, line int64, says string) document.Shape {
		s := resultShape("call-on-inputs", fn, "math.go", line, says)
		s.Advice, s.OwnWork = "the call is "+fn+"'s own work on its inputs, once per call: there is no result to cache, and fewer or cheaper calls is a change to the algorithm", true
		return s
	}
	recur := resultShape("call-inputs-recur", "getTag", "math.go", 40, `strings.Split(c.TagName, ",")'s inputs do not change in the loop at lines 38–45: every iteration computes the same value`)
	recur.Advice = "call it once before the loop and keep the result"
	for _, tc := range []struct {
		name      string
		parts     []any
		want, not string
		generic   bool
	}{
		{"no shape: the category's words", []any{call("truncDigits", "math.go", 272, "math/big.(*Int).QuoRem", "other", 0.4)},
			"call it less", "", true},
		{"a call on its parameter", []any{call("truncDigits", "math.go", 272, "math/big.(*Int).QuoRem", "other", 0.4),
			onInputs("truncDigits", 272, "m.QuoRem(m, pow10(drop), &r) works on what truncDigits is given (m, w)")},
			"m.QuoRem(m, pow10(drop), &r) works on what truncDigits is given (m, w): the call is truncDigits's own work", "cache its result", true},
		{"the profiled call of two on a line", []any{call("expHull", "math.go", 770, "math/big.(*Int).exp", "other", 0.4),
			onInputs("expHull", 770, "big.NewInt(ki) works on what expHull is given (d)"),
			onInputs("expHull", 770, "new(big.Int).Exp(sum.getValue(), big.NewInt(ki), nil) works on what expHull is given (d)")},
			"new(big.Int).Exp(sum.getValue(), big.NewInt(ki), nil) works on", "cache its result", true},
		{"the calls of a spread cost", []any{call("decodeSlice", "math.go", 1423, "reflect.valueInterface", "other", 0.05),
			call("decodeSlice", "math.go", 1430, "reflect.Value.Set", "other", 0.04),
			onInputs("decodeSlice", 1423, "dataVal.Index(i) works on what decodeSlice is given (data)"),
			onInputs("decodeSlice", 1423, "dataVal.Index(i).Interface() works on what decodeSlice is given (data)")},
			"dataVal.Index(i).Interface() works on", "cache its result", true},
		{"a conversion of its input", []any{call("decodeSlice", "math.go", 1429, "strconv.FormatInt", "strings", 0.4),
			onInputs("decodeSlice", 1429, "strconv.FormatInt(dataVal.Int(), 10) works on what decodeSlice is given (data)")},
			"strconv.FormatInt(dataVal.Int(), 10) works on", "convert once", true},
		{"string work on its input", []any{call("NewFromString", "math.go", 250, "strings.Replace", "strings", 0.4),
			onInputs("NewFromString", 250, `strings.Replace(value, "\u2212", "-", -1) works on what NewFromString is given (value)`)},
			"strings.Replace(value", "reuse buffers", true},
		// A spread cost one of whose lines looks up what is the same
		// for every value of a type: that is what to keep.
		{"a spread cost with a line that recurs per type", []any{call("getUnmarshaler", "math.go", 1934, "reflect.Value.Addr", "other", 0.05),
			call("getUnmarshaler", "math.go", 1936, "reflect.(*rtype).NumMethod", "other", 0.04),
			onInputs("getUnmarshaler", 1934, "val.Addr() works on what getUnmarshaler is given (val)"),
			func() document.Shape {
				s := resultShape("call-inputs-recur", "getUnmarshaler", "math.go", 1936, "ptrVal.Type().NumMethod() reads type information (reflection's description of a type) and values that recur: the same for every value of the type")
				s.Advice = "work it out once per type and keep it, keyed by the reflect.Type"
				return s
			}()},
			"ptrVal.Type().NumMethod() reads type information", "own work on its inputs", false},
		// The line's only shape is about another call on it (Type(),
		// where the profile's time is in ConvertibleTo): not its words.
		{"a shape of another call on the line", []any{call("isEq", "math.go", 1364, "reflect.(*rtype).ConvertibleTo", "reflect", 0.4),
			onInputs("isEq", 1364, "topField.Type() works on what isEq is given (fl)")},
			"reflect once", "topField.Type()", true},
		// Reflection on the values given (each element's Set): a
		// cache per type keeps none of it.
		{"reflection on its inputs", []any{call("decodeSlice", "math.go", 1436, "reflect.Value.Set", "reflect", 0.4),
			onInputs("decodeSlice", 1436, "val.Set(valSlice) works on what decodeSlice is given (data, val)")},
			"val.Set(valSlice) works on what decodeSlice is given (data, val): the call is decodeSlice's own work on its inputs", "cache what it finds (per type)", true},
		// A method with state on what the function is given: the
		// profiled call is read from "works on the state of".
		{"a method with state", []any{call("Next", "math.go", 100, "text/scanner.(*Scanner).Scan", "other", 0.4),
			func() document.Shape {
				s := resultShape("call-on-inputs", "Next", "math.go", 100, "t.scanner.Scan() works on the state of t.scanner (Scan has a pointer receiver), which Next is given")
				s.Advice, s.OwnWork = "the call is Next's own work on the state it is given, once per call: its result follows that state, so there is no result to cache", true
				return s
			}()},
			"t.scanner.Scan() works on the state of t.scanner", "cache its result", true},
		// A cache's map store of the key it is given: its own work,
		// never "look up once and keep the value".
		{"a map store on its inputs", []any{call("(*cache).Set", "math.go", 61, "runtime.mapassign_faststr", "maps", 0.4),
			func() document.Shape {
				s := resultShape("map-on-inputs", "(*cache).Set", "math.go", 61, "c.items[k] = Item{…} stores into c.items, with what Set is given (c, k)")
				s.Advice, s.OwnWork = "the map operation is Set's own work on its inputs, once per call, not work repeated", true
				return s
			}()},
			"stores into c.items, with what Set is given (c, k): the map operation is Set's own work", "fewer lookups", true},
		{"a lookup in a fixed table of small keys", []any{call("(*Parser).parseExpression", "math.go", 154, "runtime.mapaccess1_fast64", "maps", 0.4),
			func() document.Shape {
				s := resultShape("map-small-key", "(*Parser).parseExpression", "math.go", 154, "bindingPowers[currentToken] looks a key up in bindingPowers, a fixed table of 24 entries keyed by tokType constants from 0 to 23: each lookup hashes the key and probes the map")
				s.Advice = "make bindingPowers an array indexed by the key ([24]int, filled by the same literal)"
				return s
			}()},
			"a fixed table of 24 entries keyed by tokType constants from 0 to 23: each lookup hashes the key and probes the map: make bindingPowers an array", "fewer lookups", false},
		{"a value computed for readers", []any{call("(*StandardMeter).updateSnapshot", "math.go", 209, "time.Since", "other", 0.4),
			func() document.Shape {
				s := resultShape("computed-for-readers", "(*StandardMeter).updateSnapshot", "math.go", 209, "updateSnapshot computes rateMean on every call and stores it in m.snapshot.rateMean, which only RateMean, Snapshot read")
				s.Advice = "compute it on read (in RateMean, Snapshot, from the state it comes from) instead of on every updateSnapshot: the writers then only record"
				return s
			}()},
			"only RateMean, Snapshot read: compute it on read", "call it less", false},
		{"a map lookup with no shape", []any{call("(*cache).Set", "math.go", 61, "runtime.mapaccess2_faststr", "maps", 0.4)},
			"fewer lookups", "own work", true},
		{"inputs that recur", []any{call("getTag", "math.go", 40, "strings.genSplit", "other", 0.4), recur},
			"every iteration computes the same value: call it once before the loop", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(append([]any{bx()}, tc.parts...)), Options{})
			if len(fs) != 1 {
				t.Fatalf("findings %v, want 1", kinds(fs))
			}
			f := fs[0]
			if !strings.Contains(f.Suggestion, tc.want) || tc.not != "" && strings.Contains(f.Suggestion, tc.not) || f.Generic != tc.generic {
				t.Errorf("suggestion %q (generic %v), want %q without %q (generic %v)", f.Suggestion, f.Generic, tc.want, tc.not, tc.generic)
			}
		})
	}
}

// TestOwnCodeLines: a function whose cost is its own code is told where:
// its hottest lines with their share and sample count, a loop's lines as
// the loop a "loop" shape describes (the trailing-zero count of a
// Normalize), other lines by their source. It only describes, so the
// finding stays generic.
func TestOwnCodeLines(t *testing.T) {
	parts := []any{sampled(bx(), 400),
		src(own("Decimal.Normalize", "d.go", 752, 0.20), "for x := v.Int64(); x%10 == 0; x /= 10 {"),
		src(own("Decimal.Normalize", "d.go", 753, 0.04), "zeros++"),
		src(own("Decimal.Normalize", "d.go", 760, 0.03), "zeros = room"),
		src(own("Decimal.Normalize", "d.go", 770, 0.0025), "return d")}
	loop := document.Shape{Name: "loop", File: "d.go", Line: 752, Function: mod + ".Decimal.Normalize",
		Related: []document.Location{{File: "d.go", Line: 754}},
		Says:    "the loop at lines 752–754 runs while x%10 == 0, x /= 10 per iteration, counting zeros"}
	for _, tc := range []struct {
		name   string
		shapes []any
		want   []string
	}{
		{"no shape: the lines by their source", nil,
			[]string{"line 752 `for x := v.Int64(); x%10 == 0; x /= 10 {` (20% of BenchmarkX, 80 samples)", "line 753 `zeros++` (4%, 16 samples)", "line 760 `zeros = room` (3%, 12 samples)"}},
		{"the loop's lines as the loop", []any{loop},
			[]string{"the loop at lines 752–754 runs while x%10 == 0, x /= 10 per iteration, counting zeros (24% of BenchmarkX, 96 samples)", "line 760 `zeros = room` (3%, 12 samples)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(append(slices.Clone(parts), tc.shapes...)), Options{})
			if len(fs) != 1 {
				t.Fatalf("findings %v, want 1", kinds(fs))
			}
			f := fs[0]
			for _, w := range tc.want {
				if !strings.Contains(f.Suggestion, w) {
					t.Errorf("suggestion %q, want %q", f.Suggestion, w)
				}
			}
			if !f.Generic {
				t.Errorf("suggestion %q not generic: it only describes", f.Suggestion)
			}
		})
	}
}

// TestConversionKept: a string(b) conversion that escapes only because
// the function it is passed to keeps its parameter in an error message
// (a conversion-kept shape: UnmarshalJSON's string(decimalBytes) handed
// to NewFromString) is told that, and to copy on the error path only —
// not "keep one representation".
func TestConversionKept(t *testing.T) {
	conv := site("(*Decimal).UnmarshalJSON", "encoding.go", 18, 0.6)
	conv.Escape = &document.Escape{Cause: "conversion", Name: "string(decimalBytes)", Sink: "call", Into: "NewFromString",
		Fix: "keep one representation (string or []byte) through the hot path; strconv.Append* for numbers"}
	kept := document.Shape{Name: "conversion-kept", File: "encoding.go", Line: 18, Function: mod + ".(*Decimal).UnmarshalJSON",
		Says:   "string(decimalBytes) is passed to NewFromString, whose error message at line 259 keeps its parameter value: the copy escapes to the heap on every call, error or not",
		Advice: "have NewFromString copy value only on its error paths (strings.Clone(value) in the error's arguments), so the conversion can stay on the stack for short inputs"}
	for _, tc := range []struct {
		name    string
		shapes  []any
		want    string
		generic bool
	}{
		{"no shape", nil, "keep one representation", true},
		{"kept by the callee's error", []any{kept}, "copy value only on its error paths", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(append([]any{bx(), gc(0.5), conv}, tc.shapes...)), Options{})
			if len(fs) == 0 {
				t.Fatal("no finding")
			}
			f := fs[0]
			if !strings.Contains(f.Suggestion, tc.want) || f.Generic != tc.generic {
				t.Errorf("suggestion %q (generic %v), want %q (generic %v)", f.Suggestion, f.Generic, tc.want, tc.generic)
			}
		})
	}
}

// TestRecurringInputsAlloc: an allocation inside a library call whose
// inputs recur (a call-inputs-recur shape: the same tag name split on
// every call, as every caller passes the decoder's configuration) takes
// the shape's words, not "call it less (cache its result)".
func TestRecurringInputsAlloc(t *testing.T) {
	split := site("splitTagNames", "m.go", 1900, 0.5)
	split.Via, split.Escape = "strings.Split", nil
	shape := resultShape("call-inputs-recur", "splitTagNames", "m.go", 1900,
		`strings.Split(tagName, ",") is given the same values on every call of splitTagNames: tagName is d.config.TagName at every call`)
	shape.Advice = "compute its value once where those values are set (beside them, or when the object is made) and pass the result down"
	for _, tc := range []struct {
		name    string
		shapes  []any
		want    string
		generic bool
	}{
		{"no shape", nil, "a buffer you keep", true},
		{"the same tag name on every call", []any{shape}, "tagName is d.config.TagName at every call: compute its value once", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(append([]any{bx(), gc(0.5), split}, tc.shapes...)), Options{})
			if len(fs) == 0 {
				t.Fatal("no finding")
			}
			f := fs[0]
			if !strings.Contains(f.Suggestion, tc.want) || f.Generic != tc.generic {
				t.Errorf("suggestion %q (generic %v), want %q (generic %v)", f.Suggestion, f.Generic, tc.want, tc.generic)
			}
		})
	}
}

// TestAllocOnInputs: an allocation inside a library call on what its
// function was given (Normalize's v.String() of its receiver's value) is
// not told to cache the call's result.
func TestAllocOnInputs(t *testing.T) {
	str := site("Decimal.normalize", "d.go", 761, 0.5)
	str.Via, str.Escape = "math/big.(*Int).String", nil
	shape := resultShape("call-on-inputs", "Decimal.normalize", "d.go", 761, "v.String() works on what normalize is given (d)")
	shape.Advice, shape.OwnWork = "the call is normalize's own work on its inputs, once per call: there is no result to cache, and fewer or cheaper calls is a change to the algorithm", true
	for _, tc := range []struct {
		name      string
		shapes    []any
		want, not string
	}{
		{"no shape", nil, "a buffer you keep", "cache its result"},
		{"a call on its receiver's value", []any{shape}, "v.String() works on what normalize is given (d)", "cache its result"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(append([]any{bx(), gc(0.5), str}, tc.shapes...)), Options{})
			if len(fs) == 0 {
				t.Fatal("no finding")
			}
			f := fs[0]
			if !strings.Contains(f.Suggestion, tc.want) || tc.not != "" && strings.Contains(f.Suggestion, tc.not) || !f.Generic {
				t.Errorf("suggestion %q (generic %v), want %q without %q, generic", f.Suggestion, f.Generic, tc.want, tc.not)
			}
		})
	}
}

// TestErrorBuiltOnItsPath: fmt.Errorf's time at a return on a function's
// error path (an error-built shape) is the benchmark failing on every op:
// the advice says so, not "strconv.Append* instead of fmt".
func TestErrorBuiltOnItsPath(t *testing.T) {
	errorf := call("(*Decoder).Decode", "m.go", 538, "fmt.Errorf", "fmt", 0.33)
	shape := resultShape("error-built", "(*Decoder).Decode", "m.go", 538, "fmt.Errorf builds the error Decode returns when errors.As(err, &joinedErr): its error path, taken on every op where this line is hot")
	shape.Advice = "check that the benchmark's input is meant to fail; if it is, the cost is the error's text: an error type that keeps the cause and formats in its Error method builds it only when it is read"
	for _, tc := range []struct {
		name      string
		parts     []any
		want, not string
	}{
		{"no shape", []any{bx(), errorf}, "strconv.Append", "error path"},
		{"on its error path", []any{bx(), errorf, shape}, "its error path, taken on every op", "strconv.Append"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(tc.parts), Options{})
			if len(fs) != 1 || !strings.Contains(fs[0].Suggestion, tc.want) || strings.Contains(fs[0].Suggestion, tc.not) {
				t.Fatalf("findings %v: want one whose advice says %q, not %q", fs, tc.want, tc.not)
			}
		})
	}
}

// TestHelperJoinsItsOnlyCaller: a function's allocations join the cause
// of the function that calls it when that caller makes nearly all of them
// (a helper), or when they are its result (a constructor and the caller
// making most of its values); a function that two entry points call on
// their own paths (a validator's traversal under its struct and its value
// entry points, 60/40) is a cause of its own.
func TestHelperJoinsItsOnlyCaller(t *testing.T) {
	at := func(a document.Allocation, parent string, share float64) document.Allocation {
		a.Parent, a.BytesShare, a.ObjectsShare = mod+"."+parent, share, share
		return a
	}
	caller := site("VarCtx", "v.go", 10, 0.2)
	for _, tc := range []struct {
		name  string
		parts []any
		want  int
	}{
		{"a helper of one caller", []any{bx(), caller, at(site("traverse", "t.go", 50, 0), "VarCtx", 0.5)}, 1},
		{"a function of two entry points", []any{bx(), caller, at(site("traverse", "t.go", 50, 0), "VarCtx", 0.3), at(site("traverse", "t.go", 51, 0), "validateStruct", 0.2)}, 2},
		{"an exported constructor of two callers", []any{bx(), caller, at(escapesByResult(site("NewFrame", "t.go", 50, 0)), "VarCtx", 0.3), at(escapesByResult(site("NewFrame", "t.go", 50, 0)), "validateStruct", 0.2)}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(tc.parts), Options{})
			if len(fs) != tc.want {
				t.Errorf("%d findings %v, want %d", len(fs), fs, tc.want)
			}
		})
	}
}

// TestOwnCodeKeepsItsAllocation: a function led by its own code (an
// interpreter's loop) that also allocates at another line keeps that
// allocation's advice beside its own.
func TestOwnCodeKeepsItsAllocation(t *testing.T) {
	stack := site("(*VM).Run", "vm.go", 73, 0.6)
	stack.Escape = &document.Escape{Cause: "escapes", Sink: "heap", Name: "make([]any, 0, 2)",
		Flow: []string{"flow: {heap} ← &{storage for make([]any, 0, 2)}:", "  from vm.Stack = make([]any, 0, 2) (assign) at vm.go:73:12"}}
	fs, _ := Derive(specDoc([]any{bx(), own("(*VM).Run", "vm.go", 131, 0.5), call("(*VM).Run", "vm.go", 120, "runtime.mapaccess1_faststr", "maps", 0.3), stack}), Options{})
	if len(fs) != 1 {
		t.Fatalf("findings %v, want 1", kinds(fs))
	}
	if !strings.Contains(fs[0].Suggestion, "the allocation at vm.go:73: the value is stored in vm.Stack") {
		t.Errorf("suggestion %q: want the allocation's advice too", fs[0].Suggestion)
	}
}

// TestShapeAtTheLeadingLine: a function whose cost is spread over many
// lines (a validator's traversal) takes the advice of the shape at the
// line that leads it, though that line holds less than AdviceShare of
// the whole.
func TestShapeAtTheLeadingLine(t *testing.T) {
	parts := []any{bx(), call("traverse", "v.go", 318, "reflect.Value.MapKeys", "reflect", 0.10)}
	for i := int64(0); i < 9; i++ {
		parts = append(parts, own("traverse", "v.go", 400+10*i, 0.07))
	}
	s := resultShape("map-keys-index", "traverse", "v.go", 318, "the loop at lines 318–360 ranges over current.MapKeys(), which copies every key into a new []reflect.Value")
	s.Advice = "iterate with iter := current.MapRange()"
	fs, _ := Derive(specDoc(append(parts, s)), Options{})
	if len(fs) == 0 || fs[0].Shape != "map-keys-index" {
		t.Fatalf("findings %v: want the first with the map-keys-index advice", fs)
	}
}

// TestInterfaceDispatchOwnCode: a func literal whose own code is one
// call through an interface (return a.Less(b)) takes the shape's words:
// the dynamic call the API makes, not "the algorithm itself".
func TestInterfaceDispatchOwnCode(t *testing.T) {
	s := resultShape("interface-dispatch", "init.func1", "btree.go", 905, "a.Less(b), the function's whole body, calls Less through the Item interface: a dynamic call on every call, which the compiler cannot inline")
	s.Function = ""
	s.Advice = "inherent to an interface-based API: a type parameter over the concrete type"
	for _, tc := range []struct {
		name  string
		parts []any
		want  string
	}{
		{"no shape", []any{bx(), own("init.func1", "btree.go", 905, 0.4)}, "the algorithm itself"},
		{"dispatch", []any{bx(), own("init.func1", "btree.go", 905, 0.4), s}, "calls Less through the Item interface"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(tc.parts), Options{})
			if len(fs) != 1 || !strings.Contains(fs[0].Suggestion, tc.want) {
				t.Fatalf("findings %v: want one saying %q", fs, tc.want)
			}
		})
	}
}

// TestOwnWorkRanksLow: a cause whose advice says the code is its
// function's own work on what it is given (a call-on-inputs shape, a
// result computed from inputs that hardly recur) names no change: it
// ranks as a function's own algorithm does, after a cause of lower cost
// with a change to make, its severity is low, and it is marked no_change.
// Such a shape at a line
// other than the one that leads a cause does not replace that line's
// advice (a sync.Map lookup that a fetch leads with, and value.Interface()
// computing the fetch's result at another line).
func TestOwnWorkRanksLow(t *testing.T) {
	onInputs := resultShape("call-on-inputs", "truncDigits", "math.go", 272, "m.QuoRem(m, pow10(drop), &r) works on what truncDigits is given (m, w)")
	onInputs.Advice, onInputs.OwnWork = "the call is truncDigits's own work on its inputs, once per call: there is no result to cache", true
	recur := resultShape("call-inputs-recur", "getTag", "tag.go", 40, `strings.Split(c.TagName, ",")'s inputs do not change in the loop at lines 38–45: every iteration computes the same value`)
	recur.Advice = "call it once before the loop and keep the result"
	fs, _ := Derive(specDoc([]any{bx(),
		call("truncDigits", "math.go", 272, "math/big.(*Int).QuoRem", "other", 0.4), onInputs,
		call("getTag", "tag.go", 40, "strings.genSplit", "other", 0.2), recur}), Options{})
	if len(fs) != 2 {
		t.Fatalf("findings %v, want 2", kinds(fs))
	}
	if fs[0].Function != mod+".getTag" || fs[1].Function != mod+".truncDigits" {
		t.Errorf("order %s, %s; want getTag (a change to make) before truncDigits (its own work)", fs[0].Function, fs[1].Function)
	}
	if fs[1].Severity != document.SeverityLow {
		t.Errorf("truncDigits severity %s, want low", fs[1].Severity)
	}
	if fs[0].NoChange || !fs[1].NoChange {
		t.Errorf("no_change getTag %v, truncDigits %v; want false, true", fs[0].NoChange, fs[1].NoChange)
	}

	computed := resultShape("result-computed", "fetch", "rt.go", 81, "value.Interface() computes the value fetch returns")
	computed.Advice, computed.OwnWork = "the call is fetch's result, computed from what it is given: its own work, with no result to keep", true
	fs, _ = Derive(specDoc([]any{bx(),
		call("fetch", "rt.go", 79, "sync.(*Map).Load", "other", 0.36),
		call("fetch", "rt.go", 81, "reflect.valueInterface", "other", 0.16), computed}), Options{})
	if len(fs) != 1 {
		t.Fatalf("findings %v, want 1", kinds(fs))
	}
	if f := fs[0]; !strings.Contains(f.Suggestion, "the lookup is the cache") || f.Severity == document.SeverityLow {
		t.Errorf("fetch: %q (severity %s), want the sync.Map lookup's advice, not low", f.Suggestion, f.Severity)
	}
}

// TestOwnCodeLoopAdvice: a function whose own code is a loop another way
// does in far fewer steps (a "loop" shape with advice: a binary search of
// a property table per rune) is told that way, not "the algorithm
// itself", and is a cause to fix: not generic, and not ranked or bounded
// as an algorithm with nothing to change.
func TestOwnCodeLoopAdvice(t *testing.T) {
	loop := document.Shape{Name: "loop", File: "p.go", Line: 140, Function: mod + ".propertySearch[...]",
		Related: []document.Location{{File: "p.go", Line: 152}},
		Says:    "the loop at lines 140–152 runs while to > from: a binary search of dictionary",
		Advice:  "each call makes about log2 n probes, each a load the next one waits for and a branch the processor cannot predict: answer the common inputs before the search"}
	fs, _ := Derive(specDoc([]any{sampled(bx(), 400),
		src(own("propertySearch[...]", "p.go", 141, 0.30), "middle := (from + to) / 2"),
		src(own("propertySearch[...]", "p.go", 142, 0.15), "cpLower := dictionary[middle][0]"),
		loop}), Options{})
	if len(fs) != 1 {
		t.Fatalf("findings %v, want 1", kinds(fs))
	}
	f := fs[0]
	if !strings.Contains(f.Suggestion, "a binary search of dictionary (45% of BenchmarkX, 180 samples) — each call makes about log2 n probes") || strings.Contains(f.Suggestion, "the algorithm itself") {
		t.Errorf("suggestion %q, want the loop's advice", f.Suggestion)
	}
	if f.Generic || f.Severity != document.SeverityHigh {
		t.Errorf("generic %v, severity %s; want a specific, high finding (%q)", f.Generic, f.Severity, f.Suggestion)
	}
}

// TestOwnCodeAtFloor: a function whose own code is mostly a scan at one
// table lookup per byte (a "loop" shape marked own work: an escaper's
// `if !noEscapeTable[s[i]]`) has nothing to gain: it is left alone, with
// the loop's words, never a fix; the same lines in a loop with no such
// shape are the function's algorithm, a fix.
func TestOwnCodeAtFloor(t *testing.T) {
	loop := document.Shape{Name: "loop", File: "s.go", Line: 48, Function: mod + ".Encoder.AppendString", OwnWork: true,
		Related: []document.Location{{File: "s.go", Line: 58}},
		Says:    "the loop at lines 48–58 runs while i < len(s): a byte-at-a-time scan of s through noEscapeTable, one table lookup and one branch per byte until the first byte it stops at",
		Advice:  "leave it: at one load and one compare per byte the scan is at its floor"}
	parts := []any{sampled(bx(), 400),
		src(own("Encoder.AppendString", "s.go", 52, 0.30), "if !noEscapeTable[s[i]] {"),
		src(own("Encoder.AppendString", "s.go", 46, 0.05), "dst = append(dst, '\"')")}
	fs, _ := Derive(specDoc(append(parts, loop)), Options{})
	if len(fs) != 1 {
		t.Fatalf("findings %v, want 1", kinds(fs))
	}
	if f := fs[0]; f.Section != document.SectionLeaveAlone || f.Rule != document.RuleLeaveFloor || !strings.Contains(f.Suggestion, "leave it: at one load and one compare per byte") {
		t.Errorf("%s %s %q; want leave-alone, leave-floor, with the loop's words", f.Section, f.Rule, f.Suggestion)
	}
	loop.OwnWork, loop.Says, loop.Advice = false, "the loop at lines 48–58 runs while i < len(s)", ""
	fs, _ = Derive(specDoc(append(parts, loop)), Options{})
	if len(fs) != 1 || fs[0].Section != document.SectionFix {
		t.Errorf("findings %v, want the function's algorithm, a fix", kinds(fs))
	}
}

// TestDispatchedMethod: a one-line method whose cost is its own code
// (Int.Less's `return a < b.(Int)`), where the module calls it through
// an interface (an interface-dispatch shape at a comparator's `return
// a.Less(b)`), is that dispatch's cost: one finding, not two; a method
// of another name stays its own.
func TestDispatchedMethod(t *testing.T) {
	dispatch := document.Shape{Name: "interface-dispatch", File: "b.go", Line: 905,
		Says:   "a.Less(b), the function's whole body, calls Less through the Item interface: a dynamic call on every call, which the compiler cannot inline",
		Advice: "inherent to an interface-based API: a type parameter over the concrete type"}
	for _, tc := range []struct {
		method string
		want   int
	}{{"Int.Less", 1}, {"Int.Greater", 2}} {
		fs, _ := Derive(specDoc([]any{sampled(bx(), 400),
			own("init.func1", "b.go", 905, 0.27),
			own(tc.method, "b.go", 892, 0.16),
			dispatch}), Options{})
		if len(fs) != tc.want {
			t.Errorf("%s: findings %v, want %d", tc.method, kinds(fs), tc.want)
			continue
		}
		if tc.want == 1 && (fs[0].Line != 905 || !strings.Contains(fs[0].Message, "the method it calls, Int.Less: 16%")) {
			t.Errorf("%s: %s:%d %q, want the dispatch's finding naming the method", tc.method, fs[0].File, fs[0].Line, fs[0].Message)
		}
	}
}

// TestDeferNotOpenCoded: a function's time in the runtime's defer
// machinery (runtime.deferreturn at its closing brace, deferprocStack at
// the defer) is named as defers run through the runtime, never "call it
// less: cache its result"; with a defer-not-open-coded shape at the
// closing brace (a line-break state machine's one defer and 19 returns)
// the advice is the shape's.
func TestDeferNotOpenCoded(t *testing.T) {
	parts := []any{sampled(bx(), 400),
		call("transition", "l.go", 626, "runtime.deferreturn", "application", 0.3),
		call("transition", "l.go", 465, "runtime.deferprocStack", "application", 0.05),
		own("transition", "l.go", 500, 0.2)}
	shape := document.Shape{Name: "defer-not-open-coded", File: "l.go", Line: 626, Function: mod + ".transition",
		Related: []document.Location{{File: "l.go", Line: 465}},
		Says:    "the defer at line 465 is not open-coded: transition has 19 return statements and 1 defer",
		Advice:  "move the body with its returns into a function of its own and do the deferred work after calling it"}
	for _, tc := range []struct {
		name    string
		shapes  []any
		want    string
		generic bool
	}{
		{"the runtime's words", nil, "the function's defers are not open-coded", true},
		{"the shape's words", []any{shape}, "the defer at line 465 is not open-coded: transition has 19 return statements and 1 defer: move the body", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(append(slices.Clone(parts), tc.shapes...)), Options{})
			if len(fs) != 1 {
				t.Fatalf("findings %v, want 1", kinds(fs))
			}
			f := fs[0]
			if !strings.Contains(f.Message, "running defers through the runtime (runtime.deferreturn) 30%") ||
				!strings.Contains(f.Suggestion, tc.want) || strings.Contains(f.Suggestion, "cache its result") || f.Generic != tc.generic {
				t.Errorf("%q: %q (generic %v), want %q (generic %v)", f.Message, f.Suggestion, f.Generic, tc.want, tc.generic)
			}
		})
	}
}

// TestWrapperCallJoinsCallee: a function whose own code is one line that
// only calls another module function with a CPU cause (a wrapper's
// `return propertySearch(dictionary, r)[2]`) is part of that cause, said
// in its words, not a finding of its own; a line that does more than the
// call stays its own.
func TestWrapperCallJoinsCallee(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      int
	}{
		{"the call alone", "return propertySearch(dictionary, r)[2]", 1},
		{"an assignment of it", "p := propertySearch(dictionary, r)", 1},
		{"more than the call", "return x*y + propertySearch(dictionary, r)[2]", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc([]any{sampled(bx(), 400),
				src(own("propertySearch[...]", "p.go", 144, 0.40), "if int(r) < cpRange[0] {"),
				src(own("property", "p.go", 160, 0.17), tc.src)}), Options{})
			if len(fs) != tc.want {
				t.Fatalf("findings %v, want %d", kinds(fs), tc.want)
			}
			if tc.want == 1 && !strings.Contains(fs[0].Message, "its call at p.go:160 in property: 17% of BenchmarkX's CPU") {
				t.Errorf("message %q, want the call's share", fs[0].Message)
			}
		})
	}
}

// TestReceiverCopiedAdvice: the allocation of a method that returns a
// heap copy of its receiver (a parser's Branch, passed to an interface's
// Parse) is told what the copy is and how copies are reused, not "make
// the call concrete".
func TestReceiverCopiedAdvice(t *testing.T) {
	br := site("(*parseContext).Branch", "context.go", 78, 0.5)
	br.Escape = &document.Escape{Cause: "escapes", Name: "&parseContext{}", Sink: "call", Into: "a.Parse",
		Fix: "make the call concrete, or keep one value and reuse it"}
	shape := resultShape("receiver-copied", "(*parseContext).Branch", "context.go", 78, "Branch returns a new heap copy of all of its receiver (a parseContext, 152 bytes) on every call")
	shape.Advice = "reuse the copies they are done with (a free list the caller owns; copies that nest can be a stack)"
	fs, _ := Derive(specDoc([]any{bx(), br, shape}), Options{})
	if len(fs) != 1 {
		t.Fatalf("findings %v, want 1", kinds(fs))
	}
	if f := fs[0]; !strings.Contains(f.Suggestion, "a new heap copy of all of its receiver (a parseContext, 152 bytes) on every call: reuse the copies") || f.Generic {
		t.Errorf("suggestion %q (generic %v), want the shape's", f.Suggestion, f.Generic)
	}
}

// TestNoChangeNamedFollows: a function whose parts are its own code and
// calls that are its own work on its inputs (a segmenter's loop and its
// utf8.DecodeRuneInString, profiled as utf8.decodeRuneInStringSlow) names
// no change: it follows a smaller cause that names one, at low severity.
func TestNoChangeNamedFollows(t *testing.T) {
	decode := resultShape("call-on-inputs", "First", "g.go", 309, "utf8.DecodeRuneInString(str[length:]) works on what First is given (str)")
	decode.Advice, decode.OwnWork = "the call is First's own work on its inputs, once per call: there is no result to cache", true
	recur := resultShape("call-inputs-recur", "getTag", "tag.go", 40, `strings.Split(c.TagName, ",")'s inputs do not change in the loop at lines 38–45: every iteration computes the same value`)
	recur.Advice = "call it once before the loop and keep the result"
	fs, _ := Derive(specDoc([]any{sampled(bx(), 1000),
		own("First", "g.go", 310, 0.40),
		call("First", "g.go", 309, "unicode/utf8.decodeRuneInStringSlow", "strings", 0.10), decode,
		call("getTag", "tag.go", 40, "strings.genSplit", "other", 0.15), recur}), Options{})
	if len(fs) != 2 {
		t.Fatalf("findings %v, want 2", kinds(fs))
	}
	if fs[0].Function != mod+".getTag" || fs[1].Function != mod+".First" || fs[1].Severity != document.SeverityLow {
		t.Errorf("order %s, %s (severity %s); want getTag, then First at low severity", fs[0].Function, fs[1].Function, fs[1].Severity)
	}
}

// TestConcatInLoopResult: a string an exported function builds with +=
// in a loop and returns (the compiler's flow ends in its result, directly
// or through a caller it is inlined into) is rebuilt once per iteration:
// a cause to fix with the concat-in-loop shape's words, not a cost of the
// API; without the shape, the returned string is the API's.
func TestConcatInLoopResult(t *testing.T) {
	cat := site("Join", "j.go", 27, 0.9)
	cat.Escape = &document.Escape{Cause: "concat", Name: "s", Sink: "return"}
	loop := resultShape("concat-in-loop", "Join", "j.go", 27, "s is built with += in a loop: every += copies the whole string so far into a new one")
	loop.Advice = "build it in a strings.Builder"
	for _, tc := range []struct {
		name    string
		parts   []any
		section document.Section
	}{
		{"rebuilt in a loop", []any{cat, loop}, document.SectionFix},
		{"built once", []any{cat}, document.SectionAPI},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(append([]any{bx(), gc(0.3)}, tc.parts...)), Options{})
			if len(fs) != 1 || fs[0].Section != tc.section {
				t.Fatalf("findings %v, want one in %s", kinds(fs), tc.section)
			}
			if tc.section == document.SectionFix && !strings.Contains(fs[0].Suggestion, "strings.Builder") {
				t.Errorf("suggestion %q, want the shape's", fs[0].Suggestion)
			}
		})
	}
}

// TestSortToSelectAdvice: a full sort to read one order statistic (a
// median's sort.Float64s, then values[n/2]) is told to select, not "sort
// once and keep the order".
func TestSortToSelectAdvice(t *testing.T) {
	shape := resultShape("sort-to-select", "median", "b.go", 424, "sort.Float64s(values) sorts all of values to read its middle (a median): values[n/2], values[n/2-1], an O(n log n) sort for one order statistic")
	shape.Advice = "select it instead of sorting: quickselect (partition around a pivot, keep the side that holds the index: O(n) on average) finds the middle"
	fs, _ := Derive(specDoc([]any{bx(), call("median", "b.go", 424, "sort.Float64s", "sort", 0.33), shape}), Options{})
	if len(fs) != 1 {
		t.Fatalf("findings %v, want 1", kinds(fs))
	}
	if f := fs[0]; !strings.Contains(f.Suggestion, "quickselect") || strings.Contains(f.Suggestion, "sort once and keep the order") || f.Generic {
		t.Errorf("suggestion %q (generic %v), want the shape's", f.Suggestion, f.Generic)
	}
}

// TestFastPathSplit: a function the compiler does not inline whose body
// returns early on its common inputs before its real work (a
// fast-path-split shape at its declaration) is told which lines to keep
// and which to move, not the budget's general words; one already split
// whose slow path the compiler inlines back (slow-path-inlined) is told
// to mark the slow path //go:noinline; one with neither names no change.
func TestFastPathSplit(t *testing.T) {
	shape := resultShape("fast-path-split", "lineBreak", "p.go", 166, "lineBreak returns early at lines 167–175 (r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', …); its other work, from line 176 (entry := propertySearch(lineBreakCodePoints, r)), is the slow path")
	shape.Related = []document.Location{{File: "p.go", Line: 167}, {File: "p.go", Line: 170}, {File: "p.go", Line: 176}}
	shape.Advice = "keep the early returns in lineBreak and move the rest into a function of its own marked //go:noinline"
	parts := []any{bx(), notInlined("lineBreak", "p.go", 166, 108, 80), flat("lineBreak", 0.06)}
	slow := resultShape("slow-path-inlined", "skipWS", "p.go", 166, "skipWS returns early at lines 167–169 (len(s) == 0 || s[0] > 0x20) and leaves the rest to skipWSSlow, which is small enough that the compiler inlines it into skipWS")
	slow.Advice = "mark skipWSSlow //go:noinline"
	for _, tc := range []struct {
		name    string
		shapes  []any
		want    string
		generic bool
	}{
		// No shape names what to split: the compiler's verdict is
		// where the time goes, no change ("where the rest of the time
		// goes").
		{"the budget's words", nil, "bring it under the inlining budget", true},
		{"the code's fast paths", []any{shape}, "lineBreak returns early at lines 167–175", false},
		{"the slow path inlined into the fast path", []any{slow}, "mark skipWSSlow //go:noinline", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(append(slices.Clone(parts), tc.shapes...)), Options{})
			if len(fs) != 1 {
				t.Fatalf("findings %v, want 1", kinds(fs))
			}
			if f := fs[0]; !strings.Contains(f.Suggestion, tc.want) || f.Generic != tc.generic || f.NoChange != tc.generic {
				t.Errorf("suggestion %q (generic %v, no change %v), want %q (generic and no change %v)", f.Suggestion, f.Generic, f.NoChange, tc.want, tc.generic)
			}
		})
	}
}

// TestDecodedValue: in a benchmark whose call path goes through the
// module's Unmarshal, the maps, slices, strings and boxed numbers of the
// decoded document are what the caller asked for (costs of the API); the
// decoder's own buffers are not, and neither are the same values in a
// benchmark that does not decode.
func TestDecodedValue(t *testing.T) {
	setBytes := document.Escape{Cause: "escapes", Sink: "heap", Name: "make([]byte, len(val))", Flow: []string{
		"flow: src ← &{storage for make([]byte, len(val))}:", "  from src = make([]byte, len(val)) (assign) at d.go:10:8",
		"flow: {heap} ← src:", "  from reflect.Value.SetBytes(v, src) (call parameter) at d.go:13:13"}}
	rawCopy := document.Escape{Cause: "append", Sink: "heap", Name: "append((*m)[0:0], data...)", Flow: []string{
		"flow: {heap} ← &{storage for append((*m)[0:0], data...)}:", "  from *m = append((*m)[0:0], data...) (assign) at d.go:10:5"}}
	for _, tc := range []struct {
		name    string
		path    []string
		escape  document.Escape
		via     string
		section document.Section
	}{
		{"a map of interface values", []string{mod + ".Unmarshal", mod + ".(*decoder).walk"}, document.Escape{Cause: "map", Sink: "return", Name: "map[string]interface {}{}"}, "", document.SectionAPI},
		{"a string of the input", []string{mod + ".(*Decoder).Decode"}, document.Escape{Cause: "conversion", Sink: "call", Name: "string(value.Data)"}, "", document.SectionAPI},
		{"a slice reflect makes", []string{mod + ".Unmarshal"}, document.Escape{Cause: "callee"}, "reflect.MakeSlice", document.SectionAPI},
		{"the parser's own arena", []string{mod + ".Unmarshal"}, document.Escape{Cause: "escapes", Sink: "heap", Name: "make([]Node, len(p.nodes), newCap)"}, "", document.SectionFix},
		{"a string in an encoder", []string{mod + ".Marshal"}, document.Escape{Cause: "conversion", Sink: "call", Name: "string(value.Data)"}, "", document.SectionFix},
		{"bytes stored through reflect's SetBytes", []string{mod + ".Unmarshal"}, setBytes, "", document.SectionAPI},
		{"the same bytes in an encoder", []string{mod + ".Marshal"}, setBytes, "", document.SectionFix},
		{"an Unmarshaler's copy into its receiver", []string{mod + ".Unmarshal", mod + ".(*RawMessage).UnmarshalCBOR"}, rawCopy, "", document.SectionAPI},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := benchmark("BenchmarkX", 1e-6, 10, 1000)
			b.CallPath = &document.CallPath{Functions: append([]string{mod + ".BenchmarkX"}, tc.path...)}
			d := doc(b)
			e := tc.escape
			fn := mod + ".(*decoder).value"
			if tc.escape.Cause == "append" {
				fn = mod + ".(*RawMessage).UnmarshalCBOR"
			}
			d.Allocations = []document.Allocation{{Benchmark: "BenchmarkX", Package: mod, Function: fn, File: "d.go", Line: 10,
				Via: tc.via, BytesShare: 0.5, ObjectsShare: 0.5, AllocsPerOp: 5, BytesPerOp: 500, Escape: &e}}
			fs, _ := Derive(d, Options{})
			for _, f := range fs {
				if f.File == "d.go" && f.Line == 10 {
					if f.Section != tc.section {
						t.Errorf("section %s, want %s (%s)", f.Section, tc.section, f.Suggestion)
					}
					return
				}
			}
			t.Errorf("no finding at d.go:10 in %v", fs)
		})
	}
}

// TestDecodedStores: in a benchmark that decodes, the time storing the
// document's entries into maps and boxing its values is the decoding's
// (no finding at the line); in one that does not, it is a cause.
func TestDecodedStores(t *testing.T) {
	for _, tc := range []struct {
		path []string
		want int
	}{
		{[]string{mod + ".Unmarshal", mod + ".(*decoder).setLeaf"}, 0},
		{[]string{mod + ".Merge", mod + ".(*decoder).setLeaf"}, 1},
	} {
		b := benchmark("BenchmarkX", 1e-6, 0, 0)
		b.CallPath = &document.CallPath{Functions: append([]string{mod + ".BenchmarkX"}, tc.path...)}
		d := doc(b)
		d.Lines = []document.LineCost{call("(*decoder).setLeaf", "d.go", 20, "runtime.mapassign_faststr", "maps", 0.3)}
		fs, _ := Derive(d, Options{})
		n := 0
		for _, f := range fs {
			if f.File == "d.go" && f.Line == 20 {
				n++
			}
		}
		if n != tc.want {
			t.Errorf("call path %v: %d findings at d.go:20, want %d", tc.path, n, tc.want)
		}
	}
}

// TestMicroBenchmarkCaller: an unexported helper's returned allocation
// whose caller the benchmark calls directly (a micro-benchmark of the
// internal parseBasicString, whose escaped path parseBasicStringEscaped
// makes the unescaped string) is that function's result, a cost of what
// is measured; with an exported entry point between, the fix is at the
// caller.
func TestMicroBenchmarkCaller(t *testing.T) {
	for _, tc := range []struct {
		path    []string
		section document.Section
	}{
		{[]string{mod + ".BenchmarkX", mod + ".(*Parser).parseString", mod + ".(*Parser).parseEscaped"}, document.SectionAPI},
		{[]string{mod + ".BenchmarkX", mod + ".Parse", mod + ".(*Parser).parseString", mod + ".(*Parser).parseEscaped"}, document.SectionFix},
	} {
		b := benchmark("BenchmarkX", 1e-6, 2, 96)
		b.CallPath = &document.CallPath{Functions: tc.path}
		d := doc(b)
		a := escapesByResult(site("(*Parser).parseEscaped", "p.go", 40, 0.9))
		a.Parent = mod + ".(*Parser).parseString"
		d.Allocations = []document.Allocation{a}
		d.Shapes = []document.Shape{{Name: "result-computed", OwnWork: true, File: "p.go", Line: 40, Function: mod + ".(*Parser).parseEscaped",
			Says: "make([]byte, n) computes buf, which parseEscaped returns", Advice: "its own work"}}
		fs, _ := Derive(d, Options{})
		found := false
		for _, f := range fs {
			if f.File == "p.go" && f.Line == 40 {
				found = true
				if f.Section != tc.section {
					t.Errorf("call path %v: section %s, want %s (%s)", tc.path, f.Section, tc.section, f.Suggestion)
				}
			}
		}
		if !found {
			t.Errorf("call path %v: no finding at p.go:40 in %v", tc.path, fs)
		}
	}
}

// TestWrapperNotInlined: a function over the inlining budget only
// because the one call that is its body was inlined into it (a
// wrapper-call shape) is no cause of its own: inlining it would move the
// call, not remove it.
func TestWrapperNotInlined(t *testing.T) {
	wrapper := resultShape("wrapper-call", "ToInt", "z.go", 38, "ToInt is one call of ToIntE, its result handed back")
	for _, tc := range []struct {
		name   string
		shapes []any
		want   int
	}{
		{"a function over the budget", nil, 1},
		{"a one-call wrapper", []any{wrapper}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(append([]any{bx(), notInlined("ToInt", "z.go", 38, 83, 80), flat("ToInt", 0.06)}, tc.shapes...)), Options{})
			if len(fs) != tc.want {
				t.Errorf("findings %v, want %d", kinds(fs), tc.want)
			}
		})
	}
}

// TestStringInputConverted: an exported function that converts the string
// it is given into runes (the API takes strings, its algorithm works on
// runes) pays for the conversion on every call: the API's cost, for the
// conversion's time and for its allocation alike; "reuse buffers" does not
// fit it.
func TestStringInputConverted(t *testing.T) {
	conv := call("(*DMP).DiffHalfMatch", "diff.go", 502, "runtime.stringtoslicerune", "strings", 0.41)
	shape := resultShape("input-converted", "(*DMP).DiffHalfMatch", "diff.go", 502, "[]rune(text1) converts DiffHalfMatch's parameter text1, a string, once per call: the API takes a string and the work is on its runes")
	shape.Advice = "the conversion is DiffHalfMatch's work on its input, not a repeat: callers that already hold the runes need a variant that takes them; or work on the string directly"
	a := site("(*DMP).DiffHalfMatch", "diff.go", 502, 0.5)
	a.Escape = &document.Escape{Cause: document.EscapeConversion, Verdict: "([]rune)(text1) escapes to heap", Sink: "call"}
	fs, _ := Derive(specDoc([]any{bx(), conv, a, shape}), Options{})
	if len(fs) == 0 {
		t.Fatal("no findings")
	}
	for _, f := range fs {
		if f.Section != document.SectionAPI || strings.Contains(f.Suggestion, "reuse buffers") {
			t.Errorf("%s %s:%d in %s: %q; want the API's cost, in the shape's words", f.Kind, f.File, f.Line, f.Section, f.Suggestion)
		}
	}
	// Without the shape (an unexported function's conversion), a fix.
	fs, _ = Derive(specDoc([]any{bx(), conv, a}), Options{})
	if len(fs) == 0 || fs[0].Section != document.SectionFix {
		t.Errorf("without the shape: %v, want a fix", kinds(fs))
	}
}

// TestPaddingReturned: strings.Repeat building the padding an exported
// function returns (return strings.Repeat(" ", n) + s) is its result:
// the API's cost, not "copy less".
func TestPaddingReturned(t *testing.T) {
	rep := call("FillLeft", "w.go", 916, "strings.Repeat", "copying", 0.09)
	shape := resultShape("result-computed", "FillLeft", "w.go", 916, `strings.Repeat(" ", count) computes the value FillLeft returns`)
	fs, _ := Derive(specDoc([]any{bx(), rep, shape}), Options{})
	if len(fs) != 1 || fs[0].Section != document.SectionAPI {
		t.Fatalf("findings %+v, want the API's cost", fs)
	}
}

// TestDecodedMade: in a benchmark that decodes, the time reflect spends
// making the decoded values (reflect.MakeSlice for a slice the caller's
// value receives) names no change; in one that does not decode, the same
// line is a cause to fix.
func TestDecodedMade(t *testing.T) {
	for _, tc := range []struct {
		path     []string
		noChange bool
	}{
		{[]string{mod + ".Unmarshal", mod + ".(*decoder).parseArray"}, true},
		{[]string{mod + ".Clone", mod + ".(*decoder).parseArray"}, false},
	} {
		b := benchmark("BenchmarkX", 1e-6, 0, 0)
		b.CallPath = &document.CallPath{Functions: append([]string{mod + ".BenchmarkX"}, tc.path...)}
		d := doc(b)
		d.Lines = []document.LineCost{call("(*decoder).parseArray", "d.go", 20, "reflect.MakeSlice", "reflect", 0.3)}
		fs, _ := Derive(d, Options{})
		if len(fs) != 1 || fs[0].NoChange != tc.noChange {
			t.Errorf("call path %v: findings %v, want one with no_change %v", tc.path, fs, tc.noChange)
		}
	}
}

// TestPoolOncePerCall: a sync.Pool's Get in a function the API calls
// once per operation (a called-once shape), or that no known loop runs
// (none around the Get, none around a module line calling its function),
// is that reuse's price, no change; a Get in a loop, per value, keeps the
// pool's advice (one Get per call).
func TestPoolOncePerCall(t *testing.T) {
	once := document.Shape{Name: "called-once", File: "p.go", Line: 9, Function: mod + ".getBuf", Says: "getBuf is called once per call of Marshal and Encode"}
	loop := document.Shape{Name: "loop", File: "p.go", Line: 8, Function: mod + ".getBuf", Related: []document.Location{{File: "p.go", Line: 12}}, Says: "the loop at lines 8–12 ranges over vals"}
	for _, tc := range []struct {
		name     string
		shapes   []any
		noChange bool
	}{
		{"called once per operation", []any{once}, true},
		{"no loop known", nil, true},
		{"a Get per value, in a loop", []any{loop}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(append([]any{bx(), call("getBuf", "p.go", 10, "sync.(*Pool).Get", "other", 0.3)}, tc.shapes...)), Options{})
			if len(fs) != 1 || fs[0].NoChange != tc.noChange {
				t.Fatalf("findings %v, want one with no_change %v", fs, tc.noChange)
			}
		})
	}
}

// TestLinkedNode: a list's element made and linked in (a linked-node
// shape at its line) is one allocation per element the list holds: a cost
// of the API, not a fix; the same allocation with no shape is a fix.
func TestLinkedNode(t *testing.T) {
	node := document.Shape{Name: "linked-node", File: "l.go", Line: 47, Function: mod + ".(*List).Add",
		Says: "&element{…} is a node of a linked structure (element points to its own type), linked in at list.first", Advice: "what a linked structure costs"}
	for _, tc := range []struct {
		name    string
		shapes  []any
		section document.Section
	}{
		{"a node linked in", []any{node}, document.SectionAPI},
		{"nothing known of it", nil, document.SectionFix},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := site("(*List).Add", "l.go", 47, 0.8)
			a.Escape = &document.Escape{Cause: "escapes", Sink: "heap", Name: "&element{...}", Verdict: "&element{...} escapes to heap"}
			fs, _ := Derive(specDoc(append([]any{bx(), gc(0.5), a}, tc.shapes...)), Options{})
			if len(fs) == 0 || fs[0].Section != tc.section {
				t.Fatalf("findings %+v, want the first in section %s", fs, tc.section)
			}
		})
	}
}

// TestWriterGrowthApartFromTag: two helpers of one caller with no cause
// of its own (a renderer's OutTag: TagWithAttributes builds the tag by
// concatenation, Outs writes it with io.WriteString into the caller's
// growing buffer) are two causes when one names its change at its line
// and the other allocates only inside another package's call: the tag's
// change leaves the writer's growth. Without the shape they are one
// path's steps, one cause.
func TestWriterGrowthApartFromTag(t *testing.T) {
	at := func(a document.Allocation) document.Allocation {
		a.Parent, a.ParentFile, a.ParentLine = mod+".(*Renderer).OutTag", "r.go", 13
		return a
	}
	tag := at(site("TagWithAttributes", "h.go", 162, 0.2))
	tag.Escape = &document.Escape{Cause: "concat", Name: `~r0 + ">"`, Sink: "return"}
	out := at(site("(*Renderer).Outs", "r.go", 60, 0.4))
	out.Via = "io.WriteString"
	out.Escape = &document.Escape{Cause: "callee", Name: "io.WriteString"}
	concat := resultShape("concat-written", "TagWithAttributes", "h.go", 162, "TagWithAttributes concatenates name and \">\" into a new string, and OutTag only writes it")
	concat.Advice = "write the pieces to the writer in turn"
	for _, tc := range []struct {
		name  string
		parts []any
		want  int
	}{
		{"the tag names its change", []any{bx(), tag, out, concat}, 2},
		{"no change named", []any{bx(), tag, out}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(tc.parts), Options{})
			if len(fs) != tc.want {
				t.Fatalf("%d findings %v, want %d", len(fs), kinds(fs), tc.want)
			}
			if tc.want == 2 && !strings.Contains(fs[0].Suggestion+fs[1].Suggestion, "write the pieces to the writer in turn") {
				t.Errorf("suggestions %q, %q: want the tag's change in its own finding", fs[0].Suggestion, fs[1].Suggestion)
			}
		})
	}
}

// TestConstructorStorage: storage a constructor's helper makes for the
// value the constructor returns (NewBloomFilter calling Size, which makes
// bl.bitset) is what the API's call builds: it joins the constructor's
// cost in "Costs of the API"; an allocation the helper keeps elsewhere
// stays a cause to fix.
func TestConstructorStorage(t *testing.T) {
	ctor := escapesByResult(site("NewBloomFilter", "b.go", 67, 0.3))
	for _, tc := range []struct {
		name string
		flow []string
		want int // findings to fix
	}{
		{"stored in a field of the value", []string{"flow: {heap} ← &{storage for make([]uint64, sz >> uint(6))}:", "  from bl.bitset = make([]uint64, sz >> uint(6)) (assign) at b.go:143:18"}, 0},
		{"kept in a package variable", []string{"flow: {heap} ← &{storage for make([]uint64, sz >> uint(6))}:", "  from cache = make([]uint64, sz >> uint(6)) (assign) at b.go:143:18"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			size := site("(*Bloom).Size", "b.go", 143, 0.6)
			size.Parent, size.ParentFile, size.ParentLine = mod+".NewBloomFilter", "b.go", 73
			size.Escape = &document.Escape{Cause: "escapes", Sink: "heap", Name: "make([]uint64, sz >> uint(6))", Flow: tc.flow}
			fs, _ := Derive(specDoc([]any{bx(), gc(0.5), ctor, size}), Options{})
			n := 0
			for _, f := range fs {
				if f.Section == document.SectionFix {
					n++
				}
			}
			if n != tc.want {
				t.Errorf("%d findings to fix, want %d: %v", n, tc.want, fs)
			}
		})
	}
}
