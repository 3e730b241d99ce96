package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// DictCall finds a local variable of a generic function whose address is
// handed to a method through a type parameter (PT(&tid).init(prefix,
// suffix), PT a pointer type parameter): the method is called through
// the generic dictionary, which escape analysis cannot see into, so the
// variable is moved to the heap on every call whatever the method does.
// go.jetify.com/typeid's from: one 32-byte allocation and about a
// quarter of the CPU per constructor (measured by hand: the constructors
// allocation-free and 35–38% faster with the pointer hidden from escape
// analysis).
var DictCall = &analysis.Analyzer{
	Name: "dictcall",
	Doc:  "a local's address handed to a method through a type parameter, moved to the heap",
	Run:  runDictCall,
}

func runDictCall(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if fd.Type.TypeParams == nil {
			return
		}
		decl := map[types.Object]ast.Node{}
		inspectBody(fd.Body, func(n ast.Node) {
			ds, ok := n.(*ast.DeclStmt)
			if !ok {
				return
			}
			if gd, ok := ds.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				for _, sp := range gd.Specs {
					for _, name := range sp.(*ast.ValueSpec).Names {
						if v := pass.TypesInfo.Defs[name]; v != nil {
							decl[v] = sp
						}
					}
				}
			}
		})
		reported := map[types.Object]bool{}
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok {
				return
			}
			conv, ok := ast.Unparen(sel.X).(*ast.CallExpr)
			if !ok || len(conv.Args) != 1 {
				return
			}
			tv, ok := pass.TypesInfo.Types[conv.Fun]
			if !ok || !tv.IsType() {
				return
			}
			tp, ok := tv.Type.(*types.TypeParam)
			if !ok {
				return
			}
			u, ok := ast.Unparen(conv.Args[0]).(*ast.UnaryExpr)
			if !ok || u.Op != token.AND {
				return
			}
			v := objOf(pass, u.X)
			at := decl[v]
			if v == nil || at == nil || reported[v] {
				return
			}
			reported[v] = true
			pass.Report(analysis.Diagnostic{
				Category: "dict-call",
				Pos:      at.Pos(),
				Related:  []analysis.RelatedInformation{{Pos: call.Pos(), Message: "the method called through the type parameter"}},
				Message: fmt.Sprintf("%s hands &%s to %s through the type parameter %s (%s at line %d): a method of a type parameter is called through the generic dictionary, which escape analysis cannot see into, so %s is moved to the heap on every call, whatever %s does with it",
					fd.Name.Name, v.Name(), sel.Sel.Name, tp.Obj().Name(), oneLine(types.ExprString(call)), pass.Fset.Position(call.Pos()).Line, v.Name(), sel.Sel.Name),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"the allocation is the price of the call through %s, not of %s: call %s where the type is concrete (a non-generic function over the type that has it), or, where %s is known never to keep the pointer, hide it from escape analysis (a noescape wrapper, as the runtime's, at go vet's unsafe.Pointer warning); %s then stays on the stack",
					tp.Obj().Name(), sel.Sel.Name, sel.Sel.Name, sel.Sel.Name, v.Name())}},
			})
		})
	})
	return nil, nil
}
