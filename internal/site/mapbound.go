package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// MapBound finds a map made with room for a bound — a cache's capacity,
// a limit — rather than for what it will hold:
//
//	func NewLRU(size int) *LRU { return &LRU{items: make(map[K]*entry, size)} }
//
// A size hint allocates the map's whole table up front and clears it: a
// cache made per request, per table or per parse with a capacity of
// 10,240 entries pays hundreds of kilobytes for entries it will rarely
// hold. A bound is not an expected size: the map can grow as entries
// arrive.
var MapBound = &analysis.Analyzer{
	Name: "mapbound",
	Doc:  "a map made with a size hint that is a capacity or limit parameter",
	Run:  runMapBound,
}

func runMapBound(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		params := map[types.Object]string{}
		for _, f := range fd.Type.Params.List {
			for _, n := range f.Names {
				if boundName(n.Name) {
					params[pass.TypesInfo.Defs[n]] = n.Name
				}
			}
		}
		if len(params) == 0 {
			return
		}
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || !isBuiltin(pass, call.Fun, "make") || len(call.Args) != 2 {
				return
			}
			if _, isMap := pass.TypesInfo.TypeOf(call).Underlying().(*types.Map); !isMap {
				return
			}
			id, ok := ast.Unparen(call.Args[1]).(*ast.Ident)
			if !ok {
				return
			}
			name, ok := params[pass.TypesInfo.Uses[id]]
			if !ok {
				return
			}
			pass.Report(analysis.Diagnostic{
				Category: "map-sized-by-bound",
				Pos:      call.Pos(),
				Message: fmt.Sprintf("%s makes the map with room for %s entries up front (%s): %s is a bound, so every %s allocates and clears a table for all of it, however few entries the map will hold",
					fd.Name.Name, name, text(pass, call), name, fd.Name.Name),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("make it with no size hint, or a small one (min(%s, 64)), and let it grow as entries arrive: a bound is not an expected size", name)}},
			})
		})
	})
	return nil, nil
}

// boundName reports whether a parameter's name says it is a capacity or
// a limit: size, capacity, maxEntries, limit, maxItems, …
func boundName(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "size", "cap", "capacity", "limit", "max", "maxsize", "maxentries", "maxitems", "maxlen", "maxkeys", "maxcost":
		return true
	}
	return strings.HasPrefix(n, "max") && len(n) > 3 || strings.HasSuffix(n, "capacity") || strings.HasSuffix(n, "limit")
}
