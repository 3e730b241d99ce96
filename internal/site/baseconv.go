package site

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// baseConversion recognises schoolbook base conversion: an outer loop
// that runs while a slice of digits is not empty (`for len(bp) != 0`),
// an inner loop over that slice that divides the whole number by one
// constant (`value / dstBase`, `value % dstBase`) after multiplying the
// remainder by another (`remainder*srcBase`), and the quotient taking
// the slice's place for the next pass. Each pass over all the digits
// yields one output digit: O(n²) in the number's length. It returns the
// inner loop with what the pair does and the fix that fits: with a small
// divisor, divide by its largest power that fits the arithmetic and peel
// that many digits per pass; with a small multiplier (the number held as
// one small digit per element), fold the digits into limbs of its power
// first, so that each pass runs over fewer of them.
func baseConversion(pass *analysis.Pass, outer *ast.ForStmt) (*ast.RangeStmt, string, string) {
	digits := lenCond(outer.Cond)
	if digits == nil {
		return nil, "", ""
	}
	var inner *ast.RangeStmt
	for _, st := range outer.Body.List {
		if r, ok := st.(*ast.RangeStmt); ok && sameDigitsVar(pass, r.X, digits) {
			inner = r
		}
	}
	if inner == nil || !assigns(pass, outer.Body, digits) {
		return nil, "", ""
	}
	var mul, div int64
	ast.Inspect(inner.Body, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok {
			return true
		}
		v := constInt(pass, b.Y)
		if v == 0 {
			v = constInt(pass, b.X)
		}
		switch b.Op {
		case token.MUL:
			mul = max(mul, v)
		case token.QUO, token.REM:
			if div == 0 || div == v {
				div = v
			}
		}
		return true
	})
	if mul < 2 || div < 2 {
		return nil, "", ""
	}
	name := types.ExprString(digits)
	says := fmt.Sprintf("schoolbook base conversion: each pass of the loop at line %d runs over every digit of %s, dividing the whole number by %d, and yields one output digit, so the passes grow with the number's length and each pass with it too (O(n²))",
		pass.Fset.Position(outer.Pos()).Line, name, div)
	const word = 1 << 32
	switch {
	case div < 1<<16:
		k, p := powerBelow(div, word)
		return inner, says, fmt.Sprintf("divide by %d^%d = %d (the largest power below 2^32, so the remainder times the limb base still fits a uint64) and peel %d digits from each remainder with 32-bit operations: a %s of the passes", div, k, p, k, fraction(k))
	case mul < 1<<16:
		k, p := powerBelow(mul, word)
		return inner, says, fmt.Sprintf("the number is held as one base-%d digit per element of %s, so every pass runs over all of them: fold them first into limbs of %d^%d = %d (below 2^32, so a limb times the remainder still fits a uint64), then divide limb by limb: a %s of the work per pass", mul, name, mul, k, p, fraction(k))
	}
	return nil, "", ""
}

// lenCond returns x of a condition len(x) != 0 or len(x) > 0, or nil.
func lenCond(e ast.Expr) ast.Expr {
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ && b.Op != token.GTR {
		return nil
	}
	call, ok := ast.Unparen(b.X).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil
	}
	if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "len" {
		return nil
	}
	if lit, ok := ast.Unparen(b.Y).(*ast.BasicLit); !ok || lit.Value != "0" {
		return nil
	}
	return call.Args[0]
}

// sameDigitsVar reports whether a and b name the same variable.
func sameDigitsVar(pass *analysis.Pass, a, b ast.Expr) bool {
	x, y := objOf(pass, a), objOf(pass, b)
	return x != nil && x == y
}

// assigns reports whether body assigns v (`bp = quotient`) at its top level.
func assigns(pass *analysis.Pass, body *ast.BlockStmt, v ast.Expr) bool {
	for _, st := range body.List {
		if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN && len(as.Lhs) == 1 && sameDigitsVar(pass, as.Lhs[0], v) {
			return true
		}
	}
	return false
}

// constInt is e's integer constant value, or 0.
func constInt(pass *analysis.Pass, e ast.Expr) int64 {
	tv, ok := pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0
	}
	v, ok := constant.Int64Val(tv.Value)
	if !ok {
		return 0
	}
	return v
}

// powerBelow returns the largest k with b^k < limit, and b^k.
func powerBelow(b, limit int64) (int, int64) {
	k, p := 0, int64(1)
	for p*b < limit {
		p *= b
		k++
	}
	return k, p
}

// fraction names 1/k in words.
func fraction(k int) string {
	switch k {
	case 2:
		return "half"
	case 3:
		return "third"
	case 4:
		return "quarter"
	case 5:
		return "fifth"
	}
	return fmt.Sprintf("1/%d", k)
}
