package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// BuiltForBranch finds an argument made for a call (a string converted
// from bytes, a value boxed into an interface parameter) that the callee
// reads only in one branch, under a condition that does not depend on it:
//
//	// the caller, once per unknown key
//	handleUnmatchedMapEntry(d, string(keyBytes), i, count, hasSize, &uks)
//	// the callee
//	if d.dm.dupMapKey == DupMapKeyEnforcedAPF {
//		… (*uks)[key] …
//	}
//
// Every call pays for the argument; only the calls that take the branch
// read it. Made only when the condition holds (tested before the call,
// or what it is made from passed and the argument made inside the
// branch), the other calls make nothing.
var BuiltForBranch = &analysis.Analyzer{
	Name: "builtforbranch",
	Doc:  "an argument made for a call whose callee reads it only in one branch",
	Run:  runBuiltForBranch,
}

func runBuiltForBranch(pass *analysis.Pass) (any, error) {
	decls := declsByFunc(pass)
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			callee := decls[calledFunc(pass, call)]
			if callee == nil || callee == fd || callee.Type.Params == nil {
				return true
			}
			params := paramVars(pass, callee)
			if len(params) != len(call.Args) {
				return true // variadic or unnamed parameters
			}
			for i, arg := range call.Args {
				made := madeArg(pass, arg, params[i].Type())
				if made == "" {
					continue
				}
				cond, at := onlyInBranch(pass, callee.Body, params[i])
				if cond == nil {
					continue
				}
				name, p := callee.Name.Name, params[i].Name()
				pass.Report(analysis.Diagnostic{
					Category: "built-for-branch",
					Pos:      call.Pos(),
					Message: fmt.Sprintf("%s is %s for %s's %s, which %s reads only when %s (line %d): on every other call it is made and thrown away",
						text(pass, arg), made, name, p, name, text(pass, cond), pass.Fset.Position(at.Pos()).Line),
					Related: []analysis.RelatedInformation{{Pos: cond.Pos(), Message: "the only branch that reads it"}},
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"make it only when it is read: test %s before the call and pass it then (or pass what it is made from and make it inside that branch)", text(pass, cond))}},
				})
			}
			return true
		})
	})
	return nil, nil
}

// paramVars returns fd's parameters in order, nil when one is unnamed or
// the function is variadic.
func paramVars(pass *analysis.Pass, fd *ast.FuncDecl) []*types.Var {
	var out []*types.Var
	for _, f := range fd.Type.Params.List {
		if _, ok := f.Type.(*ast.Ellipsis); ok || len(f.Names) == 0 {
			return nil
		}
		for _, id := range f.Names {
			v, _ := pass.TypesInfo.Defs[id].(*types.Var)
			if v == nil {
				return nil
			}
			out = append(out, v)
		}
	}
	return out
}

// madeArg says how the argument allocates for the call ("converted from
// bytes and boxed", "converted from bytes", "boxed"), or "" when it does
// not: a string(b) of a byte or rune slice, or a non-pointer concrete
// value handed to an interface parameter.
func madeArg(pass *analysis.Pass, arg ast.Expr, param types.Type) string {
	conv := false
	if c, ok := ast.Unparen(arg).(*ast.CallExpr); ok && len(c.Args) == 1 {
		if tv, ok := pass.TypesInfo.Types[c.Fun]; ok && tv.IsType() {
			if b, ok := tv.Type.Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
				if _, ok := pass.TypesInfo.TypeOf(c.Args[0]).Underlying().(*types.Slice); ok {
					conv = true
				}
			}
		}
	}
	at := pass.TypesInfo.TypeOf(arg)
	boxed := false
	if types.IsInterface(param) && at != nil && !types.IsInterface(at) {
		switch at.Underlying().(type) {
		case *types.Pointer, *types.Signature, *types.Map, *types.Chan:
		default:
			boxed = true
		}
	}
	switch {
	case conv && boxed:
		return "converted from bytes and boxed"
	case conv:
		return "converted from bytes"
	case boxed:
		if tv, ok := pass.TypesInfo.Types[arg]; ok && tv.Value != nil {
			return "" // a constant boxes without allocating
		}
		return "boxed"
	}
	return ""
}

// onlyInBranch returns the condition of the one if statement whose body
// holds every read of p in body, when the condition does not read p, and
// the line of the first read; nil otherwise.
func onlyInBranch(pass *analysis.Pass, body *ast.BlockStmt, p *types.Var) (cond ast.Expr, first ast.Node) {
	var stack []ast.Node
	var branch *ast.IfStmt
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if !ok {
			return false
		}
		stack = append(stack, n)
		id, isID := n.(*ast.Ident)
		if !isID || pass.TypesInfo.Uses[id] != p {
			return true
		}
		// The outermost if whose body (not its condition) holds the
		// read decides; the read must be under the same one each time.
		var in *ast.IfStmt
		for j := 0; j+1 < len(stack); j++ {
			if is, isIf := stack[j].(*ast.IfStmt); isIf && stack[j+1] == is.Body {
				in = is
				break
			}
		}
		switch {
		case in == nil:
			ok = false
		case branch == nil:
			branch, first = in, id
		case branch != in:
			ok = false
		}
		return true
	})
	if !ok || branch == nil || branch.Init != nil || uses(pass, branch.Cond, p) {
		return nil, nil
	}
	return branch.Cond, first
}

// uses reports whether e reads p.
func uses(pass *analysis.Pass, e ast.Expr, p *types.Var) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && pass.TypesInfo.Uses[id] == p {
			found = true
		}
		return !found
	})
	return found
}
