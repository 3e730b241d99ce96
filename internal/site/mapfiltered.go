package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// MapFiltered finds a map made without a size, filled by a range loop only
// with the elements that pass a test, and returned: the caller keeps it,
// so it is not reused, and how many entries it gets is known only after
// the loop. Its growth is the price of the filter's result (gin's
// getMapFromFormData, the "key[sub]" entries of a form): a size hint
// needs a first pass over the input, which two hand analyses measured as
// costly as the growth for small inputs (+43–112%); what helps large
// results without hurting small ones is holding the first few matches in
// a fixed array and sizing the map from their count past it.
var MapFiltered = &analysis.Analyzer{
	Name: "mapfiltered",
	Doc:  "a returned map filled by a loop with the elements that pass a test",
	Run:  runMapFiltered,
}

func runMapFiltered(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || !unsizedMap(pass, as.Rhs[0]) {
				return true
			}
			v, _ := objOf(pass, as.Lhs[0]).(*types.Var)
			if v == nil || v.IsField() || !returnsVar(pass, fd, v) {
				return true
			}
			stores := loopStores(pass, fd.Body, v)
			if len(stores) == 0 {
				return true
			}
			loop, test := filterLoop(fd.Body, stores[0].pos)
			if loop == nil || nilTest(pass, test) {
				// A test that only drops nil values passes nearly
				// every element: the range's length bounds the
				// entries, a size hint that fits (raymond's
				// VisitHash).
				return true
			}
			over := oneLine(types.ExprString(loop.X))
			pass.Report(analysis.Diagnostic{
				Category: "map-filtered" + ownWork,
				Pos:      stores[0].pos,
				Message: fmt.Sprintf("%s returns %s, filled by the loop at lines %d–%d with the elements of %s that pass its test (line %d): the caller keeps the map, and how many entries it gets is known only after the loop, so it grows as it is filled",
					fd.Name.Name, v.Name(), stores[0].from, stores[0].to, over, pass.Fset.Position(test.Pos()).Line),
				Related: []analysis.RelatedInformation{{Pos: as.Pos(), Message: "the map made"}, {Pos: test.Pos(), Message: "the test"}},
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"its growth is the price of the filter's result: a size hint needs a first pass over %s to count the matches, which costs about what the growth does for small inputs; where large results are common, hold the first few matches in a fixed-size array and make the map with their count only past it: %s", over, ownWorkWords)}},
			})
			return true
		})
	})
	return nil, nil
}

// filterLoop returns the innermost range loop around pos whose body
// decides by a test whether pos runs: the statement of the loop's body
// that holds pos is an if, or an if before it in the body continues the
// loop; and that if. It returns nil when pos runs on every iteration.
func filterLoop(body *ast.BlockStmt, pos token.Pos) (*ast.RangeStmt, ast.Node) {
	var loop *ast.RangeStmt
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil || pos < n.Pos() || pos >= n.End() {
			return false
		}
		if r, ok := n.(*ast.RangeStmt); ok {
			loop = r
		}
		return true
	})
	if loop == nil {
		return nil, nil
	}
	for _, st := range loop.Body.List {
		if pos >= st.Pos() && pos < st.End() {
			if is, ok := st.(*ast.IfStmt); ok {
				return loop, is
			}
			return nil, nil
		}
		if is, ok := st.(*ast.IfStmt); ok && continues(is.Body) {
			return loop, is
		}
	}
	return nil, nil
}

// continues reports whether a block ends with a continue of its loop.
func continues(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	br, ok := b.List[len(b.List)-1].(*ast.BranchStmt)
	return ok && br.Tok == token.CONTINUE && br.Label == nil
}

// nilTest reports whether an if's condition only compares a value with
// nil (value != nil, err == nil).
func nilTest(pass *analysis.Pass, n ast.Node) bool {
	is, ok := n.(*ast.IfStmt)
	if !ok {
		return false
	}
	be, ok := ast.Unparen(is.Cond).(*ast.BinaryExpr)
	return ok && (be.Op == token.NEQ || be.Op == token.EQL) && (isNil(pass, be.X) || isNil(pass, be.Y))
}
