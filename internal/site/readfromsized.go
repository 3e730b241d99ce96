package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// ReadFromSized finds a known length copied into a bytes.Buffer through
// its ReadFrom (io.Copy, io.CopyN, buf.ReadFrom of an io.LimitedReader):
// ReadFrom makes room for bytes.MinRead (512) bytes before every read,
// so a buffer made to hold exactly the length is regrown once it is full
// — and at once when the length is under 512 — copying what it read.
// hashicorp/yamux's readData sizes each stream's receive buffer to the
// frame (make([]byte, 0, length)), then io.Copy(s.recvBuf, conn) of a
// LimitedReader regrows it.
var ReadFromSized = &analysis.Analyzer{
	Name: "readfromsized",
	Doc:  "a known length copied into a bytes.Buffer through ReadFrom, which regrows it",
	Run:  runReadFromSized,
}

func runReadFromSized(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		limited := map[types.Object]bool{} // variables given an io.LimitedReader
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					if id, ok := lhs.(*ast.Ident); ok && i < len(n.Rhs) && len(n.Lhs) == len(n.Rhs) && limitedReader(pass, n.Rhs[i]) {
						if obj := pass.TypesInfo.ObjectOf(id); obj != nil {
							limited[obj] = true
						}
					}
				}
			case *ast.CallExpr:
				dst, src, how := readFromCall(pass, n)
				if dst == nil {
					return true
				}
				known := how == "io.CopyN" || limitedReader(pass, src)
				if id, ok := ast.Unparen(src).(*ast.Ident); ok && limited[pass.TypesInfo.ObjectOf(id)] {
					known = true
				}
				if !known || madeOnce(pass, fd.Body, dst) {
					return true
				}
				buf := oneLine(text(pass, dst))
				pass.Report(analysis.Diagnostic{
					Category: "readfrom-known-length",
					Pos:      n.Pos(),
					Message: fmt.Sprintf("%s copies a known length into %s with %s: bytes.Buffer's ReadFrom makes room for bytes.MinRead (512) bytes before every read, so a buffer made to hold exactly the length is regrown once it is full (at once under 512 bytes), and what it read is copied again",
						fd.Name.Name, buf, how),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("read the length straight into the buffer's free space: %s.Grow(n), then io.ReadFull into %s.AvailableBuffer()[:n] and Write those bytes — or make the buffer with bytes.MinRead to spare", buf, buf)}},
				})
			}
			return true
		})
	})
	return nil, nil
}

// readFromCall returns the *bytes.Buffer a call reads into through its
// ReadFrom (io.Copy(buf, r), io.CopyN(buf, r, n), buf.ReadFrom(r)), the
// reader, and the call's name; nil when it is none of those.
func readFromCall(pass *analysis.Pass, call *ast.CallExpr) (dst, src ast.Expr, how string) {
	if fn := calledFunc(pass, call); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "io" && (fn.Name() == "Copy" || fn.Name() == "CopyN") && len(call.Args) >= 2 {
		if isBytesBuffer(pass.TypesInfo.TypeOf(call.Args[0])) {
			return call.Args[0], call.Args[1], "io." + fn.Name()
		}
		return nil, nil, ""
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if ok && sel.Sel.Name == "ReadFrom" && len(call.Args) == 1 && isBytesBuffer(pass.TypesInfo.TypeOf(sel.X)) {
		return sel.X, call.Args[0], "ReadFrom"
	}
	return nil, nil, ""
}

// limitedReader reports whether e makes an io.LimitedReader
// (&io.LimitedReader{…}, io.LimitReader(r, n)).
func limitedReader(pass *analysis.Pass, e ast.Expr) bool {
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		fn := calledFunc(pass, call)
		return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "io" && fn.Name() == "LimitReader"
	}
	t := pass.TypesInfo.TypeOf(e)
	if p, ok := t.(*types.Pointer); ok {
		if n, ok := p.Elem().(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "io" && n.Obj().Name() == "LimitedReader" {
			return true
		}
	}
	return false
}

// isBytesBuffer reports whether t is *bytes.Buffer.
func isBytesBuffer(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "bytes" && n.Obj().Name() == "Buffer"
}

// madeOnce reports whether the buffer dst is assigned in body only under
// a test that it is nil (if s.recvBuf == nil { s.recvBuf = … }): made
// once per value and kept, so ReadFrom regrows it on its first fill
// only, not on every call.
func madeOnce(pass *analysis.Pass, body *ast.BlockStmt, dst ast.Expr) bool {
	want := oneLine(text(pass, dst))
	lazy := false
	ast.Inspect(body, func(n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if !ok {
			return true
		}
		be, ok := ifs.Cond.(*ast.BinaryExpr)
		if !ok || be.Op.String() != "==" || oneLine(text(pass, be.X)) != want {
			return true
		}
		if id, ok := be.Y.(*ast.Ident); ok && id.Name == "nil" {
			lazy = true
		}
		return true
	})
	return lazy
}
