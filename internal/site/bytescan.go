package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ByteScan finds a loop that steps through a byte slice one index at a
// time, testing each byte against one or two delimiters (switch
// t.buf[pos] { case '<': … case '>': … }; pos++, or if t.buf[i] != '<' {
// continue }) and doing nothing for the others: the bytes between
// delimiters are looked at one by one in Go where bytes.IndexByte (or
// IndexAny for two) jumps to the next with the library's vectorized
// search. muktihari/xmltokenizer's RawToken and parseCharData: −9.5…−14%
// instructions on its decodes, −91% on a long comment (measured by hand).
var ByteScan = &analysis.Analyzer{
	Name: "bytescan",
	Doc:  "a loop testing each byte of a slice against one or two delimiters, one index at a time",
	Run:  runByteScan,
}

func runByteScan(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			loop, ok := n.(*ast.ForStmt)
			if !ok || loop.Body == nil {
				return
			}
			for k, st := range loop.Body.List {
				var x ast.Expr
				var delims []string
				switch st := st.(type) {
				case *ast.SwitchStmt:
					// Only the step may follow: a statement after
					// the switch works on every byte (unescapeString's
					// append of the bytes it keeps).
					if rest := loop.Body.List[k+1:]; len(rest) > 1 || len(rest) == 1 && loop.Post != nil {
						continue
					}
					x, delims = st.Tag, switchChars(st)
				case *ast.IfStmt:
					// if buf[i] != '<' { continue }
					be, ok := st.Cond.(*ast.BinaryExpr)
					if !ok || be.Op != token.NEQ || len(st.Body.List) != 1 || st.Else != nil {
						continue
					}
					if br, ok := st.Body.List[0].(*ast.BranchStmt); !ok || br.Tok != token.CONTINUE {
						continue
					}
					if c := charLit(be.Y); c != "" {
						x, delims = be.X, []string{c}
					}
				}
				idx, ok := ast.Unparen(x).(*ast.IndexExpr)
				if !ok || len(delims) == 0 || len(delims) > 2 {
					continue
				}
				if t, ok := pass.TypesInfo.TypeOf(idx.X).Underlying().(*types.Slice); !ok || !types.Identical(t.Elem(), types.Typ[types.Byte]) {
					continue
				}
				i := objOf(pass, idx.Index)
				if i == nil || !steppedByOne(pass, loop, i) {
					continue
				}
				call := fmt.Sprintf("bytes.IndexByte(%s[%s:], %s)", oneLine(types.ExprString(idx.X)), i.Name(), delims[0])
				if len(delims) == 2 {
					call = fmt.Sprintf("bytes.IndexAny(%s[%s:], %s)", oneLine(types.ExprString(idx.X)), i.Name(), strconv.Quote(unquoteChar(delims[0])+unquoteChar(delims[1])))
				}
				pass.Report(analysis.Diagnostic{
					Category: "byte-scan",
					Pos:      st.Pos(),
					Message: fmt.Sprintf("%s tests each byte of %s against %s one index at a time (%s++), doing nothing for the others: the bytes between delimiters are looked at one by one",
						fd.Name.Name, oneLine(types.ExprString(idx.X)), strings.Join(delims, " and "), i.Name()),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"jump to the next delimiter with %s (the library's vectorized search), then handle it as the loop does now: long runs without a delimiter cost a scan, not a loop iteration per byte", call)}},
				})
				return
			}
		})
	})
	return nil, nil
}

// switchChars returns the character constants a switch's cases list when
// every case lists only such constants, and there is no default.
func switchChars(sw *ast.SwitchStmt) []string {
	var out []string
	for _, c := range sw.Body.List {
		cc := c.(*ast.CaseClause)
		if cc.List == nil {
			return nil // a default does something for the other bytes
		}
		for _, e := range cc.List {
			ch := charLit(e)
			if ch == "" {
				return nil
			}
			out = append(out, ch)
		}
	}
	return out
}

// charLit returns a character literal's text ('<'), or "".
func charLit(e ast.Expr) string {
	if lit, ok := ast.Unparen(e).(*ast.BasicLit); ok && lit.Kind == token.CHAR {
		return lit.Value
	}
	return ""
}

// unquoteChar returns the character a literal stands for.
func unquoteChar(lit string) string {
	r, _, _, err := strconv.UnquoteChar(strings.Trim(lit, "'"), '\'')
	if err != nil {
		return ""
	}
	return string(r)
}

// steppedByOne reports whether loop advances i by one: i++ in its post
// statement, or as the last statement of its body.
func steppedByOne(pass *analysis.Pass, loop *ast.ForStmt, i types.Object) bool {
	isInc := func(s ast.Stmt) bool {
		inc, ok := s.(*ast.IncDecStmt)
		return ok && inc.Tok == token.INC && objOf(pass, inc.X) == i
	}
	if loop.Post != nil && isInc(loop.Post) {
		return true
	}
	body := loop.Body.List
	return len(body) > 0 && isInc(body[len(body)-1])
}
