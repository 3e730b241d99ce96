package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// LinkedNode finds a node of a linked structure made and linked in: a
// &T{…} whose struct type T has a field of type *T (a list's element
// with its next, a tree's node with its parent), assigned into a field
// (list.first = newElement, node.next = e). One allocation per element
// the structure holds is what a linked structure is: a finding there is
// the API's cost, and fewer allocations would take another layout (nodes
// made in chunks, a slice-backed structure), a change of the type, not a
// line.
var LinkedNode = &analysis.Analyzer{
	Name: "linkednode",
	Doc:  "a node of a linked structure (a struct with a field pointing to its own type) linked into a field",
	Run:  runLinkedNode,
}

func runLinkedNode(pass *analysis.Pass) (any, error) {
	reported := map[*ast.CompositeLit]bool{}
	treeNodes(pass, reported)
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		// The variables a node literal is assigned to, then linked.
		made := map[types.Object]*ast.CompositeLit{}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, r := range as.Rhs {
				lit := nodeLit(pass, r)
				if lit == nil {
					if id, ok := ast.Unparen(r).(*ast.Ident); ok {
						lit = made[pass.TypesInfo.Uses[id]]
					}
				}
				if lit == nil {
					continue
				}
				switch l := ast.Unparen(as.Lhs[i]).(type) {
				case *ast.Ident:
					if as.Tok == token.DEFINE || as.Tok == token.ASSIGN {
						if o := pass.TypesInfo.ObjectOf(l); o != nil {
							made[o] = lit
						}
					}
				case *ast.SelectorExpr:
					if _, field := pass.TypesInfo.Selections[l]; !field || reported[lit] {
						continue
					}
					reported[lit] = true
					name := types.TypeString(pass.TypesInfo.TypeOf(lit), types.RelativeTo(pass.Pkg))
					pass.Report(analysis.Diagnostic{
						Category: "linked-node",
						Pos:      lit.Pos(),
						Message: fmt.Sprintf("&%s{…} is a node of a linked structure (%s points to its own type), linked in at %s: one allocation per element the structure holds",
							name, name, text(pass, l)),
						Related:        []analysis.RelatedInformation{{Pos: as.Pos(), Message: "linked in"}},
						SuggestedFixes: []analysis.SuggestedFix{{Message: "what a linked structure costs: fewer allocations would take another layout (nodes made in chunks, or a structure backed by a slice), a change of the type and its API, not of this line"}},
					})
				}
			}
			return true
		})
	})
	return nil, nil
}

// nodeLit returns the composite literal of &T{…} when T is a struct with
// a field of type *T, or nil.
func nodeLit(pass *analysis.Pass, e ast.Expr) *ast.CompositeLit {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return nil
	}
	lit, ok := ast.Unparen(u.X).(*ast.CompositeLit)
	if !ok {
		return nil
	}
	t := pass.TypesInfo.TypeOf(lit)
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for i := 0; i < st.NumFields(); i++ {
		if p, ok := st.Field(i).Type().(*types.Pointer); ok && types.Identical(p.Elem(), t) {
			return lit
		}
	}
	return nil
}

// treeNodes reports a tree's node made in the module: &T{…}, T a struct
// that holds its parent or children as an interface *T implements (an
// AST's Text with its Parent Node, in a Leaf it embeds; a parser's
// &ast.HorizontalRule{…} handed to AddBlock). Every node the parser makes
// is one element of the tree the API hands out: the API's cost, one
// allocation per node, whatever call takes it in.
func treeNodes(pass *analysis.Pass, reported map[*ast.CompositeLit]bool) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			if as, ok := n.(*ast.AssignStmt); ok {
				treeChildren(pass, fd, as)
				return
			}
			u, ok := n.(*ast.UnaryExpr)
			if !ok || u.Op != token.AND {
				return
			}
			lit, ok := ast.Unparen(u.X).(*ast.CompositeLit)
			if !ok || reported[lit] {
				return
			}
			t := pass.TypesInfo.TypeOf(lit)
			if t == nil {
				return
			}
			field := treeLink(t, types.NewPointer(t), 0)
			if field == "" {
				return
			}
			reported[lit] = true
			name := types.TypeString(t, types.RelativeTo(pass.Pkg))
			pass.Report(analysis.Diagnostic{
				Category: "linked-node",
				Pos:      lit.Pos(),
				Message: fmt.Sprintf("&%s{…} is a node of a tree (its %s holds nodes of an interface *%s implements), made in %s for every such node: one allocation per node the tree holds",
					name, field, name, fd.Name.Name),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "what a tree of nodes costs, the tree the API hands out: fewer allocations would take another layout (the nodes of one document made in chunks), a change of the type and its API, not of this line"}},
			})
		})
	})
}

// treeChildren reports a tree node's children slice grown by one child:
// parent.Children = append(parent.Children, child), Children the node
// type's link to its children. The slice of each parent grows as its
// children arrive: the tree's own structure, the API's cost.
func treeChildren(pass *analysis.Pass, fd *ast.FuncDecl, as *ast.AssignStmt) {
	if len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return
	}
	sel, ok := ast.Unparen(as.Lhs[0]).(*ast.SelectorExpr)
	if !ok {
		return
	}
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok || !isBuiltin(pass, call.Fun, "append") || len(call.Args) < 2 || types.ExprString(call.Args[0]) != types.ExprString(sel) {
		return
	}
	owner := pass.TypesInfo.TypeOf(sel.X)
	if owner == nil {
		return
	}
	if p, ok := owner.Underlying().(*types.Pointer); ok {
		owner = p.Elem()
	}
	if !slices.Contains(treeLinks(owner, types.NewPointer(owner), 0), sel.Sel.Name) {
		return
	}
	pass.Report(analysis.Diagnostic{
		Category: "linked-node",
		Pos:      as.Pos(),
		Message: fmt.Sprintf("%s grows by one node per child %s appends: each parent's slice of children grows as its children arrive, the tree's own structure",
			oneLine(types.ExprString(sel)), fd.Name.Name),
		SuggestedFixes: []analysis.SuggestedFix{{Message: "what a tree of nodes costs, the tree the API hands out: fewer allocations would take another layout (children made in one slice where their count is known first), a change of how the tree is built, not of this line"}},
	})
}

// treeLink names the field of struct type t (or of a struct it embeds, to
// two levels) that links it into a tree: an interface p implements, or a
// slice of one (Parent Node, Children []Node); "" when it has none.
func treeLink(t types.Type, p types.Type, depth int) string {
	if links := treeLinks(t, p, depth); len(links) > 0 {
		return links[0]
	}
	return ""
}

// treeLinks names every such field, in declaration order.
func treeLinks(t types.Type, p types.Type, depth int) []string {
	st, ok := t.Underlying().(*types.Struct)
	if !ok || depth > 2 {
		return nil
	}
	var out []string
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		ft := f.Type()
		if s, ok := ft.Underlying().(*types.Slice); ok {
			ft = s.Elem()
		}
		if iface, ok := ft.Underlying().(*types.Interface); ok && iface.NumMethods() > 0 && types.Implements(p, iface) {
			out = append(out, f.Name())
		}
		if f.Embedded() {
			out = append(out, treeLinks(f.Type(), p, depth+1)...)
		}
	}
	return out
}
