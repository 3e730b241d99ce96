package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// KMPStep finds a Knuth–Morris–Pratt search that feeds its automaton one
// element of the input per iteration: a loop that reads in[pos], falls
// back along the failure table while the element does not extend the
// partial match (for k > 0 && r != lit[k] { k = table[k-1] }) and steps
// pos by one. With no partial match open (k == 0) the loop only looks for
// lit[0], an element at a time, where a vectorized search (bytes.IndexByte,
// strings.IndexRune, or the package's own search of one value) jumps to
// it. dlclark/regexp2's requiredLandmarkCursor.findLiteral, jumping with
// helpers.IndexOfAny1 when k == 0: −43% on a string input, −82% on runes
// (non_matching_email, measured by hand).
var KMPStep = &analysis.Analyzer{
	Name: "kmpstep",
	Doc:  "a Knuth–Morris–Pratt loop that reads its input one element per iteration, even with no partial match open",
	Run:  runKMPStep,
}

func runKMPStep(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			loop, ok := n.(*ast.ForStmt)
			if !ok || loop.Body == nil {
				return
			}
			for _, st := range loop.Body.List {
				inner, ok := st.(*ast.ForStmt)
				if !ok {
					continue
				}
				k, elem, lit, ok := failureLoop(inner)
				if !ok {
					continue
				}
				in, pos := readAt(pass, loop, elem)
				// The failure table's own construction walks the
				// pattern, not an input.
				if in == nil || types.ExprString(in) == lit || !incremented(loop, pos) {
					continue
				}
				t := pass.TypesInfo.TypeOf(in)
				if t == nil {
					continue
				}
				search := oneValueSearch(pass, t, fmt.Sprintf("%s[%s:]", oneLine(types.ExprString(in)), pos), lit+"[0]")
				if search == "" {
					continue
				}
				pass.Report(analysis.Diagnostic{
					Category: "kmp-step",
					Pos:      loop.Pos(),
					Message: fmt.Sprintf("%s's Knuth–Morris–Pratt loop (line %d) feeds %s to the automaton one element per iteration (%s++), even with no partial match open (%s == 0), when all it looks for is %s[0]",
						fd.Name.Name, pass.Fset.Position(loop.Pos()).Line, oneLine(types.ExprString(in)), pos, k, lit),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"while %s == 0, jump %s to the next %s[0] with %s (a search many elements at a time) and feed the automaton from there: the runs between candidates cost one search, not an iteration each", k, pos, lit, search)}},
				})
				return
			}
		})
	})
	return nil, nil
}

// failureLoop matches a KMP fallback, for k > 0 && r != lit[k] { k =
// table[k-1] } (the operands of && and != in either order), and returns
// k, r and lit as the code spells them.
func failureLoop(f *ast.ForStmt) (k, elem, lit string, ok bool) {
	if f.Init != nil || f.Post != nil || f.Body == nil || len(f.Body.List) != 1 {
		return "", "", "", false
	}
	and, ok1 := ast.Unparen(f.Cond).(*ast.BinaryExpr)
	if !ok1 || and.Op != token.LAND {
		return "", "", "", false
	}
	pos, neq := ast.Unparen(and.X), ast.Unparen(and.Y)
	if b, ok := pos.(*ast.BinaryExpr); !ok || b.Op != token.GTR {
		pos, neq = neq, pos
	}
	gt, ok1 := pos.(*ast.BinaryExpr)
	ne, ok2 := neq.(*ast.BinaryExpr)
	if !ok1 || !ok2 || gt.Op != token.GTR || ne.Op != token.NEQ || !isZero(gt.Y) {
		return "", "", "", false
	}
	k = types.ExprString(gt.X)
	a, b := ast.Unparen(ne.X), ast.Unparen(ne.Y)
	ix, isIx := b.(*ast.IndexExpr)
	if !isIx || types.ExprString(ix.Index) != k {
		a, b = b, a
		ix, isIx = b.(*ast.IndexExpr)
	}
	if !isIx || types.ExprString(ix.Index) != k {
		return "", "", "", false
	}
	as, ok1 := f.Body.List[0].(*ast.AssignStmt)
	if !ok1 || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || types.ExprString(as.Lhs[0]) != k {
		return "", "", "", false
	}
	back, ok1 := ast.Unparen(as.Rhs[0]).(*ast.IndexExpr)
	if !ok1 || types.ExprString(back.Index) != k+" - 1" {
		return "", "", "", false
	}
	return k, types.ExprString(a), types.ExprString(ix.X), true
}

// isZero reports whether e is the constant 0.
func isZero(e ast.Expr) bool {
	lit, ok := ast.Unparen(e).(*ast.BasicLit)
	return ok && lit.Kind == token.INT && lit.Value == "0"
}

// readAt finds what the element compared in a failure loop is read from:
// elem is in[pos] itself, or a variable the loop's body sets to in[pos].
// It returns in and pos's spelling, or nil.
func readAt(pass *analysis.Pass, loop *ast.ForStmt, elem string) (ast.Expr, string) {
	pick := func(e ast.Expr) (ast.Expr, string) {
		ix, ok := ast.Unparen(e).(*ast.IndexExpr)
		if !ok {
			return nil, ""
		}
		switch pass.TypesInfo.TypeOf(ix.X).Underlying().(type) {
		case *types.Slice, *types.Basic:
			return ix.X, types.ExprString(ix.Index)
		}
		return nil, ""
	}
	for _, st := range loop.Body.List {
		as, ok := st.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || types.ExprString(as.Lhs[0]) != elem {
			continue
		}
		return pick(as.Rhs[0])
	}
	if strings.Contains(elem, "[") {
		return pick(indexSpelled(loop, elem))
	}
	return nil, ""
}

// indexSpelled is the index expression of the loop's body spelled s, or
// nil.
func indexSpelled(loop *ast.ForStmt, s string) ast.Expr {
	var found ast.Expr
	ast.Inspect(loop.Body, func(n ast.Node) bool {
		if e, ok := n.(*ast.IndexExpr); ok && found == nil && types.ExprString(e) == s {
			found = e
		}
		return found == nil
	})
	if found == nil {
		return nil
	}
	return found
}

// incremented reports whether the loop steps pos by one: pos++ in its
// post statement or anywhere in its body's top level.
func incremented(loop *ast.ForStmt, pos string) bool {
	is := func(s ast.Stmt) bool {
		inc, ok := s.(*ast.IncDecStmt)
		return ok && inc.Tok == token.INC && types.ExprString(inc.X) == pos
	}
	if loop.Post != nil && is(loop.Post) {
		return true
	}
	for _, s := range loop.Body.List {
		if is(s) {
			return true
		}
	}
	return false
}

// oneValueSearch is the call that finds the next v in rest, a slice or
// string of t's type, many elements at a time: the library's for bytes and
// strings, the package's own (or a package of its module's) function of
// one value for any other element type, else "".
func oneValueSearch(pass *analysis.Pass, t types.Type, rest, v string) string {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Info()&types.IsString != 0 {
			return fmt.Sprintf("strings.IndexRune(%s, %s) (strings.IndexByte for a byte)", rest, v)
		}
	case *types.Slice:
		if types.Identical(u.Elem(), types.Typ[types.Byte]) {
			return fmt.Sprintf("bytes.IndexByte(%s, %s)", rest, v)
		}
		if f := moduleSearch(pass, u); f != "" {
			return fmt.Sprintf("%s(%s, %s)", f, rest, v)
		}
	}
	return ""
}

// moduleSearch is a function of the package or of a package of its
// module it imports, func([]E, E) int, named Index…: the module's own
// search of one value in a slice of E (regexp2's helpers.IndexOfAny1).
func moduleSearch(pass *analysis.Pass, s *types.Slice) string {
	root := pass.Pkg.Path()
	if parts := strings.SplitN(root, "/", 4); len(parts) >= 3 {
		root = strings.Join(parts[:3], "/")
	}
	pkgs := []*types.Package{pass.Pkg}
	for _, p := range pass.Pkg.Imports() {
		if strings.HasPrefix(p.Path(), root) {
			pkgs = append(pkgs, p)
		}
	}
	for _, p := range pkgs {
		for _, name := range p.Scope().Names() {
			f, ok := p.Scope().Lookup(name).(*types.Func)
			if !ok || !strings.HasPrefix(name, "Index") || p != pass.Pkg && !f.Exported() {
				continue
			}
			sig := f.Type().(*types.Signature)
			if sig.Params().Len() != 2 || sig.Results().Len() != 1 || !types.Identical(sig.Params().At(0).Type(), s) ||
				!types.Identical(sig.Params().At(1).Type(), s.Elem()) || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.Int]) {
				continue
			}
			if p == pass.Pkg {
				return name
			}
			return p.Name() + "." + name
		}
	}
	return ""
}
