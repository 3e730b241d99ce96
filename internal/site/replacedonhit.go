package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// ReplacedOnHit finds a value made before the lookup that decides whether
// it is needed: a &T{…} handed to a function of the package that, when
// the key is already there, stores it over the one in its slot and
// returns:
//
//	entry := &Entry{Key: key, Value: value}   // every Put
//	tree.insert(tree.Root, entry)
//	// in insertIntoLeaf, two calls below
//	if found {
//		node.Entries[insertPosition] = entry // replaces the stored one
//		return false
//	}
//
// Every update allocates a new value and drops the old one. On a hit, the
// existing value's fields can be updated in place; the value is needed
// only where a new key is inserted.
var ReplacedOnHit = &analysis.Analyzer{
	Name: "replacedonhit",
	Doc:  "a value made before the lookup, stored over the existing one when the key is found",
	Run:  runReplacedOnHit,
}

func runReplacedOnHit(pass *analysis.Pass) (any, error) {
	decls := declsByFunc(pass)
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		made := map[types.Object]*ast.UnaryExpr{}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.AssignStmt:
				if len(x.Lhs) != 1 || len(x.Rhs) != 1 || x.Tok != token.DEFINE {
					return true
				}
				u, ok := ast.Unparen(x.Rhs[0]).(*ast.UnaryExpr)
				if !ok || u.Op != token.AND {
					return true
				}
				if _, lit := ast.Unparen(u.X).(*ast.CompositeLit); !lit {
					return true
				}
				if id, ok := x.Lhs[0].(*ast.Ident); ok {
					made[pass.TypesInfo.Defs[id]] = u
				}
			case *ast.CallExpr:
				callee := decls[calledFunc(pass, x)]
				if callee == nil || callee == fd {
					return true
				}
				for i, a := range x.Args {
					id, ok := ast.Unparen(a).(*ast.Ident)
					if !ok {
						continue
					}
					u := made[pass.TypesInfo.Uses[id]]
					if u == nil {
						continue
					}
					params := paramVars(pass, callee)
					if i >= len(params) {
						continue
					}
					where, at := storedOnHit(pass, decls, callee, params[i], map[*ast.FuncDecl]bool{}, 3)
					if where == "" {
						continue
					}
					delete(made, pass.TypesInfo.Uses[id])
					name := types.TypeString(pass.TypesInfo.TypeOf(u.X), types.RelativeTo(pass.Pkg))
					pass.Report(analysis.Diagnostic{
						Category: "replaced-on-hit",
						Pos:      u.Pos(),
						Message: fmt.Sprintf("%s makes a new %s before it knows whether the key is there; %s, when it is, stores it over the one in its slot (line %d): every update allocates a new %s and drops the old one",
							fd.Name.Name, name, where, pass.Fset.Position(at).Line, name),
						Related: []analysis.RelatedInformation{{Pos: at, Message: "stored over the existing one"}},
						SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
							"on a hit, update the existing %s's fields in place; make the new one only where a new key is inserted", name)}},
					})
				}
			}
			return true
		})
	})
	return nil, nil
}

// storedOnHit returns the function of the package (fd, or one it hands p
// to, depth calls deep) that stores p into an indexed slot inside an if
// whose branch then returns (the key found: the existing value
// replaced), with the store's position; "" when none does.
func storedOnHit(pass *analysis.Pass, decls map[*types.Func]*ast.FuncDecl, fd *ast.FuncDecl, p *types.Var, seen map[*ast.FuncDecl]bool, depth int) (string, token.Pos) {
	if depth == 0 || seen[fd] {
		return "", token.NoPos
	}
	seen[fd] = true
	var where string
	var at token.Pos
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if where != "" {
			return false
		}
		switch x := n.(type) {
		case *ast.IfStmt:
			list := x.Body.List
			if len(list) < 2 {
				return true
			}
			if _, ret := list[len(list)-1].(*ast.ReturnStmt); !ret {
				return true
			}
			for _, st := range list[:len(list)-1] {
				as, ok := st.(*ast.AssignStmt)
				if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Tok != token.ASSIGN {
					continue
				}
				if _, ix := ast.Unparen(as.Lhs[0]).(*ast.IndexExpr); !ix {
					continue
				}
				if id, ok := ast.Unparen(as.Rhs[0]).(*ast.Ident); ok && pass.TypesInfo.Uses[id] == p {
					where, at = fd.Name.Name, as.Pos()
					return false
				}
			}
		case *ast.CallExpr:
			callee := decls[calledFunc(pass, x)]
			if callee == nil {
				return true
			}
			params := paramVars(pass, callee)
			for i, a := range x.Args {
				if id, ok := ast.Unparen(a).(*ast.Ident); ok && pass.TypesInfo.Uses[id] == p && i < len(params) {
					if w, pos := storedOnHit(pass, decls, callee, params[i], seen, depth-1); w != "" {
						where, at = w, pos
						return false
					}
				}
			}
		}
		return true
	})
	return where, at
}
