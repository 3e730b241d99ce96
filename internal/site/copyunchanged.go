package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// CopyUnchanged finds a function that copies its string input element
// by element into a builder, writing a replacement where one applies and
// the element itself elsewhere, and returns the builder's text
// (SubstituteRune's `if d, ok := sub[c]; ok { buf.WriteString(d) } else
// { buf.WriteRune(c) }`, then `return buf.String()`): when nothing is
// replaced the result equals the input, yet every call builds it anew
// and copies it once more for the string. The fix that fits is a scan
// first that returns the input itself when nothing changes, and a copy
// of the unchanged prefix in one write when something does.
var CopyUnchanged = &analysis.Analyzer{
	Name: "copyunchanged",
	Doc:  "a string copied element by element into a builder, replacements where they apply, returned even when nothing changed",
	Run:  runCopyUnchanged,
}

func runCopyUnchanged(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		returned := returnedBuilders(pass, fd)
		if len(returned) == 0 {
			return
		}
		inspectBody(fd.Body, func(n ast.Node) {
			r, ok := n.(*ast.RangeStmt)
			if !ok || r.Value == nil {
				return
			}
			in, ok := ast.Unparen(r.X).(*ast.Ident)
			if !ok || !isString(pass.TypesInfo.TypeOf(in)) {
				return
			}
			param, _ := pass.TypesInfo.Uses[in].(*types.Var)
			if param == nil || !isParam(fd, pass, param) {
				return
			}
			elem := objOf(pass, r.Value)
			if elem == nil || returnsVar(pass, fd, param) {
				return // it returns its input where nothing changes
			}
			for _, st := range r.Body.List {
				ifs, ok := st.(*ast.IfStmt)
				if !ok || ifs.Else == nil {
					continue
				}
				els, ok := ifs.Else.(*ast.BlockStmt)
				if !ok {
					continue
				}
				same := identityWrite(pass, els, elem, returned)
				other := identityWrite(pass, ifs.Body, nil, returned)
				if same == nil || other == nil {
					continue
				}
				b := types.ExprString(same.Fun.(*ast.SelectorExpr).X)
				pass.Report(analysis.Diagnostic{
					Category: "copy-unchanged",
					Pos:      same.Pos(),
					Message: fmt.Sprintf("%s copies %s element by element into %s, a replacement where one applies (line %d) and %s itself elsewhere, then returns %s's text (line %d): when nothing is replaced the result equals %s, yet it is built and copied on every call",
						fd.Name.Name, in.Name, b, pass.Fset.Position(other.Pos()).Line, types.ExprString(r.Value), b, returned[objOf(pass, same.Fun.(*ast.SelectorExpr).X).(*types.Var)], in.Name),
					Related: []analysis.RelatedInformation{
						{Pos: r.Pos(), Message: "the copying loop"},
						{Pos: other.Pos(), Message: "the replacement"},
					},
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"scan %s first for the first element that changes and return %s itself when there is none (no builder, no copy); when one does, give a strings.Builder room for len(%s) (Grow), write %s's unchanged prefix in one WriteString and go on from there", in.Name, in.Name, in.Name, in.Name)}},
				})
			}
		})
	})
	return nil, nil
}

// returnedBuilders returns the local strings.Builder and bytes.Buffer
// variables (or pointers to them) whose text fd returns (return
// b.String(), return b.Bytes()), with the return's line.
func returnedBuilders(pass *analysis.Pass, fd *ast.FuncDecl) map[*types.Var]int {
	out := map[*types.Var]int{}
	inspectBody(fd.Body, func(n ast.Node) {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok {
			return
		}
		for _, e := range ret.Results {
			call, ok := ast.Unparen(e).(*ast.CallExpr)
			if !ok || len(call.Args) != 0 {
				continue
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "String" && sel.Sel.Name != "Bytes" {
				continue
			}
			if v := localBuilder(pass, fd, sel.X); v != nil {
				out[v] = pass.Fset.Position(ret.Pos()).Line
			}
		}
	})
	return out
}

// localBuilder returns the local variable e names when it is a
// strings.Builder or a bytes.Buffer (or a pointer to one), or nil.
func localBuilder(pass *analysis.Pass, fd *ast.FuncDecl, e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := pass.TypesInfo.ObjectOf(id).(*types.Var)
	if v == nil || v.IsField() || v.Pos() < fd.Body.Pos() || v.Pos() > fd.End() {
		return nil
	}
	t := v.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if !isNamed(t, "strings", "Builder") && !isNamed(t, "bytes", "Buffer") {
		return nil
	}
	return v
}

// identityWrite returns the one write into a returned builder that a
// block makes (WriteRune, WriteByte, WriteString, Write): of elem itself
// when elem is not nil, of anything else when it is.
func identityWrite(pass *analysis.Pass, block *ast.BlockStmt, elem types.Object, builders map[*types.Var]int) *ast.CallExpr {
	if len(block.List) != 1 {
		return nil
	}
	es, ok := block.List[0].(*ast.ExprStmt)
	if !ok {
		return nil
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	switch sel.Sel.Name {
	case "WriteRune", "WriteByte", "WriteString", "Write":
	default:
		return nil
	}
	v, _ := objOf(pass, sel.X).(*types.Var)
	if v == nil || builders[v] == 0 {
		return nil
	}
	arg := ast.Unparen(call.Args[0])
	if c, ok := arg.(*ast.CallExpr); ok && len(c.Args) == 1 && isConversion(pass, c) {
		arg = ast.Unparen(c.Args[0]) // WriteString(string(c))
	}
	if isElem := elem != nil && objOf(pass, arg) == elem; isElem != (elem != nil) {
		return nil
	}
	return call
}

// returnsVar reports whether one of fd's return statements returns v
// itself (return s).
func returnsVar(pass *analysis.Pass, fd *ast.FuncDecl, v *types.Var) bool {
	found := false
	inspectBody(fd.Body, func(n ast.Node) {
		if ret, ok := n.(*ast.ReturnStmt); ok {
			for _, e := range ret.Results {
				found = found || objOf(pass, e) == v
			}
		}
	})
	return found
}
