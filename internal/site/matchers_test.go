package site_test

import (
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
		"result":                 site.Result,
		"constmath":              site.ConstMath,
		"reflectslicebytes":      site.ReflectSliceBytes,
		"reflectinterfaceassert": site.ReflectInterfaceAssert,
	} {
		t.Run(pkg, func(t *testing.T) { analysistest.Run(t, analysistest.TestData(), a, pkg) })
	}
}
