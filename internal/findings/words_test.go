package findings

import (
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

// TestCalleeWords: what a line's call costs is named after what the call
// does, and the advice fits it — reads through an in-memory reader are
// not "string building", a sync.Map lookup is not told to cache its
// result, a reflected map iteration is told to reuse its key and value.
func TestCalleeWords(t *testing.T) {
	tests := []struct {
		callee, cat    string
		what, fix, not string
	}{
		{"io.ReadAtLeast", "strings", "reading through an io.Reader (io.ReadAtLeast)", "decode from the []byte directly", "strings.Builder"},
		{"bytes.(*Buffer).ReadByte", "strings", "reading through an io.Reader", "a whole value per call", "copy less"},
		{"io.ReadFull", "syscall", "system calls (io.ReadFull)", "buffer the I/O", "[]byte directly"},
		{"sync.(*HashTrieMap[go.shape.interface {},go.shape.interface {}]).Load", "other", "a sync.Map lookup", "the lookup is the cache", "cache its result"},
		{"sync.(*Map).Load", "other", "a sync.Map lookup (sync.(*Map).Load)", "the lookup is the cache", "cache its result"},
		// A map lookup whose samples ended in the hash of a struct key
		// (category other): still a map operation.
		{"runtime.mapaccess2", "other", "map access (runtime.mapaccess2)", "fewer lookups", "cache its result"},
		{"reflect.(*MapIter).Next", "reflect", "iterating a map through reflection", "SetIterKey", "cache what it finds"},
		// A value's field, boxed value, element: work on every value,
		// which a cache per type does not keep; a search by name is
		// the type's.
		{"reflect.Value.Field", "reflect", "reflection on each value (reflect.Value.Field)", "typed code", "reflect once"},
		{"reflect.valueInterface", "reflect", "reflection on each value", "a cache per type does not remove", "reflect once"},
		{"reflect.Value.MethodByName", "reflect", "reflection (reflect.Value.MethodByName)", "reflect once", ""},
		{"reflect.(*rtype).ConvertibleTo", "reflect", "reflection", "reflect once", ""},
		// reflect's call machinery under a method value it made: the
		// layout is cached already; the call is the cost.
		{"reflect.funcLayout", "reflect", "calling through a function reflect made (reflect.funcLayout)", "call the method directly", "reflect once"},
		{"reflect.methodReceiver", "reflect", "calling through a function reflect made", "interface assertion", "cache"},
		{"bytes.(*Buffer).Write", "strings", "copying bytes", "copy less", ""},
		// runtime.Callers inlined: the profile names the runtime's own
		// walk.
		{"runtime.callers", "other", "walking the stack (runtime.callers)", "once per call site", "cache its result"},
		{"time.Now", "other", "reading the clock (time.Now)", "time.Since", "cache its result"},
		// math.Log of the values given: arithmetic, nothing to cache.
		{"math.archLog", "other", "floating-point math (math.archLog)", "nothing to cache while they vary", "cache its result"},
		{"runtime.ifaceeq", "other", "comparing interface values (runtime.ifaceeq)", "case after case", "cache its result"},
		{"time.Since", "other", "reading the clock (time.Since)", "cannot be kept", "cache its result"},
		{"math/rand.Int63n", "other", "drawing random numbers (rand.Int63n)", "cannot be kept", "cache its result"},
		// A pool's Get and Put are its reuse: nothing to cache.
		{"sync.(*Pool).Put", "other", "a sync.Pool's Get and Put (sync.(*Pool).Put)", "that reuse's price", "cache its result"},
		// A regexp's match is not its compile: the pattern is compiled
		// already.
		{"regexp.(*Regexp).doExecute", "regexp", "regular expression matching (regexp.(*Regexp).doExecute)", "the match itself costs", "compile once"},
		{"regexp.(*Regexp).FindStringSubmatch", "regexp", "regular expression matching", "a hand-written scan", "compile once"},
		{"regexp.MustCompile", "regexp", "regular expressions (regexp.MustCompile)", "compile once", ""},
		{"regexp/syntax.Parse", "regexp", "regular expressions", "compile once", ""},
	}
	for _, tt := range tests {
		what, fix := calleeWords(tt.callee, tt.cat)
		if !strings.Contains(what, tt.what) || !strings.Contains(fix, tt.fix) || tt.not != "" && strings.Contains(fix, tt.not) {
			t.Errorf("calleeWords(%q, %q) = %q, %q; want %q, a fix with %q and without %q", tt.callee, tt.cat, what, fix, tt.what, tt.fix, tt.not)
		}
	}
}

// TestOuterOfPackageLiterals: the func literals of a package-level var
// (a table of builtins, "m.init.func97") are functions of their own, named
// as such; a closure inside a function is its function's.
func TestOuterOfPackageLiterals(t *testing.T) {
	for _, tc := range []struct{ fn, outer, short string }{
		{"example.com/m/builtin.init.func97", "example.com/m/builtin.init.func97", "a package-level func literal (init.func97)"},
		{"example.com/m.(*VM).Run.func1", "example.com/m.(*VM).Run", "(*VM).Run"},
		{"example.com/m.init.0.func1", "example.com/m.init.0", "init.0"},
	} {
		if got := outer(tc.fn); got != tc.outer {
			t.Errorf("outer(%q) = %q, want %q", tc.fn, got, tc.outer)
		}
		if got := shortName(outer(tc.fn)); got != tc.short {
			t.Errorf("shortName(outer(%q)) = %q, want %q", tc.fn, got, tc.short)
		}
	}
}

// TestBenchSubject: a library call a benchmark is named for, and most of
// its time, is what the benchmark measures.
func TestBenchSubject(t *testing.T) {
	for _, tc := range []struct {
		bench, callee string
		cum           float64
		want          bool
	}{
		{"Benchmark_sort", "sort.Sort", 0.73, true},
		{"BenchmarkSortStrings", "sort.Sort", 0.6, true},
		{"Benchmark_sort", "sort.Sort", 0.3, false},
		{"Benchmark_median", "sort.Float64s", 0.6, false},
		{"BenchmarkIndexAny/short", "strings.IndexAny", 0.8, true},
		{"BenchmarkParse", "strings.Index", 0.8, false},
	} {
		b := &bench{entry: &document.Benchmark{Name: tc.bench}}
		lc := &lineCat{first: &document.LineCost{Callee: tc.callee}, cum: tc.cum}
		if got := benchSubject(b, lc); got != tc.want {
			t.Errorf("benchSubject(%s, %s %.0f%%) = %v, want %v", tc.bench, tc.callee, 100*tc.cum, got, tc.want)
		}
	}
}

func TestInterfaceShape(t *testing.T) {
	for _, tt := range []struct{ fn, want string }{
		{"github.com/google/btree.(*items[go.shape.interface { Less(github.com/google/btree.Item) bool }]).removeAt", "interface { Less(btree.Item) bool }"},
		{"github.com/google/btree.(*items[go.shape.int]).removeAt", ""},
		{"example.com/m.f", ""},
	} {
		if got := interfaceShape(tt.fn); got != tt.want {
			t.Errorf("interfaceShape(%q) = %q, want %q", tt.fn, got, tt.want)
		}
	}
}

func TestOuterCallee(t *testing.T) {
	for _, tt := range []struct{ call, want string }{
		{"new(big.Int).Exp(sum, big.NewInt(k), nil)", "new(big.Int).Exp"},
		{`strconv.ParseUint(strings.TrimLeft(trimDecimal(s), "+"), …`, "strconv.ParseUint"},
		{"strings.Contains(s, \".\")", "strings.Contains"},
	} {
		if got := outerCallee(tt.call); got != tt.want {
			t.Errorf("outerCallee(%q) = %q, want %q", tt.call, got, tt.want)
		}
	}
}

// TestInterfaceAPIOneChange: a generic function's copies of interface
// elements (its profile name shows the interface type argument) and the
// dynamic calls of the same interface's method (an interface-dispatch
// shape) are one change — the interface-based API's — so one cause, led
// by the costlier.
func TestInterfaceAPIOneChange(t *testing.T) {
	dispatch := resultShape("interface-dispatch", "itemLess", "btree.go", 905, "a.Less(b), the function's whole body, calls Less through the Item interface")
	dispatch.Advice = "inherent to an interface-based API: a type parameter over the concrete type"
	fs, _ := Derive(specDoc([]any{bx(),
		own("itemLess", "btree.go", 905, 0.27), dispatch,
		call("(*items[go.shape.interface { Less(example.com/m.Item) bool }]).removeAt", "btree.go", 183, "runtime.typedslicecopy", "other", 0.11),
	}), Options{})
	if len(fs) != 1 {
		t.Fatalf("findings %v, want 1", kinds(fs))
	}
	if f := fs[0]; f.Line != 905 || !strings.Contains(f.Message, "copies interface elements (interface { Less(m.Item) bool })") {
		t.Errorf("%s:%d %q, want itemLess leading, with removeAt's copies", f.File, f.Line, f.Message)
	}
}
