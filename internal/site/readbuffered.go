package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"path/filepath"

	"golang.org/x/tools/go/analysis"
)

// ReadBuffered finds a read through a *bufio.Reader: echo's randomString
// reads crypto/rand with io.ReadFull(reader, r), reader a pooled
// bufio.Reader. The system calls a profile shows under such a read are the
// buffer's refills, one per buffer's worth of bytes: the reads are
// buffered already, and "buffer the I/O" says nothing; a larger buffer
// makes fewer refills, fewer bytes asked for fewer still.
var ReadBuffered = &analysis.Analyzer{
	Name: "readbuffered",
	Doc:  "a read through a *bufio.Reader: buffered already, its system calls the refills",
	Run:  runReadBuffered,
}

func runReadBuffered(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			if buf := ownBuffer(pass, fd, call); buf != "" {
				pass.Report(analysis.Diagnostic{
					Category:       "read-buffered" + ownWork,
					Pos:            call.Pos(),
					Message:        fmt.Sprintf("%s reads into %s, the buffer the %s keeps: the reads are buffered already, and the system calls under them are the refills of %s, one per buffer's worth of bytes", oneLine(text(pass, call)), buf, types.TypeString(pass.TypesInfo.TypeOf(fd.Recv.List[0].Type), types.RelativeTo(pass.Pkg)), buf),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("the read is the value's own work, one refill per buffer's worth: fewer refills take a larger %s, whose size is set where the value is made (by its caller, where a constructor takes it), not a change at this line", buf)}},
				})
				return
			}
			fn := calledFunc(pass, call)
			if fn == nil || fn.Pkg() == nil {
				return
			}
			var r ast.Expr
			switch {
			case fn.Pkg().Path() == "io" && (fn.Name() == "ReadFull" || fn.Name() == "ReadAtLeast") && len(call.Args) >= 2:
				r = call.Args[0]
			case fn.Pkg().Path() == "io" && (fn.Name() == "Copy" || fn.Name() == "CopyN") && len(call.Args) >= 2:
				r = call.Args[1]
			case fn.Pkg().Path() == "bufio" && (fn.Name() == "Read" || fn.Name() == "ReadByte" || fn.Name() == "ReadString" || fn.Name() == "ReadBytes" || fn.Name() == "ReadLine" || fn.Name() == "ReadRune"):
				if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
					r = sel.X
				}
			}
			if r == nil {
				return
			}
			what := oneLine(text(pass, r)) + ", a *bufio.Reader"
			if !isBufioReader(pass.TypesInfo.TypeOf(r)) {
				arg, ok := bufferedParam(pass, fd, r)
				if !ok {
					return
				}
				what = fmt.Sprintf("%s, a *bufio.Reader every caller passes (%s)", oneLine(text(pass, r)), arg)
			}
			pass.Report(analysis.Diagnostic{
				Category:       "read-buffered",
				Pos:            call.Pos(),
				Message:        fmt.Sprintf("%s reads from %s: the reads are buffered already, and the system calls under them are the buffer's refills, one per buffer's worth of bytes (4096 unless it was made with bufio.NewReaderSize)", oneLine(text(pass, call)), what),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "fewer refills take a larger buffer where the reader is made (bufio.NewReaderSize), or fewer bytes asked for: the read itself is not the change"}},
			})
		})
	})
	return nil, nil
}

// isBufioReader reports whether t is *bufio.Reader, directly or through
// a type assertion's result.
func isBufioReader(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "bufio" && n.Obj().Name() == "Reader"
}

// ownBuffer returns the receiver's field a Read method call reads into
// (iter.reader.Read(iter.buf)), a []byte the value keeps, or "".
func ownBuffer(pass *analysis.Pass, fd *ast.FuncDecl, call *ast.CallExpr) string {
	fs, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || fs.Sel.Name != "Read" || len(call.Args) != 1 || fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
		return ""
	}
	if _, ok := pass.TypesInfo.Uses[fs.Sel].(*types.Func); !ok {
		return ""
	}
	recv := pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
	arg := ast.Unparen(call.Args[0])
	if se, ok := arg.(*ast.SliceExpr); ok {
		arg = ast.Unparen(se.X)
	}
	sel, ok := arg.(*ast.SelectorExpr)
	if !ok || !isObj(pass, sel.X, recv) {
		return ""
	}
	if s, ok := pass.TypesInfo.TypeOf(sel).Underlying().(*types.Slice); !ok || !types.Identical(s.Elem(), types.Typ[types.Byte]) {
		return ""
	}
	return text(pass, sel)
}

// bufferedParam reports whether r is a parameter of fd (read as it is, or
// through an io.LimitedReader fd wraps it in) that every call of fd in the
// package passes a *bufio.Reader, and the first caller's argument with
// its place: yamux's readData(hdr, flags, conn io.Reader) reads conn,
// which handleStreamMessage passes s.bufRead.
func bufferedParam(pass *analysis.Pass, fd *ast.FuncDecl, r ast.Expr) (string, bool) {
	id, ok := ast.Unparen(r).(*ast.Ident)
	if !ok {
		return "", false
	}
	obj := pass.TypesInfo.ObjectOf(id)
	idx, i := -1, 0
	for _, f := range fd.Type.Params.List {
		for _, n := range f.Names {
			if pass.TypesInfo.Defs[n] == obj {
				idx = i
			}
			i++
		}
		if len(f.Names) == 0 {
			i++
		}
	}
	fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if idx < 0 || fn == nil || fn.Type().(*types.Signature).Variadic() {
		return "", false
	}
	wrapped := true // every assignment to the parameter wraps it in a limit
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			for j, lhs := range as.Lhs {
				if l, ok := lhs.(*ast.Ident); ok && pass.TypesInfo.ObjectOf(l) == obj && (len(as.Rhs) != len(as.Lhs) || !limitedReader(pass, as.Rhs[j])) {
					wrapped = false
				}
			}
		}
		return true
	})
	if !wrapped {
		return "", false
	}
	first, all := "", true
	for _, f := range pass.Files {
		if isTestFile(pass, f) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || calledFunc(pass, call) != fn || idx >= len(call.Args) {
				return true
			}
			if !isBufioReader(pass.TypesInfo.TypeOf(call.Args[idx])) {
				all = false
			} else if first == "" {
				p := pass.Fset.Position(call.Pos())
				first = fmt.Sprintf("%s at %s:%d", oneLine(text(pass, call.Args[idx])), filepath.Base(p.Filename), p.Line)
			}
			return true
		})
	}
	return first, all && first != ""
}
