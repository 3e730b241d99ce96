package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp/syntax"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// CopyChain finds a string passed through a chain of calls that each
// return a new one, reassigned to the same variable (`slug =
// unidecode.Unidecode(slug)`, `slug = strings.ToLower(slug)`, `slug =
// re.ReplaceAllString(slug, "-")`, …): every step builds a whole new
// string, even when it has nothing to change, and only the last one's is
// the value the function returns — the others are copies along the way,
// not a cost of the API.
//
// RegexpClass, beside it, finds a regular expression that is one
// character class, or one character repeated (`[^a-zA-Z0-9-_]`, `-+`),
// used to replace: the regexp engine runs per match and builds a new
// string, where a loop over the bytes does the same in one pass.
var CopyChain = &analysis.Analyzer{
	Name: "copychain",
	Doc:  "a string reassigned through three or more calls that each return a new one; a regexp that is one character class used to replace",
	Run:  runCopyChain,
}

func runCopyChain(pass *analysis.Pass) (any, error) {
	classes := classRegexps(pass)
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		steps := map[*types.Var][]*ast.CallExpr{}
		var order []*types.Var
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			v, _ := objOf(pass, as.Lhs[0]).(*types.Var)
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if v == nil || !ok || !isString(v.Type()) || isConversion(pass, call) || !passes(pass, call, v) {
				return
			}
			if steps[v] == nil {
				order = append(order, v)
			}
			steps[v] = append(steps[v], call)
		})
		for _, v := range order {
			// One step per function called (the cases of a switch
			// that each call it are one step).
			var calls []*ast.CallExpr
			var names []string
			seen := map[string]bool{}
			for _, c := range steps[v] {
				if name := calleeText(pass, c); !seen[name] {
					seen[name] = true
					calls, names = append(calls, c), append(names, name)
				}
			}
			if len(calls) < 3 {
				continue
			}
			var related []analysis.RelatedInformation
			for _, c := range calls {
				related = append(related, analysis.RelatedInformation{Pos: c.Pos(), Message: "a step of the chain"})
			}
			pass.Report(analysis.Diagnostic{
				Category: "copy-chain",
				Pos:      calls[0].Pos(),
				Message: fmt.Sprintf("%s passes %s through %d calls that each return a new string (%s), reassigning it each time: every step builds a whole new string, even when it has nothing to change, and only the last is what %s returns",
					fd.Name.Name, v.Name(), len(calls), list(names, 6), fd.Name.Name),
				Related:        related[1:],
				SuggestedFixes: []analysis.SuggestedFix{{Message: "let each step return its input when it has nothing to change (a scan first: ASCII needs no transliteration, a string with no upper case no lowering), and do the byte-level steps (lowering, replacing characters, collapsing repeats) in one pass that builds the result once"}},
			})
		}
		type classCall struct {
			call *ast.CallExpr
			re   *types.Var
			pat  classRegexp
		}
		var replaces []classCall
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !strings.HasPrefix(sel.Sel.Name, "ReplaceAll") {
				return
			}
			re, _ := objOf(pass, sel.X).(*types.Var)
			if pat, ok := classes[re]; re != nil && ok {
				replaces = append(replaces, classCall{call, re, pat})
			}
		})
		for i, r := range replaces {
			d := analysis.Diagnostic{
				Category: "regexp-class",
				Pos:      r.call.Pos(),
				Message: fmt.Sprintf("%s is %s, %s: %s runs the regexp engine once per match and builds a new string",
					r.re.Name(), strconv.Quote(r.pat.text), r.pat.what, r.call.Fun.(*ast.SelectorExpr).Sel.Name),
			}
			more := r.pat.more
			for _, o := range replaces[i+1:] {
				d.Message += fmt.Sprintf("; %s (%s) at line %d makes another pass over its result", o.re.Name(), strconv.Quote(o.pat.text), pass.Fset.Position(o.call.Pos()).Line)
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: o.call.Pos(), Message: "another pass"})
				more += o.pat.more
			}
			advice := "a loop over the bytes does it in one pass with no regexp: test each byte against the class (a [256]bool table or a switch), write the replacement where it matches" + more + ", and return the input unchanged when nothing matches"
			if len(d.Related) > 0 {
				advice = "one loop over the bytes does every pass with no regexp: test each byte against the class (a [256]bool table or a switch), write the replacement where it matches" + more + ", and return the input unchanged when nothing matches"
			}
			d.SuggestedFixes = []analysis.SuggestedFix{{Message: advice}}
			pass.Report(d)
		}
	})
	return nil, nil
}

// classRegexp is a package-level regexp whose pattern is one character
// class or one character repeated.
type classRegexp struct {
	text, what, more string
}

// classRegexps returns the package-level variables set to
// regexp.MustCompile of a constant pattern that is one character class
// or one repeated character.
func classRegexps(pass *analysis.Pass) map[*types.Var]classRegexp {
	out := map[*types.Var]classRegexp{}
	for v, pat := range constRegexps(pass) {
		if c, ok := oneClass(pat); ok {
			out[v] = c
		}
	}
	return out
}

// constRegexps returns the package-level variables set to
// regexp.MustCompile (or Compile) of a constant pattern, with the pattern.
func constRegexps(pass *analysis.Pass) map[*types.Var]string {
	out := map[*types.Var]string{}
	eachPackageVar(pass, func(v *types.Var, value ast.Expr) {
		call, ok := ast.Unparen(value).(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || !isFunc(pass, call, "regexp", "", "MustCompile") && !isFunc(pass, call, "regexp", "", "Compile") {
			return
		}
		if tv := pass.TypesInfo.Types[call.Args[0]]; tv.Value != nil {
			out[v], _ = strconv.Unquote(tv.Value.ExactString())
		}
	})
	return out
}

// oneClass reports whether a pattern is one character class or one
// literal character, possibly repeated (+ or *), and says which.
func oneClass(pat string) (classRegexp, bool) {
	re, err := syntax.Parse(pat, syntax.Perl)
	if err != nil {
		return classRegexp{}, false
	}
	re = re.Simplify()
	c := classRegexp{text: pat}
	repeat := false
	if re.Op == syntax.OpPlus || re.Op == syntax.OpStar {
		repeat = true
		re = re.Sub[0]
	}
	switch {
	case re.Op == syntax.OpCharClass:
		c.what = "one character class"
	case re.Op == syntax.OpLiteral && len(re.Rune) == 1:
		c.what = "one character"
	default:
		return classRegexp{}, false
	}
	if repeat {
		c.what += ", repeated"
		c.more = ", once for each run of it (skip a character that repeats the one before)"
	}
	return c, true
}

// passes reports whether call takes v among its arguments (f(v, …)).
func passes(pass *analysis.Pass, call *ast.CallExpr, v *types.Var) bool {
	for _, a := range call.Args {
		if objOf(pass, a) == v {
			return true
		}
	}
	return false
}

// calleeText names a call's function as its source does
// (strings.ToLower, re.ReplaceAllString).
func calleeText(pass *analysis.Pass, call *ast.CallExpr) string {
	return oneLine(types.ExprString(call.Fun))
}
