package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// OptionsApplied finds an options struct a function makes and hands, by
// its address, to each functional option of a variadic parameter
// (g := &glob{}; for _, opt := range opts { opt(g) }): the compiler
// cannot see what an option does with the pointer, so the struct is
// moved to the heap on every call, even the common one that passes no
// option. bmatcuk/doublestar's newGlob: one allocation per Glob and
// GlobWalk call (87 per BenchmarkGlob op, measured by both hand
// analyses), none when the struct is a value the caller keeps and no
// option is called. Only where the struct is the function's own or
// returned to the package's own code: a constructor of the API that
// returns it to its user hands the heap value on by design. go-version's
// NewVersion makes its options the same way, for every parse.
var OptionsApplied = &analysis.Analyzer{
	Name: "optionsapplied",
	Doc:  "an options struct handed by address to functional options, moved to the heap on every call",
	Run:  runOptionsApplied,
}

func runOptionsApplied(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		opts := optionsParam(pass, fd)
		if opts == nil {
			return
		}
		made := map[types.Object]*ast.CompositeLit{}
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			if lit := returnedLiteral(as.Rhs[0]); lit != nil && isAddr(as.Rhs[0]) {
				if v := objOf(pass, as.Lhs[0]); v != nil {
					made[v] = lit
				}
			}
		})
		inspectBody(fd.Body, func(n ast.Node) {
			rs, ok := n.(*ast.RangeStmt)
			if !ok || rs.Value == nil || objOf(pass, rs.X) != opts {
				return
			}
			opt := objOf(pass, rs.Value)
			for _, st := range rs.Body.List {
				es, ok := st.(*ast.ExprStmt)
				if !ok {
					continue
				}
				call, ok := ast.Unparen(es.X).(*ast.CallExpr)
				if !ok || len(call.Args) != 1 || opt == nil || objOf(pass, call.Fun) != opt {
					continue
				}
				v := objOf(pass, call.Args[0])
				lit := made[v]
				if lit == nil || returnsObj(pass, fd, v) && exportedFunc(pass, fd) {
					continue // a constructor of the API returning it: its user keeps it
				}
				typ := types.ExprString(lit.Type)
				pass.Report(analysis.Diagnostic{
					Category: "options-applied",
					Pos:      lit.Pos(),
					Related:  []analysis.RelatedInformation{{Pos: call.Pos(), Message: "handed to an option, a call through a func value"}},
					Message: fmt.Sprintf("%s hands &%s{} to each option of %s (%s at line %d), a call through a func value the compiler cannot see into: the %s is moved to the heap on every call, even when no option is passed",
						fd.Name.Name, typ, opts.Name(), types.ExprString(call), pass.Fset.Position(call.Pos()).Line, typ),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"with no option (the common call) call none: return a %s value (var %s %s; if len(%s) == 0 { return %s }), and let the callers keep it as a local value and pass its address: it stays on the stack; only a call that passes options pays for the heap copy the options need",
						typ, v.Name(), typ, opts.Name(), v.Name())}},
				})
			}
		})
	})
	return nil, nil
}

// optionsParam returns fd's variadic parameter of functional options (a
// func type taking one pointer to a struct), or nil.
func optionsParam(pass *analysis.Pass, fd *ast.FuncDecl) types.Object {
	fields := fd.Type.Params.List
	if len(fields) == 0 {
		return nil
	}
	last := fields[len(fields)-1]
	if _, ok := last.Type.(*ast.Ellipsis); !ok || len(last.Names) != 1 {
		return nil
	}
	v := pass.TypesInfo.Defs[last.Names[0]]
	if v == nil {
		return nil
	}
	sl, ok := v.Type().(*types.Slice)
	if !ok {
		return nil
	}
	sig, ok := sl.Elem().Underlying().(*types.Signature)
	if !ok || sig.Params().Len() != 1 || sig.Results().Len() != 0 {
		return nil
	}
	p, ok := sig.Params().At(0).Type().(*types.Pointer)
	if !ok {
		return nil
	}
	if _, ok := p.Elem().Underlying().(*types.Struct); !ok {
		return nil
	}
	return v
}

// isAddr reports whether e takes the address of a composite literal.
func isAddr(e ast.Expr) bool {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	return ok && u.Op == token.AND
}

// exportedFunc reports whether fd is part of its package's API.
func exportedFunc(pass *analysis.Pass, fd *ast.FuncDecl) bool {
	fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
	return fn != nil && exportedAPI(fn)
}

// returnsObj is returnsVar for an object that is a variable.
func returnsObj(pass *analysis.Pass, fd *ast.FuncDecl, o types.Object) bool {
	v, ok := o.(*types.Var)
	return ok && returnsVar(pass, fd, v)
}
