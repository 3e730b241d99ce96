package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ChainWalk finds a walk along a chain of pointers (for n := x.Parent;
// n != nil; n = n.Parent) in a function the package calls once per pair
// of elements: inside two loops, or inside one loop of a function that
// is itself called in a loop or from a callback. Each call walks the
// chain again from its start, so the same links are followed once per
// pair: n·m·depth steps where a set of one side, built once, makes each
// chain walked once. goquery's nodeContains walks a node's ancestors to
// find a container; HasNodes calls it for every pair of the selection's
// nodes and the candidates, FindNodes (through sliceContains) for every
// candidate and container: an ancestor set built once, −85…−92% and
// −59…−91%, measured by hand.
var ChainWalk = &analysis.Analyzer{
	Name: "chainwalk",
	Doc:  "a walk along a pointer chain, called once per pair of elements",
	Run:  runChainWalk,
}

func runChainWalk(pass *analysis.Pass) (any, error) {
	walks := map[*types.Func]*ast.ForStmt{}
	var order []*types.Func // in the order the files declare them
	decls := map[*types.Func]*ast.FuncDecl{}
	for fd := range funcDecls(pass) {
		fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if fn == nil {
			continue
		}
		order = append(order, fn)
		decls[fn] = fd
		inspectBody(fd.Body, func(n ast.Node) {
			if fs, ok := n.(*ast.ForStmt); ok && walks[fn] == nil && chainLoop(pass, fs) != "" {
				walks[fn] = fs
			}
		})
	}
	if len(walks) == 0 {
		return nil, nil
	}
	// Where each function is called: its call sites, with the number of
	// loops around each in its function, and whether it is in a callback.
	type site struct {
		call     *ast.CallExpr
		in       *types.Func
		loops    int
		callback bool
	}
	calls := map[*types.Func][]site{}
	for _, fn := range order {
		fd := decls[fn]
		var stack []ast.Node
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			callee := calledFunc(pass, call)
			if callee == nil {
				return true
			}
			s := site{call: call, in: fn}
			for _, p := range stack[:len(stack)-1] {
				switch p.(type) {
				case *ast.ForStmt, *ast.RangeStmt:
					s.loops++
				case *ast.FuncLit:
					s.callback = true
				}
			}
			calls[callee] = append(calls[callee], s)
			return true
		})
	}
	perElement := func(fn *types.Func) bool {
		for _, s := range calls[fn] {
			if s.loops > 0 || s.callback {
				return true
			}
		}
		return false
	}
	for _, fn := range order {
		loop := walks[fn]
		if loop == nil {
			continue
		}
		var pairs []site
		for _, s := range calls[fn] {
			if s.in == fn {
				// A walk that recurses into each link (a tree's
				// traversal, children by NextSibling) visits each
				// link once: not a pair.
				pairs = nil
				break
			}
			if s.loops >= 2 || s.loops == 1 && (s.callback || perElement(s.in)) {
				pairs = append(pairs, s)
			}
		}
		if len(pairs) == 0 {
			continue
		}
		link := chainLoop(pass, loop)
		var by []string
		var related []analysis.RelatedInformation
		for _, s := range pairs {
			p := pass.Fset.Position(s.call.Pos())
			what := "in two nested loops"
			if s.loops == 1 {
				what = "in a loop, itself run per element"
			}
			by = append(by, fmt.Sprintf("%s calls it %s (line %d)", s.in.Name(), what, p.Line))
			related = append(related, analysis.RelatedInformation{Pos: s.call.Pos(), Message: "called per pair"})
			if len(by) == 3 {
				break
			}
		}
		pass.Report(analysis.Diagnostic{
			Category: "chain-walk-per-pair",
			Pos:      loop.Pos(),
			Related:  related,
			Message: fmt.Sprintf("%s walks a chain of pointers (%s) from its start on every call, one step per link; %s: the same links are followed again for every pair, n·m·depth steps",
				fn.Name(), link, strings.Join(by, "; ")),
			SuggestedFixes: []analysis.SuggestedFix{{Message: "walk each chain once: before the loops, put the elements of one side in a set (a map of pointers), then walk each chain of the other side once, looking each link up in the set and stopping at a link already seen: about (n+m)·depth steps instead of n·m·depth; a map costs an allocation, so keep the pairwise walk for a few elements"}},
		})
	}
	return nil, nil
}

// chainLoop returns "n = n.Parent" for a loop that follows a pointer
// chain: its condition tests a variable against nil and its post
// statement sets it to a field of itself of its own type; "" otherwise.
func chainLoop(pass *analysis.Pass, fs *ast.ForStmt) string {
	post, ok := fs.Post.(*ast.AssignStmt)
	if !ok || post.Tok != token.ASSIGN || len(post.Lhs) != 1 || len(post.Rhs) != 1 {
		return ""
	}
	v := objOf(pass, post.Lhs[0])
	sel, ok := ast.Unparen(post.Rhs[0]).(*ast.SelectorExpr)
	if v == nil || !ok || objOf(pass, sel.X) != v || fieldOf(pass, sel) == nil {
		return ""
	}
	if _, ok := v.Type().Underlying().(*types.Pointer); !ok || !types.Identical(v.Type(), pass.TypesInfo.TypeOf(sel)) {
		return ""
	}
	cond, ok := ast.Unparen(fs.Cond).(*ast.BinaryExpr)
	if !ok || cond.Op != token.NEQ {
		return ""
	}
	if !(objOf(pass, cond.X) == v && isNil(pass, cond.Y) || objOf(pass, cond.Y) == v && isNil(pass, cond.X)) {
		return ""
	}
	return fmt.Sprintf("%s = %s", v.Name(), types.ExprString(sel))
}
