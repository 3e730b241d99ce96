package site

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// loopAdvice recognises the loops whose work another way does in far
// fewer steps, and says what the loop is and that way:
//
//   - a binary search (for lo < hi { mid := (lo+hi)/2; … t[mid] … }):
//     about log2 n dependent probes per call, each a load and a branch
//     the processor cannot predict; the inputs that are common (a small
//     range such as ASCII) are answered by a table indexed directly,
//     before the search;
//   - a byte-at-a-time search for one constant byte (for i := 0; i <
//     len(s); i++ { if s[i] == c { … break or return } }): strings.IndexByte
//     (bytes.IndexByte) compares many bytes per instruction.
//
// It returns "" for any other loop.
func loopAdvice(pass *analysis.Pass, f *ast.ForStmt) (says, advice string) {
	if table, n, ok := binarySearch(pass, f); ok {
		of := "the table"
		if table != "" {
			of = table
		}
		probes := "about log2 n probes"
		if n > 1 {
			of += fmt.Sprintf(" (%d entries)", n)
			probes = fmt.Sprintf("about %d probes", int(math.Ceil(math.Log2(float64(n)))))
		}
		return "a binary search of " + of,
			fmt.Sprintf("each call makes %s, each a load the next one waits for and a branch the processor cannot predict: answer the common inputs before the search, from a table indexed directly (an array for a small range such as ASCII, built once), or replace the search by a two-level lookup table", probes)
	}
	if s, c, pkg, ok := byteSearch(pass, f); ok {
		return fmt.Sprintf("a byte-at-a-time search of %s for %s", s, c),
			fmt.Sprintf("%s.IndexByte(%s, %s) finds it comparing many bytes per instruction: start the loop's work from the index it returns", pkg, s, c)
	}
	if s, table, set, pkg, ok := tableScan(pass, f); ok {
		return fmt.Sprintf("a byte-at-a-time scan of %s for the %d bytes %s marks (%s)", s, len(set), table, quoteBytes(set)),
			fmt.Sprintf("%s.IndexAny(%s[i:], %s) finds the next one comparing many bytes per step: handle the run before it in one piece (one write, one copy) and continue after it", pkg, s, strconv.Quote(string(set)))
	}
	return "", ""
}

// tableScan reports whether f steps through a string or byte slice one
// byte at a time (for i < len(s) … i++) and looks each byte up in a
// package-level table of 256 entries, or a map of bytes, whose literal
// marks at most 8 bytes (htmlEscaper[s[end]]): the bytes between the
// marked ones are only stepped over. It returns the sequence, the
// table's name, the marked bytes in order and strings or bytes.
func tableScan(pass *analysis.Pass, f *ast.ForStmt) (s, table string, set []byte, pkg string, ok bool) {
	cond, isBin := f.Cond.(*ast.BinaryExpr)
	if !isBin || cond.Op != token.LSS {
		return "", "", nil, "", false
	}
	i := objOf(pass, cond.X)
	call, isCall := cond.Y.(*ast.CallExpr)
	if i == nil || !isCall || !isBuiltin(pass, call.Fun, "len") || len(call.Args) != 1 {
		return "", "", nil, "", false
	}
	seq := call.Args[0]
	switch t := pass.TypesInfo.TypeOf(seq).Underlying().(type) {
	case *types.Basic:
		if t.Info()&types.IsString == 0 {
			return "", "", nil, "", false
		}
		pkg = "strings"
	case *types.Slice:
		if b, isBasic := t.Elem().Underlying().(*types.Basic); !isBasic || b.Kind() != types.Byte {
			return "", "", nil, "", false
		}
		pkg = "bytes"
	default:
		return "", "", nil, "", false
	}
	ast.Inspect(f.Body, func(n ast.Node) bool {
		ix, isIndex := n.(*ast.IndexExpr)
		if !isIndex || ok {
			return !ok
		}
		inner, isInner := ast.Unparen(ix.Index).(*ast.IndexExpr)
		if !isInner || objOf(pass, inner.Index) != i || types.ExprString(inner.X) != types.ExprString(seq) {
			return true
		}
		v, isVar := objOf(pass, ix.X).(*types.Var)
		if !isVar || v.Parent() != pass.Pkg.Scope() {
			return true
		}
		if marked, found := markedBytes(pass, v); found {
			table, set, ok = v.Name(), marked, true
		}
		return true
	})
	if !ok {
		return "", "", nil, "", false
	}
	return oneLine(types.ExprString(seq)), table, set, pkg, true
}

// markedBytes returns the keys of v's literal, a [256]T array or a map
// keyed by bytes, when they are at most 8 constant bytes.
func markedBytes(pass *analysis.Pass, v *types.Var) ([]byte, bool) {
	switch t := v.Type().Underlying().(type) {
	case *types.Array:
		if t.Len() != 256 {
			return nil, false
		}
	case *types.Map:
		if b, isBasic := t.Key().Underlying().(*types.Basic); !isBasic || b.Kind() != types.Byte && b.Kind() != types.Uint8 {
			return nil, false
		}
	default:
		return nil, false
	}
	for pv, value := range packageVars(pass) {
		if pv != v {
			continue
		}
		lit, isLit := ast.Unparen(value).(*ast.CompositeLit)
		if !isLit || len(lit.Elts) == 0 || len(lit.Elts) > 8 {
			return nil, false
		}
		var set []byte
		for _, e := range lit.Elts {
			kv, isKV := e.(*ast.KeyValueExpr)
			if !isKV {
				return nil, false
			}
			tv, known := pass.TypesInfo.Types[kv.Key]
			if !known || tv.Value == nil {
				return nil, false
			}
			b, exact := constant.Int64Val(constant.ToInt(tv.Value))
			if !exact || b < 0 || b > 255 {
				return nil, false
			}
			set = append(set, byte(b))
		}
		slices.Sort(set)
		return set, true
	}
	return nil, false
}

// quoteBytes writes bytes as Go character literals: '&', '<'.
func quoteBytes(set []byte) string {
	parts := make([]string, len(set))
	for i, b := range set {
		parts[i] = strconv.QuoteRune(rune(b))
	}
	return strings.Join(parts, ", ")
}

// binarySearch reports whether f halves a range per iteration: its
// condition compares two variables (lo < hi, lo <= hi), its body
// computes their midpoint and indexes a table with it. table is the
// table's name, n its length when known (an array, or a package-level
// slice made by a composite literal).
func binarySearch(pass *analysis.Pass, f *ast.ForStmt) (table string, n int, ok bool) {
	cond, isBin := f.Cond.(*ast.BinaryExpr)
	if !isBin || cond.Op != token.LSS && cond.Op != token.LEQ && cond.Op != token.GTR && cond.Op != token.GEQ {
		return "", 0, false
	}
	lo, hi := objOf(pass, cond.X), objOf(pass, cond.Y)
	if lo == nil || hi == nil || lo == hi {
		return "", 0, false
	}
	var mid types.Object
	ast.Inspect(f.Body, func(n ast.Node) bool {
		as, isAssign := n.(*ast.AssignStmt)
		if !isAssign || mid != nil || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return true
		}
		if midpoint(pass, as.Rhs[0], lo, hi) {
			mid = objOf(pass, as.Lhs[0])
		}
		return true
	})
	if mid == nil {
		return "", 0, false
	}
	var tbl ast.Expr
	ast.Inspect(f.Body, func(n ast.Node) bool {
		ix, isIndex := n.(*ast.IndexExpr)
		if isIndex && tbl == nil && objOf(pass, ix.Index) == mid {
			tbl = ix.X
		}
		return tbl == nil
	})
	if tbl == nil {
		return "", 0, false
	}
	if _, field := ast.Unparen(tbl).(*ast.SelectorExpr); field || callsFuncValue(pass, f.Body) {
		// A container's own data (node.Entries), or probes compared
		// through a comparator: the structure's search, not a table
		// of constant answers a direct index could hold.
		return "", 0, false
	}
	return oneLine(types.ExprString(tbl)), tableLen(pass, tbl), true
}

// callsFuncValue reports whether body calls a function value (a field or
// variable of func type, such as a comparator), not a declared function
// or method.
func callsFuncValue(pass *analysis.Pass, body ast.Node) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		if tv, ok := pass.TypesInfo.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
			return true
		}
		if t := pass.TypesInfo.TypeOf(call.Fun); t != nil && calledFunc(pass, call) == nil {
			if _, isSig := t.Underlying().(*types.Signature); !isSig {
				return true
			}
			if _, lit := ast.Unparen(call.Fun).(*ast.FuncLit); !lit {
				found = true
			}
		}
		return true
	})
	return found
}

// midpoint reports whether e is the midpoint of lo and hi: (lo+hi)/2,
// (lo+hi)>>1, lo+(hi-lo)/2, int(uint(lo+hi)>>1).
func midpoint(pass *analysis.Pass, e ast.Expr, lo, hi types.Object) bool {
	uses := map[types.Object]bool{}
	halves := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Ident:
			if o := pass.TypesInfo.Uses[x]; o == lo || o == hi {
				uses[o] = true
			}
		case *ast.BinaryExpr:
			if tv, ok := pass.TypesInfo.Types[x.Y]; ok && tv.Value != nil && tv.Value.String() == map[token.Token]string{token.QUO: "2", token.SHR: "1"}[x.Op] {
				halves = true
			}
		}
		return true
	})
	return halves && len(uses) == 2
}

// byteSearch reports whether f walks a string or byte slice one index at
// a time (for i := …; i < len(s); i++) and its body starts by comparing
// s[i] with a constant, leaving the loop when they are equal. It returns
// s, the constant and the package with IndexByte for s's type.
func byteSearch(pass *analysis.Pass, f *ast.ForStmt) (s, c, pkg string, ok bool) {
	cond, isBin := f.Cond.(*ast.BinaryExpr)
	if !isBin || cond.Op != token.LSS || len(f.Body.List) == 0 {
		return "", "", "", false
	}
	i := objOf(pass, cond.X)
	call, isCall := cond.Y.(*ast.CallExpr)
	if i == nil || !isCall || !isBuiltin(pass, call.Fun, "len") || len(call.Args) != 1 {
		return "", "", "", false
	}
	if inc, isInc := f.Post.(*ast.IncDecStmt); !isInc || inc.Tok != token.INC || objOf(pass, inc.X) != i {
		return "", "", "", false
	}
	seq := call.Args[0]
	switch t := pass.TypesInfo.TypeOf(seq).Underlying().(type) {
	case *types.Basic:
		if t.Info()&types.IsString == 0 {
			return "", "", "", false
		}
		pkg = "strings"
	case *types.Slice:
		if b, isBasic := t.Elem().Underlying().(*types.Basic); !isBasic || b.Kind() != types.Byte {
			return "", "", "", false
		}
		pkg = "bytes"
	default:
		return "", "", "", false
	}
	first, isIf := f.Body.List[0].(*ast.IfStmt)
	if !isIf || first.Init != nil || first.Else != nil || !leaves(first.Body.List) {
		return "", "", "", false
	}
	eq, isEq := first.Cond.(*ast.BinaryExpr)
	if !isEq || eq.Op != token.EQL {
		return "", "", "", false
	}
	ix, isIndex := eq.X.(*ast.IndexExpr)
	if !isIndex || objOf(pass, ix.Index) != i || types.ExprString(ix.X) != types.ExprString(seq) {
		return "", "", "", false
	}
	if tv, isConst := pass.TypesInfo.Types[eq.Y]; !isConst || tv.Value == nil {
		return "", "", "", false
	}
	return oneLine(types.ExprString(seq)), oneLine(types.ExprString(eq.Y)), pkg, true
}

// leaves reports whether a statement list leaves the loop: it ends in a
// break or a return.
func leaves(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	switch x := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return x.Tok == token.BREAK && x.Label == nil
	}
	return false
}

// objOf is the variable an identifier expression names, or nil.
func objOf(pass *analysis.Pass, e ast.Expr) types.Object {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	if o := pass.TypesInfo.Uses[id]; o != nil {
		return o
	}
	return pass.TypesInfo.Defs[id]
}

// tableLen is the length of the table e names when the code says it: an
// array's, or the elements of the composite literal a package-level var
// is declared with; 0 otherwise.
func tableLen(pass *analysis.Pass, e ast.Expr) int {
	t := pass.TypesInfo.TypeOf(e)
	if t == nil {
		return 0
	}
	if a, ok := t.Underlying().(*types.Array); ok {
		return int(a.Len())
	}
	v, ok := objOf(pass, e).(*types.Var)
	if !ok || v.Parent() != v.Pkg().Scope() {
		return 0
	}
	for pv, value := range packageVars(pass) {
		if pv == v {
			if cl, ok := value.(*ast.CompositeLit); ok {
				return len(cl.Elts)
			}
			break
		}
	}
	return 0
}
