package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// PivotFixed finds a hand-written quicksort that takes the element at a
// fixed end of its range as the pivot (`pivot := a[hi]`, `a[lo]`,
// `a[len(a)-1]`, `a[0]`) and recurses into both sides: on input already
// sorted, reverse-sorted or all equal (IDs made in time order are nearly
// sorted) every partition splits n-1 from 0, so the sort makes O(n²)
// comparisons and recurses n deep. A benchmark of random input does not
// show it; the code does. When the partition compares fixed-size byte
// arrays with bytes.Compare, that call per comparison is named too.
var PivotFixed = &analysis.Analyzer{
	Name: "pivotfixed",
	Doc:  "a quicksort whose pivot is the element at a fixed end of the range: quadratic on sorted or equal input",
	Run:  runPivotFixed,
}

func runPivotFixed(pass *analysis.Pass) (any, error) {
	for fd := range funcDecls(pass) {
		self, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if self == nil {
			continue
		}
		var selfCalls []*ast.CallExpr
		inspectBody(fd.Body, func(n ast.Node) {
			if call, ok := n.(*ast.CallExpr); ok && calledFunc(pass, call) == self {
				selfCalls = append(selfCalls, call)
			}
		})
		if len(selfCalls) < 2 {
			continue
		}
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			ix, ok := ast.Unparen(as.Rhs[0]).(*ast.IndexExpr)
			if !ok {
				return
			}
			end := fixedEnd(pass, fd, ix)
			if end == "" {
				return
			}
			pivot := objOf(pass, as.Lhs[0])
			if pivot == nil {
				return
			}
			loop := partitionLoop(pass, fd.Body, pivot, as.End())
			if loop == nil {
				return
			}
			name := fd.Name.Name
			d := analysis.Diagnostic{
				Category: "pivot-fixed",
				Pos:      as.Pos(),
				Message: fmt.Sprintf("%s takes %s, the %s element of its range, as the pivot and recurses into both sides: on input already sorted, reverse-sorted or all equal, every partition splits n-1 from 0, so the sort makes O(n²) comparisons and recurses n deep (a benchmark of random input does not show it)",
					name, text(pass, ix), end),
			}
			from, to := pass.Fset.Position(loop.Pos()).Line, pass.Fset.Position(loop.End()).Line
			tf := pass.Fset.File(loop.Pos())
			for l := from; l <= to; l++ {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: tf.LineStart(l), Message: "the partition loop"})
			}
			for _, c := range selfCalls {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: c.Pos(), Message: "a recursive call"})
			}
			advice := "choose the pivot as the median of the first, middle and last elements, partition so that keys equal to the pivot split evenly (Hoare's scheme), recurse into the smaller side and loop on the larger, and finish short ranges with insertion sort; or sort with slices.SortFunc (pattern-defeating quicksort, no allocation)"
			if c := bytesCompareOfArrays(pass, loop); c != "" {
				d.Message += fmt.Sprintf("; each comparison calls %s on fixed-size arrays, an out-of-line call per comparison", c)
				advice += "; compare the fixed-size keys as big-endian words (binary.BigEndian.Uint64 of each 8 bytes) in a function the compiler inlines, instead of bytes.Compare"
			}
			d.SuggestedFixes = []analysis.SuggestedFix{{Message: advice}}
			pass.Report(d)
		})
	}
	return nil, nil
}

// fixedEnd says which end of the range an index takes ("last" for a[hi]
// with hi a parameter named like an upper bound, or a[len(a)-1]; "first"
// for a[lo], a[0]), or "".
func fixedEnd(pass *analysis.Pass, fd *ast.FuncDecl, ix *ast.IndexExpr) string {
	switch i := ast.Unparen(ix.Index).(type) {
	case *ast.Ident:
		o, ok := pass.TypesInfo.Uses[i].(*types.Var)
		if !ok || !isParam(fd, pass, o) {
			return ""
		}
		switch i.Name {
		case "hi", "high", "r", "right", "end", "last", "j":
			return "last"
		case "lo", "low", "l", "left", "start", "first":
			return "first"
		}
	case *ast.BasicLit:
		if i.Value == "0" {
			return "first"
		}
	case *ast.BinaryExpr:
		if i.Op != token.SUB {
			return ""
		}
		if call, ok := ast.Unparen(i.X).(*ast.CallExpr); ok && len(call.Args) == 1 {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "len" && types.ExprString(call.Args[0]) == types.ExprString(ix.X) {
				if lit, ok := ast.Unparen(i.Y).(*ast.BasicLit); ok && lit.Value == "1" {
					return "last"
				}
			}
		}
	}
	return ""
}

// isParam reports whether v is one of fd's parameters.
func isParam(fd *ast.FuncDecl, pass *analysis.Pass, v *types.Var) bool {
	for _, f := range fd.Type.Params.List {
		for _, n := range f.Names {
			if pass.TypesInfo.Defs[n] == v {
				return true
			}
		}
	}
	return false
}

// partitionLoop returns the first for loop after pos whose body reads
// the pivot, or nil.
func partitionLoop(pass *analysis.Pass, body *ast.BlockStmt, pivot types.Object, after token.Pos) *ast.ForStmt {
	var found *ast.ForStmt
	ast.Inspect(body, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		f, ok := n.(*ast.ForStmt)
		if !ok || f.Pos() < after {
			return true
		}
		uses := false
		ast.Inspect(f.Body, func(m ast.Node) bool {
			if id, ok := m.(*ast.Ident); ok && pass.TypesInfo.Uses[id] == pivot {
				uses = true
			}
			return !uses
		})
		if uses {
			found = f
		}
		return found == nil
	})
	return found
}

// bytesCompareOfArrays returns the text of a bytes.Compare call in the
// loop whose arguments slice fixed-size arrays (a[j][:]), or "".
func bytesCompareOfArrays(pass *analysis.Pass, loop *ast.ForStmt) string {
	out := ""
	ast.Inspect(loop, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || out != "" || !isFunc(pass, call, "bytes", "", "Compare") || len(call.Args) != 2 {
			return out == ""
		}
		for _, a := range call.Args {
			s, ok := ast.Unparen(a).(*ast.SliceExpr)
			if !ok {
				return true
			}
			t := pass.TypesInfo.TypeOf(s.X)
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if _, isArray := t.Underlying().(*types.Array); !isArray {
				return true
			}
		}
		out = "bytes.Compare"
		return false
	})
	return out
}
