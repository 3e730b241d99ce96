package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// RegexpAcross finds a compiled regexp kept in a struct field that one
// function runs to answer whether it matches (MatchString) and another
// runs again on the same input to find what matched
// (FindStringSubmatchIndex): a router's path matcher and the code that
// extracts the route's variables. The regexp is compiled once; the cost
// is the second scan, which RegexpTwice cannot see because the two calls
// are in two functions.
//
// The same regexp is the same field of one struct type; the same input
// is an expression of one type and text that, when it is a local
// variable, each function builds from the same expressions (path :=
// req.URL.Path in both). A variable of the same name built otherwise
// is another input.
var RegexpAcross = &analysis.Analyzer{
	Name: "regexpacross",
	Doc:  "a regexp field run by one function to test a match and by another to find it again, on the same input",
	Run:  runRegexpAcross,
}

// fieldCall is a scanning call of a regexp held in a struct field.
type fieldCall struct {
	fn     string // the enclosing function, as profiles name it without the package
	method string
	input  string // the input's text
	key    string // the input's type, text and how the function builds it
	pos    token.Pos
}

func runRegexpAcross(pass *analysis.Pass) (any, error) {
	byField := map[*types.Var][]fieldCall{}
	var order []*types.Var
	for _, file := range pass.Files {
		if isTest(pass, file) {
			continue
		}
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			name := declName(fd)
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				c, sel := regexpScan(pass, n)
				if c == nil {
					return true
				}
				field := fieldOf(pass, sel.X)
				if field == nil {
					return true
				}
				if byField[field] == nil {
					order = append(order, field)
				}
				in := types.ExprString(c.Args[0])
				byField[field] = append(byField[field], fieldCall{name, sel.Sel.Name, in, inputKey(pass, fd.Body, c.Args[0]), c.Pos()})
				return true
			})
		}
	}
	for _, field := range order {
		calls := byField[field]
		reported := map[string]bool{}
		for _, test := range calls {
			if !answersMatch(test.method) || reported[test.key] {
				continue
			}
			var again []fieldCall
			for _, c := range calls {
				if c.fn != test.fn && c.key == test.key && !answersMatch(c.method) {
					again = append(again, c)
				}
			}
			if len(again) == 0 {
				continue
			}
			reported[test.key] = true
			second := again[0]
			at := pass.Fset.Position(second.pos)
			d := analysis.Diagnostic{
				Category: "regexp-twice",
				Pos:      test.pos,
				Message: fmt.Sprintf("the regexp in %s runs twice on %s: %s in %s here, then %s in %s at %s:%d scans it again for what the first call found (the regexp is compiled once; the second scan is the cost)",
					fieldName(field), test.input, test.method, test.fn, second.method, second.fn, baseName(at.Filename), at.Line),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"run it once per match and keep the submatch indexes: call %s where %s answers now (a nil result means no match) and keep its result with the match, so that %s reads it instead of scanning %s again",
					second.method, test.method, second.fn, test.input)}},
			}
			for _, c := range again {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: c.pos, Message: "the same regexp on the same input again: " + c.method})
			}
			pass.Report(d)
			// The second scan is a site of the cost as much as the
			// first: a profile may charge either line, so each says it.
			first := pass.Fset.Position(test.pos)
			for _, c := range again {
				pass.Report(analysis.Diagnostic{
					Category: "regexp-twice",
					Pos:      c.pos,
					Message: fmt.Sprintf("the regexp in %s runs twice on %s: %s in %s here scans it again after %s in %s at %s:%d answered whether it matches (the regexp is compiled once; the second scan is the cost)",
						fieldName(field), test.input, c.method, c.fn, test.method, test.fn, baseName(first.Filename), first.Line),
					SuggestedFixes: d.SuggestedFixes,
					Related:        []analysis.RelatedInformation{{Pos: test.pos, Message: "the first scan: " + test.method}},
				})
			}
		}
	}
	return nil, nil
}

// inputKey says what an input is, so that two functions' inputs compare:
// its type and text and, for a local variable, the text of every value
// the function assigns to it, in order ("string path := req.URL.Path;
// = req.URL.EscapedPath()"). A parameter or a field is its type and text.
func inputKey(pass *analysis.Pass, body *ast.BlockStmt, e ast.Expr) string {
	key := types.TypeString(pass.TypesInfo.TypeOf(e), nil) + " " + types.ExprString(e)
	addressed := false
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return key
	}
	obj := pass.TypesInfo.ObjectOf(id)
	if obj == nil || obj.Pos() < body.Pos() || obj.Pos() > body.End() {
		return key // a parameter, a package-level variable
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			for i, l := range x.Lhs {
				lid, ok := l.(*ast.Ident)
				if !ok || pass.TypesInfo.ObjectOf(lid) != obj {
					continue
				}
				v := "?" // one value of a multi-value call
				if len(x.Lhs) == len(x.Rhs) {
					v = types.ExprString(x.Rhs[i])
				}
				key += "; " + x.Tok.String() + " " + v
			}
		case *ast.ValueSpec:
			for i, n := range x.Names {
				if pass.TypesInfo.ObjectOf(n) != obj {
					continue
				}
				v := ""
				if len(x.Values) == len(x.Names) {
					v = types.ExprString(x.Values[i])
				}
				key += "; var " + v
			}
		case *ast.RangeStmt:
			for _, l := range []ast.Expr{x.Key, x.Value} {
				if lid, ok := l.(*ast.Ident); ok && pass.TypesInfo.ObjectOf(lid) == obj {
					key += "; range " + types.ExprString(x.X)
				}
			}
		case *ast.UnaryExpr:
			if lid, ok := x.X.(*ast.Ident); ok && x.Op == token.AND && pass.TypesInfo.ObjectOf(lid) == obj {
				addressed = true
			}
		}
		return true
	})
	if addressed {
		// Its address is taken: anything may set it, so it is no other
		// function's input.
		key += fmt.Sprintf("; &%d", obj.Pos())
	}
	return key
}

// identity is an expression's text and the variables it names, so that
// two expressions of one text in two scopes (a shadowed s) differ.
func identity(pass *analysis.Pass, e ast.Expr) string {
	key := types.ExprString(e)
	for _, v := range varsOf(pass, e) {
		key += fmt.Sprintf(" %d", v.Pos())
	}
	return key
}

// varsOf lists the variables an expression reads.
func varsOf(pass *analysis.Pass, e ast.Expr) []*types.Var {
	var out []*types.Var
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := pass.TypesInfo.Uses[id].(*types.Var); ok {
				out = append(out, v)
			}
		}
		return true
	})
	return out
}

// assignedBetween reports whether the body assigns to one of the
// variables (or takes its address, or calls a method through a pointer
// to it) between two positions: then a second call on them is not a
// second call on the same values.
func assignedBetween(pass *analysis.Pass, body ast.Node, vars []*types.Var, from, to token.Pos) bool {
	set := map[types.Object]bool{}
	for _, v := range vars {
		set[v] = true
	}
	root := func(e ast.Expr) types.Object {
		for {
			switch x := ast.Unparen(e).(type) {
			case *ast.Ident:
				return pass.TypesInfo.ObjectOf(x)
			case *ast.SelectorExpr:
				e = x.X
			case *ast.IndexExpr:
				e = x.X
			case *ast.StarExpr:
				e = x.X
			default:
				return nil
			}
		}
	}
	// An assignment takes effect when its statement ends: between the
	// calls when its end is.
	between := func(p token.Pos) bool { return p > from && p <= to }
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil || n.End() <= from || n.Pos() >= to {
			return false
		}
		switch x := n.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				if between(x.End()) && set[root(l)] {
					found = true
				}
			}
		case *ast.IncDecStmt:
			found = between(x.End()) && set[root(x.X)]
		case *ast.UnaryExpr:
			found = x.Op == token.AND && between(x.Pos()) && set[root(x.X)]
		case *ast.RangeStmt:
			for _, l := range []ast.Expr{x.Key, x.Value} {
				if l != nil && between(x.X.End()) && set[root(l)] {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// answersMatch reports whether a regexp method only answers whether the
// input matches.
func answersMatch(method string) bool {
	return method == "Match" || method == "MatchString" || method == "MatchReader"
}

// fieldOf returns the struct field an expression selects (r.regexp,
// v.path.regexp), or nil.
func fieldOf(pass *analysis.Pass, e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s, ok := pass.TypesInfo.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return nil
	}
	v, _ := s.Obj().(*types.Var)
	return v
}

// fieldName names a field by its struct type when the field's position
// says which one it is: "routeRegexp.regexp".
func fieldName(v *types.Var) string {
	if v.Pkg() == nil {
		return v.Name()
	}
	scope := v.Pkg().Scope()
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok {
			continue
		}
		st, ok := tn.Type().Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for i := range st.NumFields() {
			if st.Field(i) == v {
				return tn.Name() + "." + v.Name()
			}
		}
	}
	return v.Name()
}

// declName names a function declaration as a person reads it in a
// profile: "(*routeRegexp).Match", "routeRegexpGroup.setMatch", "parse".
func declName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	return recvName(fd.Recv.List[0].Type) + "." + fd.Name.Name
}

// baseName is a file name without its directory.
func baseName(path string) string {
	return path[strings.LastIndexAny(path, `/\`)+1:]
}
