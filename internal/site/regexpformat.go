package site

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp/syntax"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// RegexpFormat finds a package-level regexp, anchored at the start of
// the text, that a function runs to take a fixed format apart (a number
// and its unit, a sign and digits): its pattern is a sequence of
// character classes, optional parts and captures, with no alternatives
// of words, so a scan of the string over those classes does the same work
// in one pass, with no engine and no submatch slice:
//
//	var stringNumberRe = regexp.MustCompile(`^([-+]?\d*)(\.\d*)?$`)
//	matches := stringNumberRe.FindStringSubmatch(s)
//
// A pattern built at init (the units a table lists spliced into a class)
// counts when its constant start is anchored.
var RegexpFormat = &analysis.Analyzer{
	Name: "regexpformat",
	Doc:  "a package-level anchored regexp of character classes taking a fixed format apart",
	Run:  runRegexpFormat,
}

func runRegexpFormat(pass *analysis.Pass) (any, error) {
	patterns := regexpPatterns(pass)
	if len(patterns) == 0 {
		return nil, nil
	}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
			if !ok || !strings.HasPrefix(sel.Sel.Name, "Find") && sel.Sel.Name != "MatchString" && sel.Sel.Name != "Match" {
				return
			}
			id := identOf(sel.X)
			if id == nil {
				return
			}
			v, ok := pass.TypesInfo.Uses[id].(*types.Var)
			if !ok {
				return
			}
			p, ok := patterns[v]
			if !ok {
				return
			}
			pass.Report(analysis.Diagnostic{
				Category: "regexp-format",
				Pos:      c.Pos(),
				Message: fmt.Sprintf("%s runs %s, %s, to take a fixed format apart: character classes in sequence, optional parts and captures, nothing a scan cannot do; the regexp engine runs on every call%s",
					fd.Name.Name, v.Name(), p, allocsOf(sel.Sel.Name)),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("scan the string by hand in place of %s: walk its bytes over the pattern's classes in order (a sign, digits, a '.', the unit's letters) and slice out what the groups captured — one pass, no engine%s; keep the regexp's behaviour on the edge cases (empty parts, a lone sign) and test the two against each other", v.Name(), noSlice(sel.Sel.Name))}},
			})
		})
	})
	return nil, nil
}

// allocsOf says what a regexp method allocates per call.
func allocsOf(method string) string {
	if strings.Contains(method, "Submatch") {
		return ", and " + method + " allocates the slice of submatches"
	}
	return ""
}

// noSlice adds what the scan saves for a method that returns submatches.
func noSlice(method string) string {
	if strings.Contains(method, "Submatch") {
		return ", no slice of submatches"
	}
	return ""
}

// regexpPatterns returns the package-level regexps whose patterns are
// fixed formats, with a short form of the pattern for the message.
func regexpPatterns(pass *analysis.Pass) map[*types.Var]string {
	out := map[*types.Var]string{}
	consider := func(v *types.Var, arg ast.Expr, init *ast.FuncDecl) {
		if v == nil || v.Parent() != pass.Pkg.Scope() {
			return
		}
		if tv, ok := pass.TypesInfo.Types[arg]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
			if p := constant.StringVal(tv.Value); fixedFormat(p) {
				out[v] = "`" + p + "`"
			}
			return
		}
		// Built at init: the constant the variable starts from.
		if init == nil {
			return
		}
		id := identOf(arg)
		if id == nil {
			return
		}
		local := pass.TypesInfo.Uses[id]
		var head string
		inspectBody(init.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || head != "" {
				return
			}
			if l := identOf(as.Lhs[0]); l != nil && pass.TypesInfo.Defs[l] == local {
				if tv, ok := pass.TypesInfo.Types[as.Rhs[0]]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
					head = constant.StringVal(tv.Value)
				}
			}
		})
		if strings.HasPrefix(head, "^(") && !strings.Contains(head, "|") {
			out[v] = "a pattern built at init from `" + head + "…`"
		}
	}
	for _, f := range pass.Files {
		if isTest(pass, f) {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					vs, ok := sp.(*ast.ValueSpec)
					if !ok || len(vs.Names) != len(vs.Values) {
						continue
					}
					for i, val := range vs.Values {
						if arg, ok := compileArg(pass, val); ok {
							v, _ := pass.TypesInfo.Defs[vs.Names[i]].(*types.Var)
							consider(v, arg, nil)
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv != nil || d.Name.Name != "init" || d.Body == nil {
					continue
				}
				inspectBody(d.Body, func(n ast.Node) {
					as, ok := n.(*ast.AssignStmt)
					if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
						return
					}
					arg, ok := compileArg(pass, as.Rhs[0])
					if !ok {
						return
					}
					if id := identOf(as.Lhs[0]); id != nil {
						v, _ := pass.TypesInfo.Uses[id].(*types.Var)
						consider(v, arg, d)
					}
				})
			}
		}
	}
	return out
}

// compileArg returns the pattern argument of regexp.MustCompile (or
// Compile) in e.
func compileArg(pass *analysis.Pass, e ast.Expr) (ast.Expr, bool) {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 1 {
		return nil, false
	}
	fn := calleeFunc(pass, c)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "regexp" || fn.Name() != "MustCompile" && fn.Name() != "Compile" {
		return nil, false
	}
	return c.Args[0], true
}

// fixedFormat reports whether a pattern is anchored at the start and
// made only of literals, character classes, their repeats, optional
// parts and captures: no alternatives, no repeated groups.
func fixedFormat(p string) bool {
	re, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return false
	}
	re = re.Simplify()
	if re.Op != syntax.OpConcat || len(re.Sub) == 0 || re.Sub[0].Op != syntax.OpBeginText && re.Sub[0].Op != syntax.OpBeginLine {
		return false
	}
	var ok func(r *syntax.Regexp, inRepeat bool) bool
	ok = func(r *syntax.Regexp, inRepeat bool) bool {
		switch r.Op {
		case syntax.OpLiteral, syntax.OpCharClass, syntax.OpAnyCharNotNL, syntax.OpAnyChar,
			syntax.OpBeginText, syntax.OpEndText, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpEmptyMatch:
			return true
		case syntax.OpStar, syntax.OpPlus, syntax.OpRepeat:
			s := r.Sub[0]
			return !inRepeat && (s.Op == syntax.OpCharClass || s.Op == syntax.OpLiteral && len(s.Rune) == 1 || s.Op == syntax.OpAnyCharNotNL)
		case syntax.OpQuest, syntax.OpCapture, syntax.OpConcat:
			for _, s := range r.Sub {
				if !ok(s, inRepeat) {
					return false
				}
			}
			return true
		}
		return false // alternation, repeated groups
	}
	return ok(re, false)
}
