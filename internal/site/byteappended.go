package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// ByteAppended finds a loop that copies a string or byte slice into a
// buffer one byte per iteration while each byte passes a test, stopping
// at the first that does not:
//
//	for ; i < valLen; i++ {
//		c := s[i]
//		if c > 31 && c != '"' && c != '\\' {
//			stream.buf = append(stream.buf, c)
//		} else {
//			break
//		}
//	}
//
// json-iterator's WriteString, 79% of its encoding benchmark: every byte
// pays an append's capacity check and store. Finding the end of the run
// first and appending it in one piece copies it at memmove's speed.
var ByteAppended = &analysis.Analyzer{
	Name: "byteappended",
	Doc:  "a loop appending a string's bytes one at a time while each passes a test",
	Run:  runByteAppended,
}

func runByteAppended(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			f, ok := n.(*ast.ForStmt)
			if !ok || f.Cond == nil || f.Post == nil {
				return
			}
			inc, ok := f.Post.(*ast.IncDecStmt)
			if !ok || inc.Tok != token.INC {
				return
			}
			idx, ok := inc.X.(*ast.Ident)
			if !ok {
				return
			}
			iv := pass.TypesInfo.ObjectOf(idx)
			// The loop's statements: an optional c := s[i], then one
			// if whose branches are the append and a break.
			stmts := f.Body.List
			var src ast.Expr
			var elem types.Object
			if len(stmts) == 2 {
				as, ok := stmts[0].(*ast.AssignStmt)
				if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
					return
				}
				ix, ok := ast.Unparen(as.Rhs[0]).(*ast.IndexExpr)
				id, isID := as.Lhs[0].(*ast.Ident)
				if !ok || !isID || !isObj(pass, ix.Index, iv) {
					return
				}
				src, elem = ix.X, pass.TypesInfo.Defs[id]
				stmts = stmts[1:]
			}
			if len(stmts) != 1 {
				return
			}
			ifs, ok := stmts[0].(*ast.IfStmt)
			if !ok || ifs.Init != nil || ifs.Else == nil || len(ifs.Body.List) != 1 {
				return
			}
			els, ok := ifs.Else.(*ast.BlockStmt)
			if !ok || len(els.List) != 1 {
				return
			}
			if br, ok := els.List[0].(*ast.BranchStmt); !ok || br.Tok != token.BREAK || br.Label != nil {
				return
			}
			as, ok := ifs.Body.List[0].(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || !isBuiltin(pass, call.Fun, "append") || len(call.Args) != 2 || call.Ellipsis.IsValid() || text(pass, call.Args[0]) != text(pass, as.Lhs[0]) {
				return
			}
			arg := ast.Unparen(call.Args[1])
			switch {
			case elem != nil && isObj(pass, arg, elem):
			case elem == nil:
				ix, ok := arg.(*ast.IndexExpr)
				if !ok || !isObj(pass, ix.Index, iv) {
					return
				}
				src = ix.X
			default:
				return
			}
			if t := pass.TypesInfo.TypeOf(src); t == nil || !bytesOrString(t) {
				return
			}
			pass.Report(analysis.Diagnostic{
				Category: "byte-appended",
				Pos:      as.Pos(),
				Message:  fmt.Sprintf("the loop at lines %d–%d appends %s's bytes to %s one at a time while each passes %s, and stops at the first that does not", pass.Fset.Position(f.Pos()).Line, pass.Fset.Position(f.End()).Line, oneLine(text(pass, src)), oneLine(text(pass, as.Lhs[0])), oneLine(text(pass, ifs.Cond))),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"find the end of the run first (a loop that only tests the bytes), then append %s[start:%s] in one append: the run is copied at memmove's speed instead of a capacity check and a store per byte", oneLine(text(pass, src)), idx.Name)}},
			})
		})
	})
	return nil, nil
}
