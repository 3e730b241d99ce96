package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// ReadWhole finds a read of a whole record in one call: io.ReadFull or
// io.ReadAtLeast into a slice whose length the code computes (the size a
// header gave), not a few constant bytes. Its cost in a profile is the
// copy out of the reader, the io.Reader API's price, which "read fewer,
// larger pieces" cannot lower: pierrec/lz4's FrameDataBlock.Read reads
// each compressed block with one io.ReadFull of its size. The function's
// own work, no change at the line; a []byte API decoding the caller's
// memory in place is the alternative.
var ReadWhole = &analysis.Analyzer{
	Name: "readwhole",
	Doc:  "a whole record read in one io.ReadFull: the copy out of the reader is the API's price",
	Run:  runReadWhole,
}

func runReadWhole(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) < 2 {
				return
			}
			fn := calledFunc(pass, call)
			if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "io" || fn.Name() != "ReadFull" && fn.Name() != "ReadAtLeast" {
				return
			}
			if !computedLength(pass, call.Args[1]) {
				return
			}
			pass.Report(analysis.Diagnostic{
				Category: "read-whole" + ownWork,
				Pos:      call.Pos(),
				Message: fmt.Sprintf("%s reads %s whole from %s in one io.%s, its length computed, not a few bytes at a time: the copy out of the reader is the io.Reader API's price",
					fd.Name.Name, oneLine(types.ExprString(call.Args[1])), oneLine(types.ExprString(call.Args[0])), fn.Name()),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "nothing to batch at this line: the record is read in one call; where callers hold the input in memory, a []byte form of the API that decodes it in place saves the copy (a change of the API, not of this line)"}},
			})
		})
	})
	return nil, nil
}

// computedLength reports whether e is a slice (not an array's bytes) whose
// length is not a constant: buf[:n], b.data[read:], a slice made or
// resliced elsewhere.
func computedLength(pass *analysis.Pass, e ast.Expr) bool {
	e = ast.Unparen(e)
	if se, ok := e.(*ast.SliceExpr); ok {
		if _, isArray := pass.TypesInfo.TypeOf(se.X).Underlying().(*types.Array); isArray {
			return false // hdr[:]: a fixed size
		}
		if p, isPtr := pass.TypesInfo.TypeOf(se.X).Underlying().(*types.Pointer); isPtr {
			if _, isArray := p.Elem().Underlying().(*types.Array); isArray {
				return false
			}
		}
		if se.High != nil && constValue(pass, se.High) && (se.Low == nil || constValue(pass, se.Low)) {
			return false // buf[:4]: a few bytes
		}
		return true
	}
	_, isSlice := pass.TypesInfo.TypeOf(e).Underlying().(*types.Slice)
	return isSlice
}

// constValue reports whether e is a constant.
func constValue(pass *analysis.Pass, e ast.Expr) bool {
	tv, ok := pass.TypesInfo.Types[e]
	return ok && tv.Value != nil
}
