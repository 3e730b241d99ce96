package site

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// bufferPerCallMax is the largest scratch buffer, in bytes, the shape
// proposes to keep in the receiver: a few words a value can carry.
const bufferPerCallMax = 64

// BufferPerCall finds a small byte buffer a method with a pointer
// receiver makes at every call, of a constant size, and hands to a call,
// which the compiler cannot see keep it or not (an io.Reader's Read, an
// io.Writer's Write, a helper passing it on): it moves the buffer to the
// heap, one allocation per call.
//
//	func (d *Decoder) Decode() (orb.Geometry, int, error) {
//		buf := make([]byte, 8)
//		order, typ, srid, err := readByteOrderType(d.r, buf)
//
//	func (e *Encoder) Encode(geom orb.Geometry) error {
//		var b []byte
//		if e.order == binary.LittleEndian { b = []byte{1} } else { b = []byte{0} }
//		_, err := e.w.Write(b)
//
// paulmach/orb's WKB decoder and encoder (both hand analyses: one
// allocation per call less, Encode 1 → 0 allocs/op). The receiver already
// lives on the heap: an array field in it holds the bytes at no cost per
// call.
var BufferPerCall = &analysis.Analyzer{
	Name: "bufferpercall",
	Doc:  "a small byte buffer a method makes at every call and hands to a call that makes it escape",
	Run:  runBufferPerCall,
}

func runBufferPerCall(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		recv := pointerRecv(pass, fd)
		if recv == nil {
			return
		}
		reported := map[*types.Var]bool{}
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			id, ok := as.Lhs[0].(*ast.Ident)
			if !ok {
				return
			}
			v, _ := pass.TypesInfo.ObjectOf(id).(*types.Var)
			if v == nil || v.Parent() == pass.Pkg.Scope() || reported[v] {
				return
			}
			size, lit := smallByteBuffer(pass, as.Rhs[0])
			if size == 0 {
				return
			}
			call := handedTo(pass, fd.Body, v)
			if call == nil || sliceLeaves(pass, fd.Body, v, false) {
				return
			}
			reported[v] = true
			what := fmt.Sprintf("makes %s, %d bytes,", v.Name(), size)
			if lit {
				what = fmt.Sprintf("makes %s, a literal of %d constant bytes,", v.Name(), size)
				if size == 1 {
					what = fmt.Sprintf("makes %s, a literal of one constant byte,", v.Name())
				}
			}
			fix := fmt.Sprintf("keep a [%d]byte array in %s (a field, buf [%d]byte) and hand the call %s.buf[:]: %s already lives on the heap, so the bytes cost nothing per call (one %s is not used by two goroutines at once)",
				size, recv.Name(), size, recvIdent(fd), recv.Name(), recv.Name())
			if lit {
				fix += "; or, as the bytes are constants and the call only reads them, a package-level value made once (var mark = []byte{…})"
			}
			pass.Report(analysis.Diagnostic{
				Category: "buffer-per-call",
				Pos:      as.Pos(),
				Message: fmt.Sprintf("%s %s at every call and hands it to %s: the compiler cannot see that call leave it alone, so it moves it to the heap, one allocation per call",
					fd.Name.Name, what, text(pass, call)),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fix}},
			})
		})
	})
	return nil, nil
}

// pointerRecv returns the named struct type of the package a method's
// pointer receiver points to, or nil.
func pointerRecv(pass *analysis.Pass, fd *ast.FuncDecl) *types.TypeName {
	if fd.Recv == nil || len(fd.Recv.List) != 1 {
		return nil
	}
	p, ok := pass.TypesInfo.TypeOf(fd.Recv.List[0].Type).(*types.Pointer)
	if !ok {
		return nil
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok || n.Obj().Pkg() != pass.Pkg {
		return nil
	}
	if _, ok := n.Underlying().(*types.Struct); !ok {
		return nil
	}
	return n.Obj()
}

// recvIdent is a method's receiver's name, or "r".
func recvIdent(fd *ast.FuncDecl) string {
	if names := fd.Recv.List[0].Names; len(names) == 1 && names[0].Name != "_" {
		return names[0].Name
	}
	return "r"
}

// smallByteBuffer returns the size of make([]byte, N) or []byte{c, …}
// (constants) when it is at most bufferPerCallMax, and whether it is a
// literal; 0 otherwise.
func smallByteBuffer(pass *analysis.Pass, e ast.Expr) (int64, bool) {
	t, ok := pass.TypesInfo.TypeOf(e).(*types.Slice)
	if !ok {
		return 0, false
	}
	if b, ok := t.Elem().Underlying().(*types.Basic); !ok || b.Kind() != types.Byte {
		return 0, false
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		if !isBuiltin(pass, x.Fun, "make") || len(x.Args) != 2 {
			return 0, false
		}
		tv, ok := pass.TypesInfo.Types[x.Args[1]]
		if !ok || tv.Value == nil {
			return 0, false
		}
		n, ok := constant.Int64Val(constant.ToInt(tv.Value))
		if !ok || n <= 0 || n > bufferPerCallMax {
			return 0, false
		}
		return n, false
	case *ast.CompositeLit:
		if len(x.Elts) == 0 || len(x.Elts) > bufferPerCallMax {
			return 0, false
		}
		for _, el := range x.Elts {
			if _, kv := el.(*ast.KeyValueExpr); kv {
				return 0, false
			}
			if tv, ok := pass.TypesInfo.Types[el]; !ok || tv.Value == nil {
				return 0, false
			}
		}
		return int64(len(x.Elts)), true
	}
	return 0, false
}

// handedTo returns the first call that takes v whole as an argument (not
// len, cap, copy or append), or nil.
func handedTo(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) *ast.CallExpr {
	var out *ast.CallExpr
	inspectBody(body, func(n ast.Node) {
		call, ok := n.(*ast.CallExpr)
		if !ok || out != nil {
			return
		}
		for _, b := range []string{"len", "cap", "copy", "append"} {
			if isBuiltin(pass, call.Fun, b) {
				return
			}
		}
		for _, a := range call.Args {
			if sl, ok := ast.Unparen(a).(*ast.SliceExpr); ok {
				a = sl.X
			}
			if identVar(pass, a) == v {
				out = call
				return
			}
		}
	})
	return out
}
