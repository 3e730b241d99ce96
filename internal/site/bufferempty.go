package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// BufferEmpty finds a buffer a function declares empty (var b T, b :=
// T{}, b := new(T)) and fills in a loop through its write methods (Write,
// WriteByte, WriteString, WriteRune, Append…), never giving it room (no
// Grow, no capacity): every call regrows it from nothing, at 8 bytes,
// then 16, 32, …, copying what it holds each time. xwb1989/sqlparser's
// scanString writes each quoted literal into a bytes2.Buffer declared
// empty: 227 allocations and 5.7 MiB per op for Parse3's 100 KB
// literals, which the input bounds before the loop starts. The shape
// names the write method (another package's too) as the callee that
// allocates, so the heap profile's site in that method takes its advice.
var BufferEmpty = &analysis.Analyzer{
	Name: "bufferempty",
	Doc:  "a buffer declared empty and filled in a loop through its write methods, never given room",
	Run:  runBufferEmpty,
}

func runBufferEmpty(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		for v, decl := range emptyBuffers(pass, fd.Body) {
			bufferEmpty(pass, fd, v, decl)
		}
	})
	return nil, nil
}

// emptyBuffers returns the locals of a body declared as an empty value of
// a named struct type, or a pointer to one: var b T, b := T{}, b := &T{},
// b := new(T).
func emptyBuffers(pass *analysis.Pass, body *ast.BlockStmt) map[*types.Var]ast.Node {
	out := map[*types.Var]ast.Node{}
	add := func(id *ast.Ident, at ast.Node) {
		v, ok := pass.TypesInfo.Defs[id].(*types.Var)
		if !ok {
			return
		}
		t := v.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			if _, ok := n.Underlying().(*types.Struct); ok {
				out[v] = at
			}
		}
	}
	inspectBody(body, func(n ast.Node) {
		switch s := n.(type) {
		case *ast.DeclStmt:
			gd, ok := s.Decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				return
			}
			for _, sp := range gd.Specs {
				if vs, ok := sp.(*ast.ValueSpec); ok && len(vs.Values) == 0 {
					for _, id := range vs.Names {
						add(id, s)
					}
				}
			}
		case *ast.AssignStmt:
			if s.Tok != token.DEFINE || len(s.Lhs) != 1 || len(s.Rhs) != 1 {
				return
			}
			id, ok := s.Lhs[0].(*ast.Ident)
			if ok && emptyValue(pass, s.Rhs[0]) {
				add(id, s)
			}
		}
	})
	return out
}

// emptyValue reports whether e is T{}, &T{} or new(T).
func emptyValue(pass *analysis.Pass, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return len(x.Elts) == 0
	case *ast.UnaryExpr:
		return x.Op == token.AND && emptyValue(pass, x.X)
	case *ast.CallExpr:
		return isBuiltin(pass, x.Fun, "new")
	}
	return false
}

// writeMethod reports whether a method name writes into its receiver.
func writeMethod(name string) bool {
	switch name {
	case "Write", "WriteByte", "WriteString", "WriteRune":
		return true
	}
	return strings.HasPrefix(name, "Append")
}

func bufferEmpty(pass *analysis.Pass, fd *ast.FuncDecl, v *types.Var, decl ast.Node) {
	var writes []*ast.CallExpr
	methods := map[*types.Func]bool{}
	var related []analysis.RelatedInformation
	sized := false
	inspectLoops(fd.Body, func(m ast.Node, loop ast.Stmt) {
		switch x := m.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				if id, ok := l.(*ast.Ident); ok && pass.TypesInfo.Uses[id] == v {
					sized = true // given another value: not the empty one
				}
			}
		case *ast.CallExpr:
			sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			if !ok || objOf(pass, sel.X) != v {
				return
			}
			fn, _ := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
			if fn == nil {
				return
			}
			switch {
			case fn.Name() == "Grow" || fn.Name() == "Reset" || fn.Name() == "Truncate":
				sized = true
			case writeMethod(fn.Name()) && loop != nil:
				writes = append(writes, x)
				if !methods[fn] {
					methods[fn] = true
					related = append(related, analysis.RelatedInformation{Pos: fn.Pos(), Message: allocatingCallee})
				}
			}
		}
	})
	if sized || len(writes) == 0 {
		return
	}
	var lines []string
	seen := map[int]bool{}
	for _, w := range writes {
		l := pass.Fset.Position(w.Pos()).Line
		if !seen[l] {
			seen[l] = true
			lines = append(lines, fmt.Sprint(l))
		}
		related = append(related, analysis.RelatedInformation{Pos: w.Pos(), Message: "writes into " + v.Name()})
	}
	t := types.TypeString(v.Type(), func(p *types.Package) string {
		if p == pass.Pkg {
			return ""
		}
		return p.Name()
	})
	pass.Report(analysis.Diagnostic{
		Category: "buffer-empty",
		Pos:      decl.Pos(),
		Related:  related,
		Message: fmt.Sprintf("%s declares %s, a %s, empty and writes into it in a loop (%s): every call regrows it from nothing, copying what it holds at each growth",
			fd.Name.Name, v.Name(), t, lineList(lines)),
		SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
			"give %s room where %s declares it, from what bounds what it will hold (the input it copies from: the bytes left to scan, a length known before the loop) — a Grow, or a buffer made over make([]byte, 0, n) — so it grows once, not at every doubling", v.Name(), fd.Name.Name)}},
	})
}

// lineList writes line numbers as "line 7" or "lines 7, 9 and 12".
func lineList(lines []string) string {
	if len(lines) == 1 {
		return "line " + lines[0]
	}
	return "lines " + strings.Join(lines[:len(lines)-1], ", ") + " and " + lines[len(lines)-1]
}
