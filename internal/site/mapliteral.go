package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// MapLiteral finds a map a function builds from a literal of constant
// entries on every call only to read it: the map is made and each entry
// stored (one hash and store per entry, and an allocation once it holds
// more than fits on the stack) to answer one or two lookups. bojanz/
// currency's roundingContext builds a four-entry map of rounding modes
// for every rounding: 29% of BenchmarkAmount_RoundTo in the map's stores
// and lookup. The table is the same for every call: a package-level
// var, or for a small dense key an array indexed by it (or a switch),
// costs one lookup or none.
var MapLiteral = &analysis.Analyzer{
	Name: "mapliteral",
	Doc:  "a map of constant entries built from a literal on every call, only to be read",
	Run:  runMapLiteral,
}

// mapLiteralMin is the fewest entries a literal needs for building it to
// cost more than the lookups it serves.
const mapLiteralMin = 3

func runMapLiteral(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			lit, ok := ast.Unparen(as.Rhs[0]).(*ast.CompositeLit)
			if !ok || len(lit.Elts) < mapLiteralMin {
				return
			}
			if _, isMap := typeUnder(pass, lit).(*types.Map); !isMap || !constantEntries(pass, fd, lit) {
				return
			}
			m := objOf(pass, as.Lhs[0])
			if m == nil {
				return
			}
			reads, ok := mapOnlyRead(pass, fd.Body, m)
			if !ok || len(reads) == 0 {
				return
			}
			var related []analysis.RelatedInformation
			for _, e := range lit.Elts {
				related = append(related, analysis.RelatedInformation{Pos: e.Pos(), Message: "an entry stored"})
			}
			for _, r := range reads {
				related = append(related, analysis.RelatedInformation{Pos: r.Pos(), Message: "read here"})
			}
			pass.Report(analysis.Diagnostic{
				Category: "map-literal-per-call",
				Pos:      lit.Pos(),
				Related:  related,
				Message: fmt.Sprintf("%s builds the map %s from a literal of %d constant entries on every call, only to read it (line %d): each call makes the map and stores every entry to answer %s",
					fd.Name.Name, m.Name(), len(lit.Elts), pass.Fset.Position(reads[0].Pos()).Line, map[bool]string{true: "one lookup", false: fmt.Sprintf("%d lookups", len(reads))}[len(reads) == 1]),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"make it once, a package-level var (var %s = %s{…}), and read that; for a small dense key (an enum of a few values), an array indexed by it or a switch costs no lookup at all", m.Name(), types.ExprString(lit.Type))}},
			})
		})
	})
	return nil, nil
}

// constantEntries reports whether every key and value of a map literal
// is a constant or a package-level name (nothing of the function's own).
func constantEntries(pass *analysis.Pass, fd *ast.FuncDecl, lit *ast.CompositeLit) bool {
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return false
		}
		for _, x := range []ast.Expr{kv.Key, kv.Value} {
			if tv, ok := pass.TypesInfo.Types[x]; ok && tv.Value != nil {
				continue
			}
			local := false
			ast.Inspect(x, func(n ast.Node) bool {
				switch y := n.(type) {
				case *ast.CallExpr, *ast.FuncLit, *ast.CompositeLit:
					local = true
				case *ast.Ident:
					if o := pass.TypesInfo.Uses[y]; o != nil && o.Pos() >= fd.Pos() && o.Pos() <= fd.End() {
						local = true
					}
				}
				return !local
			})
			if local {
				return false
			}
		}
	}
	return true
}

// mapOnlyRead returns the index reads of m in body, and whether m is used
// only so (m[k] as a value, len(m), a range over it): never stored into,
// passed, returned or assigned again.
func mapOnlyRead(pass *analysis.Pass, body *ast.BlockStmt, m types.Object) ([]ast.Node, bool) {
	var reads []ast.Node
	ok := true
	allowed := map[*ast.Ident]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				if ix, isIx := ast.Unparen(l).(*ast.IndexExpr); isIx && objOf(pass, ix.X) == m {
					ok = false
				}
			}
		case *ast.IndexExpr:
			if id, isID := ast.Unparen(x.X).(*ast.Ident); isID && pass.TypesInfo.Uses[id] == m {
				allowed[id] = true
				reads = append(reads, x)
			}
		case *ast.RangeStmt:
			if id, isID := ast.Unparen(x.X).(*ast.Ident); isID && pass.TypesInfo.Uses[id] == m {
				allowed[id] = true
				reads = append(reads, x)
			}
		case *ast.CallExpr:
			if isBuiltin(pass, x.Fun, "len") && len(x.Args) == 1 {
				if id, isID := ast.Unparen(x.Args[0]).(*ast.Ident); isID && pass.TypesInfo.Uses[id] == m {
					allowed[id] = true
				}
			}
		}
		return true
	})
	ast.Inspect(body, func(n ast.Node) bool {
		if id, isID := n.(*ast.Ident); isID && pass.TypesInfo.Uses[id] == m && !allowed[id] {
			ok = false
		}
		return true
	})
	return reads, ok
}
