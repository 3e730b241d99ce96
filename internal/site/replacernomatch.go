package site

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ReplacerNoMatch finds a package-level strings.Replacer whose old
// strings are not all single bytes, run on every call (r.Replace(s)): its
// generic algorithm builds a new string whatever it finds, so input with
// nothing to replace is copied too. When every old string starts with
// one of a few bytes, a test for those bytes first returns the input
// itself. bmatcuk/doublestar's unescapeMeta runs its Replacer of `\*`,
// `\?`, … on every name it matches: −174 of Glob's 4020 allocs/op with
// strings.IndexByte(s, '\\') < 0 first, measured by hand.
var ReplacerNoMatch = &analysis.Analyzer{
	Name: "replacernomatch",
	Doc:  "a multi-byte strings.Replacer run on every call, copying input with nothing to replace",
	Run:  runReplacerNoMatch,
}

func runReplacerNoMatch(pass *analysis.Pass) (any, error) {
	firsts := map[types.Object]string{} // replacer → the first bytes of its old strings
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				vs, ok := spec.(*ast.ValueSpec)
				if !ok || len(vs.Names) != len(vs.Values) {
					continue
				}
				for i, v := range vs.Values {
					call, ok := ast.Unparen(v).(*ast.CallExpr)
					if !ok || !isFunc(pass, call, "strings", "", "NewReplacer") || len(call.Args)%2 != 0 {
						continue
					}
					if b, ok := replacerFirsts(pass, call); ok {
						firsts[pass.TypesInfo.Defs[vs.Names[i]]] = b
					}
				}
			}
		}
	}
	if len(firsts) == 0 {
		return nil, nil
	}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Replace" {
				return
			}
			r := objOf(pass, sel.X)
			b, ok := firsts[r]
			if !ok {
				return
			}
			s := oneLine(types.ExprString(call.Args[0]))
			check := fmt.Sprintf("strings.ContainsAny(%s, %s)", s, strconv.Quote(b))
			if len(b) == 1 {
				check = fmt.Sprintf("strings.IndexByte(%s, %s) >= 0", s, strconv.QuoteRune(rune(b[0])))
			}
			pass.Report(analysis.Diagnostic{
				Category: "replacer-no-match",
				Pos:      call.Pos(),
				Message: fmt.Sprintf("%s runs %s.Replace(%s) on every call: a Replacer with old strings longer than a byte builds a new string whatever it finds, so %s is copied even when nothing in it is replaced (every old string starts with %s)",
					fd.Name.Name, r.Name(), s, s, quoteBytes([]byte(b))),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"test for those bytes first and return %s itself when none is there (if !(%s) { return %s }): the Replacer then runs only on input it changes", s, check, s)}},
			})
		})
	})
	return nil, nil
}

// replacerFirsts returns the distinct first bytes of a NewReplacer's old
// strings, when they are constants and one of them is longer than a
// byte (the generic algorithm, which always copies).
func replacerFirsts(pass *analysis.Pass, call *ast.CallExpr) (string, bool) {
	var firsts []byte
	long := false
	for i := 0; i < len(call.Args); i += 2 {
		tv, ok := pass.TypesInfo.Types[call.Args[i]]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
			return "", false
		}
		old := constant.StringVal(tv.Value)
		if old == "" {
			return "", false
		}
		if len(old) > 1 {
			long = true
		}
		if !strings.ContainsRune(string(firsts), rune(old[0])) {
			firsts = append(firsts, old[0])
		}
	}
	return string(firsts), long && len(firsts) <= 4
}
