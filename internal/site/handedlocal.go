package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// HandedLocal finds a value a method makes on every call and hands out
// by keeping its address in the receiver (gorilla/websocket's NextWriter:
// var mw messageWriter; c.writer = &mw; return c.writer), which moves it
// to the heap, where one of the package's own callers uses what it is
// handed only to call its methods and drop it (WriteMessage: w.Write,
// w.Close). The API's callers need a value of their own per call; that
// caller does not: a value on its own stack does the same work without
// the allocation, as the package may already do elsewhere.
var HandedLocal = &analysis.Analyzer{
	Name: "handedlocal",
	Doc:  "a value a method keeps in its receiver and returns per call, which one of the package's callers only uses and drops",
	Run:  runHandedLocal,
}

func runHandedLocal(pass *analysis.Pass) (any, error) {
	type made struct {
		fd   *ast.FuncDecl
		decl *ast.DeclStmt
		typ  types.Type
	}
	handed := map[*types.Func]made{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 || fd.Type.Results == nil {
			return
		}
		recv := pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
		vars := map[types.Object]*ast.DeclStmt{}
		for _, st := range fd.Body.List {
			ds, ok := st.(*ast.DeclStmt)
			if !ok {
				continue
			}
			if gd, ok := ds.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR && len(gd.Specs) == 1 {
				if vs, ok := gd.Specs[0].(*ast.ValueSpec); ok && len(vs.Names) == 1 && len(vs.Values) == 0 {
					vars[pass.TypesInfo.Defs[vs.Names[0]]] = ds
				}
			}
		}
		kept := false
		var v types.Object
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			sel, ok := as.Lhs[0].(*ast.SelectorExpr)
			u, isAddr := ast.Unparen(as.Rhs[0]).(*ast.UnaryExpr)
			if !ok || !isAddr || u.Op != token.AND || !isObj(pass, sel.X, recv) {
				return
			}
			if id, ok := u.X.(*ast.Ident); ok && vars[pass.TypesInfo.Uses[id]] != nil {
				kept, v = true, pass.TypesInfo.Uses[id]
			}
		})
		if !kept {
			return
		}
		if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
			handed[fn] = made{fd, vars[v], v.Type()}
		}
	})
	if len(handed) == 0 {
		return nil, nil
	}
	eachFuncDecl(pass, func(g *ast.FuncDecl) {
		inspectBody(g.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Rhs) != 1 || len(as.Lhs) == 0 {
				return
			}
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok {
				return
			}
			fn := calledFunc(pass, call)
			m, ok := handed[fn]
			if !ok || m.fd == g {
				return
			}
			w, ok := as.Lhs[0].(*ast.Ident)
			obj := pass.TypesInfo.ObjectOf(w)
			if !ok || obj == nil || !onlyMethodCalls(pass, g.Body, obj) {
				return
			}
			says := fmt.Sprintf("%s makes %s per call and keeps its address in its receiver to hand it out, so it moves to the heap: one per call, which the API's callers each need; %s (line %d) calls %s only to call the methods of what it returns and drop it", m.fd.Name.Name, types.TypeString(m.typ, types.RelativeTo(pass.Pkg)), g.Name.Name, pass.Fset.Position(call.Pos()).Line, m.fd.Name.Name)
			also := ""
			inspectBody(g.Body, func(n ast.Node) {
				if ds, ok := n.(*ast.DeclStmt); ok && also == "" {
					if gd, ok := ds.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
						for _, sp := range gd.Specs {
							if vs, ok := sp.(*ast.ValueSpec); ok && len(vs.Names) == 1 && types.Identical(pass.TypesInfo.TypeOf(vs.Names[0]), m.typ) {
								also = fmt.Sprintf(", as %s already does at line %d", g.Name.Name, pass.Fset.Position(ds.Pos()).Line)
							}
						}
					}
				}
			})
			pass.Report(analysis.Diagnostic{
				Category: "handed-local",
				Pos:      m.decl.Pos(),
				Message:  says,
				Related:  []analysis.RelatedInformation{{Pos: call.Pos(), Message: "uses it and drops it"}},
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"in %s, a %s on its own stack, set up as %s sets up its own and never kept in the receiver, does the same work without the allocation%s; %s keeps making one per call for the callers it hands one to", g.Name.Name, types.TypeString(m.typ, types.RelativeTo(pass.Pkg)), m.fd.Name.Name, also, m.fd.Name.Name)}},
			})
		})
	})
	return nil, nil
}

// onlyMethodCalls reports whether every use of obj in body calls one of
// its methods (w.Write(…), w.Close()) or compares it.
func onlyMethodCalls(pass *analysis.Pass, body *ast.BlockStmt, obj types.Object) bool {
	ok := true
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if id, isID := n.(*ast.Ident); isID && pass.TypesInfo.Uses[id] == obj && len(stack) >= 2 {
			sel, isSel := stack[len(stack)-1].(*ast.SelectorExpr)
			call, isCall := stack[len(stack)-2].(*ast.CallExpr)
			_, isCmp := stack[len(stack)-1].(*ast.BinaryExpr)
			if !(isSel && isCall && call.Fun == sel && sel.X == id) && !isCmp {
				ok = false
			}
		}
		stack = append(stack, n)
		return true
	})
	return ok
}
