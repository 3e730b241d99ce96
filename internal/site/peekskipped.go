package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// PeekSkipped finds bytes a buffered reader has already peeked at,
// consumed with its Skip (or Discard) where the package consumes such
// bytes with the reader's Next elsewhere:
//
//	lead, err := m.R.PeekByte()
//	…
//	if isfixint(lead) {
//		u = uint64(rfixint(lead))
//		_, err = m.R.Skip(1)
//
//	p, err = m.R.Peek(9)
//	…
//	_, err = m.R.Skip(9)
//
// tinylib/msgp's Reader over philhofer/fwd (hand analysis A: Skip(1) →
// Next(1) at eleven sites, and PeekByte + Next(9) for the floats as
// ReadInt64 already reads, −20% CPU on ReadFloat64; B: ReadString's peek,
// Skip(1) and read for a short string, one call would do). The bytes are in
// the buffer: Next returns them and moves past them in one call, the
// way the package's other reads consume theirs.
var PeekSkipped = &analysis.Analyzer{
	Name: "peekskipped",
	Doc:  "bytes a buffered reader has peeked at, consumed with Skip where the package consumes with Next",
	Run:  runPeekSkipped,
}

func runPeekSkipped(pass *analysis.Pass) (any, error) {
	// The package's functions that consume peeked bytes with Next, by
	// the reader's type: the way the package reads elsewhere.
	nexts := map[string][]*ast.FuncDecl{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		peeked := map[string]bool{}
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			recv, name, t := readerCall(pass, call)
			switch {
			case t == "":
			case name == "PeekByte" || name == "Peek":
				peeked[recv] = true
			case name == "Next" && peeked[recv] && (len(nexts[t]) == 0 || nexts[t][len(nexts[t])-1] != fd):
				nexts[t] = append(nexts[t], fd)
			}
		})
	})
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		peeks := map[string]*ast.CallExpr{} // the first peek at each reader, by its text
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			recv, name, t := readerCall(pass, call)
			if t == "" {
				return
			}
			switch name {
			case "PeekByte", "Peek":
				if peeks[recv] == nil {
					peeks[recv] = call
				}
			case "Skip", "Discard":
				peek := peeks[recv]
				if peek == nil || len(call.Args) != 1 || len(nexts[t]) == 0 || !peekedAll(pass, peek, call.Args[0]) {
					return
				}
				reportPeekSkipped(pass, fd, recv, peek, call, nexts[t])
			}
		})
	})
	return nil, nil
}

// readerCall returns, for a method call on a reader that has Next(int)
// ([]byte, error) and PeekByte or Peek, the receiver's text, the
// method's name and the reader's type; "" for anything else.
func readerCall(pass *analysis.Pass, call *ast.CallExpr) (recv, name, typ string) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return "", "", ""
	}
	fn, _ := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
	if fn == nil {
		return "", "", ""
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return "", "", ""
	}
	t := sig.Recv().Type()
	next, _, _ := types.LookupFieldOrMethod(t, true, fn.Pkg(), "Next")
	nf, ok := next.(*types.Func)
	if !ok {
		return "", "", ""
	}
	ns := nf.Type().(*types.Signature)
	if ns.Params().Len() != 1 || ns.Results().Len() != 2 || !types.Identical(ns.Results().At(0).Type(), types.NewSlice(types.Typ[types.Byte])) {
		return "", "", ""
	}
	peek, _, _ := types.LookupFieldOrMethod(t, true, fn.Pkg(), "PeekByte")
	if peek == nil {
		peek, _, _ = types.LookupFieldOrMethod(t, true, fn.Pkg(), "Peek")
	}
	if peek == nil {
		return "", "", ""
	}
	return types.ExprString(sel.X), sel.Sel.Name, types.TypeString(t, nil)
}

// peekedAll reports whether the skip's count n is within what peek
// looked at: 1 after PeekByte, k or fewer after Peek(k), both constants.
func peekedAll(pass *analysis.Pass, peek *ast.CallExpr, n ast.Expr) bool {
	skip := constInt(pass, n)
	if skip < 1 {
		return false
	}
	if len(peek.Args) == 0 {
		return skip == 1
	}
	return skip <= constInt(pass, peek.Args[0])
}

func reportPeekSkipped(pass *analysis.Pass, fd *ast.FuncDecl, recv string, peek, skip *ast.CallExpr, nexts []*ast.FuncDecl) {
	n := text(pass, skip.Args[0])
	sname := ast.Unparen(skip.Fun).(*ast.SelectorExpr).Sel.Name
	what := "the byte that " + recv + ".PeekByte()"
	fix := fmt.Sprintf("%s.Next(%s) in place of %s.%s(%s) (its bytes left unused: _, err = %s.Next(%s))", recv, n, recv, sname, n, recv, n)
	if len(peek.Args) > 0 {
		what = fmt.Sprintf("the bytes that %s.Peek(%s)", recv, text(pass, peek.Args[0]))
		fix = fmt.Sprintf("one p, err = %s.Next(%s) in place of the Peek and the %s, after checking the lead byte with PeekByte where the bytes may not be this value's (a Next consumes them)", recv, n, sname)
	}
	// The read most like this one (ReadInt64 for ReadFloat32: the
	// longest common prefix of their names) shows the way.
	var other *ast.FuncDecl
	best := -1
	for _, f := range nexts {
		if f == fd {
			continue
		}
		if n := commonPrefix(f.Name.Name, fd.Name.Name); n > best {
			other, best = f, n
		}
	}
	if other == nil {
		return
	}
	also := ""
	if len(nexts) > 1 {
		also = fmt.Sprintf(" (%d functions of the package read that way)", len(nexts))
	}
	pass.Report(analysis.Diagnostic{
		Category: "peek-skipped",
		Pos:      skip.Pos(),
		Message: fmt.Sprintf("%s.%s(%s) consumes %s (line %d) already buffered, through %s; %s.Next returns buffered bytes and moves past them in one call, as %s does after its peek (line %d)%s",
			recv, sname, n, what, pass.Fset.Position(peek.Pos()).Line, sname, recv, other.Name.Name, pass.Fset.Position(other.Pos()).Line, also),
		Related:        []analysis.RelatedInformation{{Pos: peek.Pos(), Message: "the peek"}, {Pos: other.Pos(), Message: "reads with Next"}},
		SuggestedFixes: []analysis.SuggestedFix{{Message: "consume them with " + fix + ": the same bytes, one call on the reader's buffered path; check that a short stream's error (Next's) is the one the callers expect"}},
	})
}

// commonPrefix is the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
