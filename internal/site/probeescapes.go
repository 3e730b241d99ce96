package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ProbeEscapes finds a search key built as &T{…} and handed to a lookup
// that takes it as an interface:
//
//	item := db.keys.Get(&dbItem{key: key})
//
// The probe is used only while the search runs, but through the
// interface (a tree whose comparator is a func value) escape analysis
// cannot keep it on the stack: one heap allocation per lookup.
var ProbeEscapes = &analysis.Analyzer{
	Name: "probeescapes",
	Doc:  "a search key built as &T{…} per lookup and passed as an interface",
	Run:  runProbeEscapes,
}

func runProbeEscapes(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			name := calleeName(call)
			if !lookupName(name) {
				return
			}
			sig, ok := pass.TypesInfo.TypeOf(call.Fun).(*types.Signature)
			if !ok {
				return
			}
			for i, a := range call.Args {
				u, ok := ast.Unparen(a).(*ast.UnaryExpr)
				if !ok || u.Op != token.AND {
					continue
				}
				if _, ok := ast.Unparen(u.X).(*ast.CompositeLit); !ok || i >= sig.Params().Len() {
					continue
				}
				if !types.IsInterface(sig.Params().At(i).Type()) {
					continue
				}
				probe := text(pass, a)
				pass.Report(analysis.Diagnostic{
					Category: "probe-escapes",
					Pos:      call.Pos(),
					Message: fmt.Sprintf("%s builds %s to search with and hands it to %s as an interface: used only while the search runs, it escapes through the interface, one heap allocation per lookup",
						fd.Name.Name, probe, text(pass, call.Fun)),
					SuggestedFixes: []analysis.SuggestedFix{{Message: "keep the probe off the heap: reuse probes from a sync.Pool (fill in the key, search, clear it, put it back), or search with the key itself (a typed collection whose lookup takes the key, not an interface)"}},
				})
				return
			}
		})
	})
	return nil, nil
}

// lookupName reports whether a call's name says it searches: Get,
// Search, Find, Lookup, Has, Contains, Seek, Floor, Ceil, Ascend…
func lookupName(name string) bool {
	for _, p := range []string{"Get", "Search", "Find", "Lookup", "Has", "Contains", "Seek", "Floor", "Ceil", "Ascend", "Descend", "Delete", "Remove"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
