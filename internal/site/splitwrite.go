package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// SplitWrite finds one message written to an unbuffered writer in
// several Write calls, one after the other on the same path: hashicorp/
// yamux's sendLoop writes each frame's 12-byte header with s.conn.Write,
// then copies the body into a buffer and writes that with a second
// s.conn.Write. On a connection each Write is a system call, and over TLS
// a record of its own (its own seal, its own header): two of everything
// per frame, where the header written into the body's buffer first
// makes one.
var SplitWrite = &analysis.Analyzer{
	Name: "splitwrite",
	Doc:  "one message written to an unbuffered writer in several Write calls",
	Run:  runSplitWrite,
}

func runSplitWrite(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		byWriter := map[string][]splitCall{}
		var order []string
		var stack []ast.Node
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if _, ok := n.(*ast.FuncLit); ok {
				return false // another function's writes
			}
			stack = append(stack, n)
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Write" || len(call.Args) != 1 || !unbufferedWriter(pass.TypesInfo.TypeOf(sel.X)) {
				return true
			}
			var loop ast.Node
			for _, a := range stack {
				switch a.(type) {
				case *ast.ForStmt, *ast.RangeStmt:
					loop = a
				}
			}
			key := text(pass, sel.X)
			if byWriter[key] == nil {
				order = append(order, key)
			}
			byWriter[key] = append(byWriter[key], splitCall{call: call, path: append([]ast.Node(nil), stack...), loop: loop})
			return true
		})
		for _, key := range order {
			ws := byWriter[key]
			first := ws[0]
			var next []splitCall
			for _, w := range ws[1:] {
				if w.loop != first.loop || pathsApart(first.path, w.path) || slices.ContainsFunc(next, func(o splitCall) bool { return pathsApart(o.path, w.path) }) {
					continue
				}
				next = append(next, w)
			}
			if len(next) == 0 {
				continue
			}
			var related []analysis.RelatedInformation
			parts := []string{fmt.Sprintf("%s at line %d", oneLine(text(pass, first.call.Args[0])), pass.Fset.Position(first.call.Pos()).Line)}
			for _, w := range next {
				related = append(related, analysis.RelatedInformation{Pos: w.call.Pos(), Message: "the next Write of the same message"})
				parts = append(parts, fmt.Sprintf("%s at line %d", oneLine(text(pass, w.call.Args[0])), pass.Fset.Position(w.call.Pos()).Line))
			}
			typ := types.TypeString(pass.TypesInfo.TypeOf(ast.Unparen(first.call.Fun).(*ast.SelectorExpr).X), types.RelativeTo(pass.Pkg))
			fix := "append the parts to one buffer kept across calls and call Write once per message"
			if b := bufferOf(pass, next[len(next)-1].call.Args[0]); b != "" {
				fix = fmt.Sprintf("write %s into %s before the rest, and call Write once per message", oneLine(text(pass, first.call.Args[0])), b)
			}
			pass.Report(analysis.Diagnostic{
				Category: "split-write",
				Pos:      first.call.Pos(),
				Message: fmt.Sprintf("%s writes one message to %s (%s, not buffered) in %d Write calls — %s: each is a system call of its own on a connection or a file, and a record of its own over TLS",
					fd.Name.Name, key, typ, len(next)+1, strings.Join(parts, ", then ")),
				Related:        related,
				SuggestedFixes: []analysis.SuggestedFix{{Message: fix + ": one system call (one TLS record) where there were " + fmt.Sprint(len(next)+1)}},
			})
		}
	})
	return nil, nil
}

// splitCall is a Write call SplitWrite found.
type splitCall struct {
	call *ast.CallExpr
	path []ast.Node // from the body down, the call's ancestors
	loop ast.Node   // the innermost loop around it
}

// pathsApart reports whether two calls, by their ancestors, are on paths
// that never both run: different cases of one switch or select, the then
// and else of one if, or a first call in a block that returns (or
// breaks) after it.
func pathsApart(a, b []ast.Node) bool {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	if i == 0 || i >= len(a) || i >= len(b) {
		return false
	}
	for _, n := range a[i:] {
		if blk, ok := n.(*ast.BlockStmt); ok && len(blk.List) > 0 {
			switch blk.List[len(blk.List)-1].(type) {
			case *ast.ReturnStmt, *ast.BranchStmt:
				return true
			}
		}
	}
	switch a[i].(type) {
	case *ast.CaseClause, *ast.CommClause:
		return true
	}
	if ifs, ok := a[i-1].(*ast.IfStmt); ok {
		return a[i] != b[i] && (a[i] == ifs.Else || b[i] == ifs.Else)
	}
	return false
}

// unbufferedWriter reports whether t writes straight through: an
// interface with a Write method and no Sum (not a hash), a net
// connection, a TLS connection or an *os.File. bytes.Buffer,
// bufio.Writer and their kind buffer; a hash sums.
func unbufferedWriter(t types.Type) bool {
	if t == nil {
		return false
	}
	if iface, ok := t.Underlying().(*types.Interface); ok {
		has := func(name string) bool {
			for i := range iface.NumMethods() {
				if iface.Method(i).Name() == name {
					return true
				}
			}
			return false
		}
		return has("Write") && !has("Sum") && !has("Flush")
	}
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	switch n.Obj().Pkg().Path() + "." + n.Obj().Name() {
	case "os.File", "net.TCPConn", "net.UnixConn", "net.UDPConn", "crypto/tls.Conn":
		return true
	}
	return false
}

// bufferOf returns the buffer a Write's argument is the bytes of
// (bodyBuf for bodyBuf.Bytes(), a *bytes.Buffer or bytes.Buffer), or "".
func bufferOf(pass *analysis.Pass, arg ast.Expr) string {
	call, ok := ast.Unparen(arg).(*ast.CallExpr)
	if !ok {
		return ""
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Bytes" {
		return ""
	}
	t := pass.TypesInfo.TypeOf(sel.X)
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "bytes" && n.Obj().Name() == "Buffer" {
		return text(pass, sel.X)
	}
	return ""
}
