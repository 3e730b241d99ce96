package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// IfaceVarLoop finds a loop that calls, once per iteration, a method of a
// package-level variable of interface type which the package only ever
// sets to concrete values it names (var binaryOrder binary.ByteOrder =
// binary.BigEndian, and binary.LittleEndian in a setter): each call is a
// dynamic call the compiler cannot inline, for what a known concrete
// method does in a load and a byte swap. bits-and-blooms/bitset's
// readUint64Array and writeUint64Array convert every word so; a switch
// once per chunk to loops over the concrete orders halved
// BenchmarkBitsetReadWrite (−52%, measured by hand).
var IfaceVarLoop = &analysis.Analyzer{
	Name: "ifacevarloop",
	Doc:  "a loop calling a method of a package-level interface variable the package sets only to concrete values",
	Run:  runIfaceVarLoop,
}

func runIfaceVarLoop(pass *analysis.Pass) (any, error) {
	values := concreteValues(pass)
	if len(values) == 0 {
		return nil, nil
	}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		var loops []ast.Node
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				loops = append(loops, n)
			case *ast.FuncLit:
				return false
			}
			return true
		})
		// innermost is the smallest loop around pos.
		innermost := func(pos token.Pos) ast.Node {
			var in ast.Node
			for _, l := range loops {
				if l.Pos() <= pos && pos < l.End() && (in == nil || l.End()-l.Pos() < in.End()-in.Pos()) {
					in = l
				}
			}
			return in
		}
		reported := map[*types.Var]bool{}
		inspectBody(fd.Body, func(m ast.Node) {
			call, ok := m.(*ast.CallExpr)
			if !ok {
				return
			}
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok {
				return
			}
			id, ok := ast.Unparen(sel.X).(*ast.Ident)
			if !ok {
				return
			}
			v, ok := pass.TypesInfo.Uses[id].(*types.Var)
			loop := innermost(call.Pos())
			if !ok || loop == nil || reported[v] || len(values[v]) == 0 {
				return
			}
			reported[v] = true
			vals := values[v]
			from, to := pass.Fset.Position(loop.Pos()).Line, pass.Fset.Position(loop.End()).Line
			iface := types.TypeString(v.Type(), func(p *types.Package) string {
				if p == pass.Pkg {
					return ""
				}
				return p.Name()
			})
			first := vals[0]
			pass.Report(analysis.Diagnostic{
				Category: "iface-var-loop",
				Pos:      call.Pos(),
				Message: fmt.Sprintf("%s calls %s.%s once per iteration of the loop at lines %d–%d through %s, a package-level variable of interface type %s the package sets only to %s: a dynamic call per element, which the compiler cannot inline",
					fd.Name.Name, id.Name, sel.Sel.Name, from, to, id.Name, iface, strings.Join(vals, " or ")),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("switch on %s once, before the loop, and run a loop per concrete value (case %s: the loop calling %s.%s), keeping the interface's loop as the default for any other: the concrete method inlines into the loop",
					id.Name, first, first, sel.Sel.Name)}},
			})
		})
	})
	return nil, nil
}

// concreteValues returns the package-level variables of interface type
// that the package only sets to values of concrete types, with those
// values' text in the order first set; a variable set anywhere from a
// value of interface type (a setter's parameter) is not returned.
func concreteValues(pass *analysis.Pass) map[*types.Var][]string {
	out := map[*types.Var][]string{}
	open := map[*types.Var]bool{} // set from an interface value: any type
	set := func(lhs, rhs ast.Expr) {
		id, ok := ast.Unparen(lhs).(*ast.Ident)
		if !ok {
			return
		}
		v, ok := pass.TypesInfo.ObjectOf(id).(*types.Var)
		if !ok || v.Parent() != pass.Pkg.Scope() || !types.IsInterface(v.Type()) {
			return
		}
		t := pass.TypesInfo.TypeOf(rhs)
		if t == nil || types.IsInterface(t) {
			open[v] = true
			return
		}
		if text := types.ExprString(rhs); !slices.Contains(out[v], text) {
			out[v] = append(out[v], text)
		}
	}
	for _, f := range pass.Files {
		if isTest(pass, f) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.ValueSpec:
				for i, name := range x.Names {
					if i < len(x.Values) {
						set(name, x.Values[i])
					}
				}
			case *ast.AssignStmt:
				if x.Tok == token.ASSIGN && len(x.Lhs) == len(x.Rhs) {
					for i := range x.Lhs {
						set(x.Lhs[i], x.Rhs[i])
					}
				}
			}
			return true
		})
	}
	for v := range open {
		delete(out, v)
	}
	return out
}
