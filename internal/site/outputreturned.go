package site

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// OutputReturned finds a tree walker that builds its output by
// returning each node's text boxed in an interface: a method of the
// walker makes a buffer, writes into it what its children's methods
// return, and returns buf.String() in an interface again (a template
// engine's VisitProgram), while its sibling methods return their text as
// interface{} (VisitContent's `return node.Value`):
//
//	func (v *evalVisitor) VisitProgram(node *ast.Program) interface{} {
//		buf := new(bytes.Buffer)
//		for _, n := range node.Body {
//			if str := Str(n.Accept(v)); str != "" { buf.Write([]byte(str)) }
//		}
//		return buf.String()
//	}
//
// Every string is boxed on its way up and copied once more per level of
// the tree. One output builder the walker carries, which every method
// writes into, copies each piece once.
var OutputReturned = &analysis.Analyzer{
	Name: "outputreturned",
	Doc:  "a tree walker whose methods return their text boxed in interfaces, each level copying it into a new buffer",
	Run:  runOutputReturned,
}

func runOutputReturned(pass *analysis.Pass) (any, error) {
	// The methods of each receiver type that return one interface value.
	type method struct {
		fd      *ast.FuncDecl
		strings []token.Pos // returns of a string value
	}
	byRecv := map[*types.Named][]*method{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if fd.Recv == nil || len(fd.Recv.List) != 1 || fd.Type.Results == nil || len(fd.Type.Results.List) != 1 {
			return
		}
		rt, ok := pass.TypesInfo.TypeOf(fd.Type.Results.List[0].Type).Underlying().(*types.Interface)
		if !ok || !rt.Empty() {
			return
		}
		recv := recvNamed(pass, fd)
		if recv == nil {
			return
		}
		m := &method{fd: fd}
		inspectBody(fd.Body, func(n ast.Node) {
			ret, ok := n.(*ast.ReturnStmt)
			if !ok || len(ret.Results) != 1 {
				return
			}
			if t := pass.TypesInfo.TypeOf(ret.Results[0]); t != nil {
				if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
					m.strings = append(m.strings, ret.Pos())
				}
			}
		})
		byRecv[recv] = append(byRecv[recv], m)
	})
	recvs := slices.SortedFunc(maps.Keys(byRecv), func(a, b *types.Named) int { return cmp.Compare(byRecv[a][0].fd.Pos(), byRecv[b][0].fd.Pos()) })
	for _, recv := range recvs {
		ms := byRecv[recv]
		var siblings []token.Pos
		for _, m := range ms {
			siblings = append(siblings, m.strings...)
		}
		if len(ms) < 3 {
			continue // a walker has a method per kind of node
		}
		for _, m := range ms {
			buf, made := bufferMade(pass, m.fd.Body)
			if buf == nil || !returnsBufferString(pass, m.fd.Body, buf) {
				continue
			}
			rel := []analysis.RelatedInformation{}
			for _, p := range siblings {
				if p < m.fd.Pos() || p > m.fd.End() {
					rel = append(rel, analysis.RelatedInformation{Pos: p, Message: "a method returning its text boxed"})
				}
			}
			pass.Report(analysis.Diagnostic{
				Category: "output-returned",
				Pos:      made,
				Related:  rel,
				Message: fmt.Sprintf("%s makes a buffer for its output, writes into it what the walk's methods return as interface{} (%d returns of a string among them), and returns buf.String() boxed again: every piece of text is boxed on its way up and copied once more per level of the tree",
					m.fd.Name.Name, len(rel)),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("carry one output strings.Builder in the %s and have every method write its text into it (a content node writes its value, a program writes nothing of its own): each piece is copied once, nothing is boxed; at least a strings.Builder in place of the bytes.Buffer, whose String does not copy", recv.Obj().Name())}},
			})
		}
	}
	return nil, nil
}

// recvNamed returns the named type of a method's receiver, or nil.
func recvNamed(pass *analysis.Pass, fd *ast.FuncDecl) *types.Named {
	t := pass.TypesInfo.TypeOf(fd.Recv.List[0].Type)
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// bufferMade returns the local a body makes as a bytes.Buffer or a
// strings.Builder (new(bytes.Buffer), &bytes.Buffer{}, var b
// strings.Builder), and where.
func bufferMade(pass *analysis.Pass, body *ast.BlockStmt) (types.Object, token.Pos) {
	var obj types.Object
	var at token.Pos
	inspectBody(body, func(n ast.Node) {
		if obj != nil {
			return
		}
		var id *ast.Ident
		switch x := n.(type) {
		case *ast.AssignStmt:
			if len(x.Lhs) == 1 && x.Tok == token.DEFINE {
				id = identOf(x.Lhs[0])
			}
		case *ast.ValueSpec:
			if len(x.Names) == 1 {
				id = x.Names[0]
			}
		}
		if id == nil {
			return
		}
		o := pass.TypesInfo.Defs[id]
		if o == nil {
			return
		}
		t := o.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if nt, ok := types.Unalias(t).(*types.Named); ok && nt.Obj().Pkg() != nil {
			if p, name := nt.Obj().Pkg().Path(), nt.Obj().Name(); p == "bytes" && name == "Buffer" || p == "strings" && name == "Builder" {
				obj, at = o, n.Pos()
			}
		}
	})
	return obj, at
}

// returnsBufferString reports whether a body returns buf.String().
func returnsBufferString(pass *analysis.Pass, body *ast.BlockStmt, buf types.Object) bool {
	found := false
	inspectBody(body, func(n ast.Node) {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			return
		}
		c, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr)
		if !ok {
			return
		}
		sel, ok := c.Fun.(*ast.SelectorExpr)
		if ok && sel.Sel.Name == "String" && isObj(pass, sel.X, buf) {
			found = true
		}
	})
	return found
}
