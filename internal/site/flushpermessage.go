package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// FlushPerMessage finds a compressor flushed in a Close method: each
// message the writer carries is compressed and flushed on its own
// (gorilla/websocket's flateWriteWrapper.Close: w.fw.Flush()). Deflate
// builds a Huffman code for every block a flush ends, a cost per message
// whatever its size, which small messages do not earn back: a 45-byte
// message came out larger compressed than not. Where the protocol lets a
// sender choose per message, small ones are better sent uncompressed.
var FlushPerMessage = &analysis.Analyzer{
	Name: "flushpermessage",
	Doc:  "a compressor flushed by a Close method: each message compressed on its own",
	Run:  runFlushPerMessage,
}

func runFlushPerMessage(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if fd.Recv == nil || fd.Name.Name != "Close" {
			return
		}
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Flush" {
				return
			}
			pkg := compressorPkg(pass.TypesInfo.TypeOf(sel.X))
			if pkg == "" {
				return
			}
			pass.Report(analysis.Diagnostic{
				Category:       "flush-per-message",
				Pos:            call.Pos(),
				Message:        fmt.Sprintf("%s flushes %s, a %s writer, when each message is closed: every message is compressed and ended on its own, and each flush ends a block whose Huffman code is built for it: a cost per message whatever its size", fd.Name.Name, oneLine(text(pass, sel.X)), pkg),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "small messages do not earn that cost back (a few dozen bytes can come out larger compressed): where the format lets the sender choose per message, send those under a size threshold uncompressed, decided where the message's size is known; keep compressing the large ones"}},
			})
		})
	})
	return nil, nil
}

// compressorPkg returns the package of a *flate.Writer, *gzip.Writer or
// *zlib.Writer type, or "".
func compressorPkg(t types.Type) string {
	p, ok := t.(*types.Pointer)
	if !ok {
		return ""
	}
	n, ok := p.Elem().(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Name() != "Writer" {
		return ""
	}
	switch path := n.Obj().Pkg().Path(); path {
	case "compress/flate", "compress/gzip", "compress/zlib":
		return path
	}
	return ""
}
