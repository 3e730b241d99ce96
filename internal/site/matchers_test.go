package site_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/perfloop/perfloop/internal/site"
)

// TestMatchers runs each matcher on its testdata package: the want
// comments are its specification (the shapes it must report, with what
// it says there) and the code without one its traps.
func TestMatchers(t *testing.T) {
	for pkg, a := range map[string]*analysis.Analyzer{
		"regexptwice":            site.RegexpTwice,
		"rlockread":              site.RLockRead,
		"unbufferedwrite":        site.UnbufferedWrite,
		"samecall":               site.SameCall,
		"sortslice":              site.SortSlice,
		"mapkeybuilt":            site.MapKeyBuilt,
		"fieldscounted":          site.FieldsCounted,
		"readall":                site.ReadAll,
		"regexpacross":           site.RegexpAcross,
		"requestcopy":            site.RequestCopy,
		"interfaceonly":          site.InterfaceOnly,
		"returnedaddress":        site.ReturnedAddress,
		"boxedresult":            site.BoxedResult,
		"sprintfany":             site.SprintfAny,
		"methodbyname":           site.MethodByName,
		"mapindexvalue":          site.MapIndexValue,
		"reflectcall":            site.ReflectCall,
		"movedpair":              site.MovedPair,
		"searchfuncvalue":        site.SearchFuncValue,
		"mapcopied":              site.MapCopied,
		"sprintfquote":           site.SprintfQuote,
		"appendarena":            site.AppendArena,
		"builtunlessused":        site.BuiltUnlessUsed,
		"result":                 site.Result,
		"constmath":              site.ConstMath,
		"callinputs":             site.CallInputs,
		"loops":                  site.Loops,
		"conversionkept":         site.ConversionKept,
		"errorbuilt":             site.ErrorBuilt,
		"mapkeysindex":           site.MapKeysIndex,
		"mapkeyconverted":        site.MapKeyConverted,
		"interfacedispatch":      site.InterfaceDispatch,
		"reflectslicebytes":      site.ReflectSliceBytes,
		"reflectinterfaceassert": site.ReflectInterfaceAssert,
	} {
		t.Run(pkg, func(t *testing.T) { analysistest.Run(t, analysistest.TestData(), a, pkg) })
	}
}

// TestCopyAdvice: what the copy and quote matchers advise follows the
// code: the buffer a quoted string is written to takes AppendQuote, a
// string result strconv.Quote; a copied map is read directly and copied
// on its first write.
func TestCopyAdvice(t *testing.T) {
	advice := func(a *analysis.Analyzer, pkg string) []string {
		dir := analysistest.TestData()
		if _, err := os.Stat(filepath.Join(dir, pkg, "go.mod")); err == nil {
			// A module of its own (its go.mod's Go version).
			dir, pkg = filepath.Join(dir, pkg), "."
		}
		var out []string
		for _, r := range analysistest.Run(t, dir, a, pkg) {
			for _, d := range r.Diagnostics {
				out = append(out, d.SuggestedFixes[0].Message)
			}
		}
		return out
	}
	for _, tc := range []struct {
		a    *analysis.Analyzer
		pkg  string
		want []string
	}{
		{site.SprintfQuote, "sprintfquote", []string{"b.Write(strconv.AppendQuote(b.AvailableBuffer(), s))", "strconv.Quote(s)"}},
		{site.SprintfQuote, "sprintfquoteold", []string{"b.Write(strconv.AppendQuote(scratch[:0], s))"}},
		{site.BuiltUnlessUsed, "builtunlessused", []string{"build it only when r.Flags&Smartypants != 0 (here, or lazily at its first read)"}},
		{site.AppendArena, "appendarena", []string{"fixed-size chunks that never move ([][]Value"}},
		{site.MapCopied, "mapcopied", []string{"read e.Data directly, and copy it lazily, on the first write", "read src directly"}},
		{site.Result, "resultmemo", []string{"keep pow10's results for the inputs that recur", "computed from what it is given: its own work, with no result to keep"}},
		{site.CallInputs, "oninputsloop", []string{"One's own work on its inputs, once per call", "Each's own work on its inputs, once per iteration of the loop at lines 13–15"}},
	} {
		got := advice(tc.a, tc.pkg)
		if len(got) != len(tc.want) {
			t.Fatalf("%s: advice %q, want %d", tc.pkg, got, len(tc.want))
		}
		for i, w := range tc.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: advice %q, want it to say %q", tc.pkg, got[i], w)
			}
		}
	}
}
