package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"regexp/syntax"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// RegexpTest finds a package-level regexp run to answer a question a
// comparison answers: its pattern is one character class (`[^a-zA-Z0-9]`,
// `\s`, `[\r\n]`), asked whether the input holds such a character, or a
// few fixed strings anchored at an end (`\n\r?\n$`), asked whether the
// input ends (or starts) with one. MatchString runs the regexp engine on
// every call for what a rune test or strings.HasSuffix says without it.
// When the input is one rune made into a string (`char := string(r)`),
// the rune itself is the thing to test: the conversion goes too.
//
// A function running several such tests gets one diagnostic, at the
// first, naming the others.
var RegexpTest = &analysis.Analyzer{
	Name: "regexptest",
	Doc:  "a package-level regexp of one character class, or of fixed strings at an end, run to test its input",
	Run:  runRegexpTest,
}

// testRegexp is a pattern a comparison answers, with what replaces it.
type testRegexp struct {
	text string
	// class is true for one character class; else words are the fixed
	// strings, at the end when suffix (the start otherwise).
	class  bool
	words  []string
	suffix bool
}

func runRegexpTest(pass *analysis.Pass) (any, error) {
	tests := testRegexps(pass)
	if len(tests) == 0 {
		return nil, nil
	}
	// The variables set to string(r) of a rune: char1 := string(rune1).
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		runeOf := map[*types.Var]ast.Expr{}
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return
			}
			for i, r := range as.Rhs {
				if v, ok := objOf(pass, as.Lhs[i]).(*types.Var); ok {
					if e := runeConversion(pass, r); e != nil {
						runeOf[v] = e
					}
				}
			}
		})
		type use struct {
			call *ast.CallExpr
			re   *types.Var
			pat  testRegexp
			fix  string
			rune bool
		}
		var uses []use
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "MatchString" && sel.Sel.Name != "Match" {
				return
			}
			re, _ := objOf(pass, sel.X).(*types.Var)
			pat, ok := tests[re]
			if re == nil || !ok {
				return
			}
			arg := call.Args[0]
			in := oneLine(types.ExprString(arg))
			r := runeConversion(pass, arg)
			if v, ok := objOf(pass, arg).(*types.Var); ok && r == nil {
				r = runeOf[v]
			}
			pkg := "strings"
			if sel.Sel.Name == "Match" {
				pkg = "bytes"
			}
			var fix string
			switch {
			case pat.class && r != nil:
				fix = fmt.Sprintf("test the rune %s against the class (a comparison or a switch on its ranges%s)", oneLine(types.ExprString(r)), classFunc(pat.text))
			case pat.class:
				fix = fmt.Sprintf("%s.ContainsFunc(%s, f) with f the class's test%s", pkg, in, classFunc(pat.text))
			default:
				fn := pkg + ".HasPrefix"
				if pat.suffix {
					fn = pkg + ".HasSuffix"
				}
				var calls []string
				for _, w := range pat.words {
					calls = append(calls, fmt.Sprintf("%s(%s, %s)", fn, in, strconv.Quote(w)))
				}
				fix = strings.Join(calls, " || ")
			}
			uses = append(uses, use{call, re, pat, fix, pat.class && r != nil})
		})
		if len(uses) == 0 {
			return
		}
		first := uses[0]
		what := "one character class"
		if !first.pat.class {
			what = "fixed strings at the input's end"
			if !first.pat.suffix {
				what = "fixed strings at the input's start"
			}
		}
		d := analysis.Diagnostic{
			Category: "regexp-class",
			Pos:      first.call.Pos(),
			Message: fmt.Sprintf("%s runs %s, %s, %s, to test %s: the regexp engine runs on every call for what a comparison answers",
				fd.Name.Name, first.re.Name(), strconv.Quote(first.pat.text), what, oneLine(types.ExprString(first.call.Args[0]))),
		}
		fixes := []string{first.fix}
		seen := map[*types.Var]bool{first.re: true}
		runes := first.rune
		for _, u := range uses[1:] {
			runes = runes || u.rune
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: u.call.Pos(), Message: "another regexp test: " + u.re.Name()})
			if !seen[u.re] {
				seen[u.re] = true
				fixes = append(fixes, fmt.Sprintf("%s (line %d): %s", u.re.Name(), pass.Fset.Position(u.call.Pos()).Line, u.fix))
			}
		}
		if len(d.Related) > 0 {
			d.Message += fmt.Sprintf("; it runs %d more such tests (lines %s)", len(d.Related), relatedLines(pass, d.Related))
		}
		advice := "in place of " + first.re.Name() + "." + first.call.Fun.(*ast.SelectorExpr).Sel.Name + ": " + strings.Join(fixes, "; ")
		if runes {
			advice += " — and the string made from the rune is not needed"
		}
		d.SuggestedFixes = []analysis.SuggestedFix{{Message: advice}}
		pass.Report(d)
	})
	return nil, nil
}

// relatedLines lists the lines of related positions: "745, 746, 747".
func relatedLines(pass *analysis.Pass, rel []analysis.RelatedInformation) string {
	var lines []string
	last := 0
	for _, r := range rel {
		if l := pass.Fset.Position(r.Pos).Line; l != last {
			lines, last = append(lines, strconv.Itoa(l)), l
		}
	}
	return strings.Join(lines, ", ")
}

// runeConversion returns r when e is string(r) of a rune (not a constant).
func runeConversion(pass *analysis.Pass, e ast.Expr) ast.Expr {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 1 || !isConversion(pass, c) {
		return nil
	}
	if !isString(pass.TypesInfo.TypeOf(c)) {
		return nil
	}
	tv := pass.TypesInfo.Types[c.Args[0]]
	if tv.Value != nil {
		return nil
	}
	if b, ok := tv.Type.Underlying().(*types.Basic); ok && b.Kind() == types.Int32 {
		return c.Args[0]
	}
	return nil
}

// classFunc names the library test that is a class, when there is one.
func classFunc(pat string) string {
	switch pat {
	case `\s`:
		return "; \\s is the ASCII spaces \\t \\n \\f \\r and ' ' alone (unicode.IsSpace takes more)"
	case `\d`, `[0-9]`:
		return "; '0' <= r && r <= '9'"
	}
	return ""
}

// testRegexps returns the package-level variables set to
// regexp.MustCompile (or Compile) of a constant pattern that a
// comparison answers.
func testRegexps(pass *analysis.Pass) map[*types.Var]testRegexp {
	out := map[*types.Var]testRegexp{}
	for v, pat := range constRegexps(pass) {
		if t, ok := comparable(pat); ok {
			out[v] = t
		}
	}
	return out
}

// comparable reports whether a pattern is one character class (a match
// anywhere is "holds such a character") or up to four fixed strings
// anchored at one end: a concatenation of literals and optional
// literals between ^ (or \A) and the strings, or the strings and $ (\z).
func comparable(pat string) (testRegexp, bool) {
	re, err := syntax.Parse(pat, syntax.Perl)
	if err != nil {
		return testRegexp{}, false
	}
	re = re.Simplify()
	if re.Op == syntax.OpCharClass || re.Op == syntax.OpLiteral && len(re.Rune) == 1 {
		return testRegexp{text: pat, class: true}, true
	}
	if re.Op != syntax.OpConcat || len(re.Sub) < 2 {
		return testRegexp{}, false
	}
	subs := re.Sub
	t := testRegexp{text: pat}
	switch first, last := subs[0].Op, subs[len(subs)-1].Op; {
	case last == syntax.OpEndText && first != syntax.OpBeginText && first != syntax.OpBeginLine:
		t.suffix, subs = true, subs[:len(subs)-1]
	case first == syntax.OpBeginText && last != syntax.OpEndText && last != syntax.OpEndLine:
		subs = subs[1:]
	default:
		return testRegexp{}, false
	}
	words := []string{""}
	for _, s := range subs {
		switch {
		case s.Op == syntax.OpLiteral && s.Flags&syntax.FoldCase == 0:
			for i := range words {
				words[i] += string(s.Rune)
			}
		case s.Op == syntax.OpQuest && s.Sub[0].Op == syntax.OpLiteral && s.Sub[0].Flags&syntax.FoldCase == 0:
			n := len(words)
			for i := range n {
				words = append(words, words[i]+string(s.Sub[0].Rune))
			}
		default:
			return testRegexp{}, false
		}
		if len(words) > 4 {
			return testRegexp{}, false
		}
	}
	if words[0] == "" && len(words) == 1 {
		return testRegexp{}, false
	}
	for _, w := range words {
		if w == "" {
			return testRegexp{}, false // an empty word matches everything
		}
	}
	t.words = words
	return t, true
}
