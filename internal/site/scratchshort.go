package site

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// ScratchShort finds a byte array on the stack handed, empty, as the
// buffer a call appends a number's text to, when that text can be longer
// than the array: cockroachdb/apd's Decimal.Append formats the
// coefficient into var scratch [16]byte with d.Coeff.Append(scratch[:0],
// 10), whose strconv.AppendUint of a uint64 in base 10 (after a '-')
// needs up to 21 bytes; a coefficient of 17 digits or more makes the
// append copy to the heap (the analysis by hand: a [20]byte, and Text's
// buffer at 48, took BenchmarkDecimalString from 1 alloc to 0 and its
// CPU −47%). The shape names the length the longest text takes.
var ScratchShort = &analysis.Analyzer{
	Name: "scratchshort",
	Doc:  "a stack byte array too short for the number text a call appends to it",
	Run:  runScratchShort,
}

func runScratchShort(pass *analysis.Pass) (any, error) {
	decls := declsByFunc(pass)
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return
			}
			arr, size := emptyArraySlice(pass, call.Args[0])
			if arr == nil {
				return
			}
			need, what, callee := appendsUpTo(pass, decls, call, 2)
			if need <= size {
				return
			}
			var related []analysis.RelatedInformation
			if callee != nil {
				related = append(related, analysis.RelatedInformation{Pos: callee.Pos(), Message: allocatingCallee})
			}
			pass.Report(analysis.Diagnostic{
				Category: "scratch-short",
				Pos:      call.Pos(),
				Message: fmt.Sprintf("%s passes %s[:0], a [%d]byte, to %s, which appends up to %d bytes (%s): a longer text makes the append copy it to the heap",
					fd.Name.Name, arr.Name(), size, oneLine(types.ExprString(call.Fun)), need, what),
				Related: related,
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"make %s a [%d]byte, the longest text's length: every append then stays in it, on the stack", arr.Name(), need)}},
			})
		})
	})
	return nil, nil
}

// emptyArraySlice returns the local array e empties (buf[:0] of var buf
// [N]byte) and its length.
func emptyArraySlice(pass *analysis.Pass, e ast.Expr) (*types.Var, int64) {
	sl, ok := ast.Unparen(e).(*ast.SliceExpr)
	if !ok || sl.Low != nil || sl.High == nil || sl.Slice3 {
		return nil, 0
	}
	if tv, ok := pass.TypesInfo.Types[sl.High]; !ok || tv.Value == nil || constant.Sign(tv.Value) != 0 {
		return nil, 0
	}
	v := identVar(pass, sl.X)
	if v == nil || v.Parent() == pass.Pkg.Scope() {
		return nil, 0
	}
	a, ok := v.Type().Underlying().(*types.Array)
	if !ok {
		return nil, 0
	}
	if b, ok := a.Elem().Underlying().(*types.Basic); !ok || b.Kind() != types.Byte {
		return nil, 0
	}
	return v, a.Len()
}

// appendsUpTo returns the most bytes call appends to its first argument
// when that is strconv's integer or float append, or a function of the
// package passing its first parameter to one (depth calls deep, with a
// byte appended before it counted), what appends them, and that
// function; 0 when unknown.
func appendsUpTo(pass *analysis.Pass, decls map[*types.Func]*ast.FuncDecl, call *ast.CallExpr, depth int) (int64, string, *types.Func) {
	fn := calledFunc(pass, call)
	if fn == nil || fn.Pkg() == nil {
		return 0, "", nil
	}
	if fn.Pkg().Path() == "strconv" {
		n, what := strconvLen(pass, fn.Name(), call.Args, nil)
		return n, what, nil
	}
	fd := decls[fn]
	if fd == nil || depth == 0 || fn.Pkg() != pass.Pkg {
		return 0, "", nil
	}
	p := paramAt(pass, fd, 0)
	if p == nil {
		return 0, "", nil
	}
	// The constants the call passes for the callee's parameters (a
	// base of 10).
	consts := map[*types.Var]constant.Value{}
	for i, a := range call.Args {
		if tv, ok := pass.TypesInfo.Types[a]; ok && tv.Value != nil {
			if q := paramAt(pass, fd, i); q != nil {
				consts[q] = tv.Value
			}
		}
	}
	var most int64
	var what string
	prefix := int64(0)
	inspectBody(fd.Body, func(n ast.Node) {
		inner, ok := n.(*ast.CallExpr)
		if !ok || len(inner.Args) == 0 || identVar(pass, inner.Args[0]) != p {
			return
		}
		if isBuiltin(pass, inner.Fun, "append") && len(inner.Args) == 2 && !inner.Ellipsis.IsValid() {
			prefix = 1 // buf = append(buf, '-')
			return
		}
		callee := calledFunc(pass, inner)
		if callee == nil || callee.Pkg() == nil || callee.Pkg().Path() != "strconv" {
			return
		}
		if k, w := strconvLen(pass, callee.Name(), inner.Args, consts); k > most {
			most, what = k, w
		}
	})
	if most == 0 {
		return 0, "", nil
	}
	if prefix > 0 {
		what += ", after a byte appended before it"
	}
	return most + prefix, what, fn
}

// strconvLen returns the longest text strconv's append function name
// writes for its arguments (a base or a format and bit size that are
// constants, or parameters whose constants consts gives), and what it
// writes; 0 when they are not known.
func strconvLen(pass *analysis.Pass, name string, args []ast.Expr, consts map[*types.Var]constant.Value) (int64, string) {
	value := func(i int) (int64, bool) {
		if i >= len(args) {
			return 0, false
		}
		if tv, ok := pass.TypesInfo.Types[args[i]]; ok && tv.Value != nil {
			return constant.Int64Val(constant.ToInt(tv.Value))
		}
		if v := identVar(pass, args[i]); v != nil && consts[v] != nil {
			return constant.Int64Val(constant.ToInt(consts[v]))
		}
		return 0, false
	}
	switch name {
	case "AppendInt", "AppendUint":
		base, ok := value(2)
		if !ok || base < 2 || base > 36 {
			return 0, ""
		}
		n := int64(0)
		for x := ^uint64(0); x > 0; x /= uint64(base) {
			n++
		}
		kind := "a uint64"
		if name == "AppendInt" {
			kind = "an int64 with its sign"
		}
		return n, fmt.Sprintf("strconv.%s of %s in base %d", name, kind, base)
	case "AppendFloat":
		if bits, ok := value(4); ok && bits == 64 {
			if f, ok := value(2); ok && (f == 'e' || f == 'E' || f == 'g' || f == 'G') {
				if prec, ok := value(3); ok && prec == -1 {
					return 24, fmt.Sprintf("strconv.AppendFloat of a float64 with '%c' and the shortest precision, as in -1.7976931348623157e+308", rune(f))
				}
			}
		}
	}
	return 0, ""
}
