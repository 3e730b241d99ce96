package site

import (
	"fmt"
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"
)

// Defers finds the defers the compiler does not open-code. An open-coded
// defer costs about a direct call at each exit; any other one is recorded
// in the runtime on every call (runtime.deferprocStack, on the heap in a
// loop) and run through runtime.deferreturn at the function's exit. The
// compiler open-codes a function's defers only when none is in a loop,
// there are at most 8, and its return statements times its defers are at
// most 15 (cmd/compile's rule; go build -gcflags=-d=defer prints its
// verdict at each defer). The shape ("defer-not-open-coded") is at the
// function's closing brace, where the profile puts runtime.deferreturn;
// its related line is the defer's.
var Defers = &analysis.Analyzer{
	Name: "defers",
	Doc:  "a defer the compiler does not open-code, paid through the runtime on every call",
	Run:  runDefers,
}

// maxOpenDefers and maxReturnsTimesDefers are cmd/compile's limits for
// open-coded defers.
const (
	maxOpenDefers         = 8
	maxReturnsTimesDefers = 15
)

func runDefers(pass *analysis.Pass) (any, error) {
	for _, f := range pass.Files {
		if isTest(pass, f) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch fn := n.(type) {
			case *ast.FuncDecl:
				if fn.Body != nil {
					checkDefers(pass, fn.Name.Name, fn.Body)
				}
			case *ast.FuncLit:
				checkDefers(pass, "the func literal", fn.Body)
			}
			return true
		})
	}
	return nil, nil
}

// checkDefers reports the defers of one function body (not of the func
// literals in it, which are functions of their own) that the compiler
// does not open-code.
func checkDefers(pass *analysis.Pass, name string, body *ast.BlockStmt) {
	type deferAt struct {
		d      *ast.DeferStmt
		inLoop bool
		label  string // the label a goto jumps back to, before the defer
		gotoAt token.Pos
	}
	var defers []deferAt
	returns := 0
	var walk func(n ast.Node, loop bool)
	walk = func(n ast.Node, loop bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch x := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt:
				if m != n {
					walk(x.Body, true)
					return false
				}
			case *ast.RangeStmt:
				if m != n {
					walk(x.Body, true)
					return false
				}
			case *ast.DeferStmt:
				defers = append(defers, deferAt{d: x, inLoop: loop})
				return false
			case *ast.ReturnStmt:
				returns++
			}
			return true
		})
	}
	walk(body, false)
	if len(defers) == 0 {
		return
	}
	// A goto back to a label before it makes the label a loop's head (a
	// scanner's `goto start`): the compiler's escape analysis counts
	// every statement after such a label as in a loop, a defer too.
	labels := map[string]token.Pos{}
	type backward struct {
		label    string
		at, from token.Pos
	}
	var back []backward
	inspectBody(body, func(n ast.Node) {
		switch s := n.(type) {
		case *ast.LabeledStmt:
			labels[s.Label.Name] = s.Pos()
		case *ast.BranchStmt:
			if s.Tok == token.GOTO && s.Label != nil {
				if p, ok := labels[s.Label.Name]; ok && p < s.Pos() {
					back = append(back, backward{s.Label.Name, p, s.Pos()})
				}
			}
		}
	})
	for i := range defers {
		for _, b := range back {
			if b.at < defers[i].d.Pos() && !defers[i].inLoop {
				defers[i].inLoop, defers[i].label, defers[i].gotoAt = true, b.label, b.from
			}
		}
	}
	end := pass.Fset.Position(body.Rbrace).Line
	report := func(d *ast.DeferStmt, why, advice string) {
		pass.Report(analysis.Diagnostic{
			Category:       "defer-not-open-coded",
			Pos:            body.Rbrace,
			Message:        fmt.Sprintf("the defer at line %d is not open-coded: %s, so every call records it in the runtime and runs it through runtime.deferreturn at line %d", pass.Fset.Position(d.Pos()).Line, why, end),
			Related:        []analysis.RelatedInformation{{Pos: d.Pos(), Message: "the defer"}},
			SuggestedFixes: []analysis.SuggestedFix{{Message: advice}},
		})
	}
	for _, d := range defers {
		if d.inLoop && d.label != "" {
			report(d.d, fmt.Sprintf("it follows the label %s, which the goto at line %d jumps back to: the compiler counts it as in a loop, and allocates its record and closure on the heap", d.label, pass.Fset.Position(d.gotoAt).Line),
				"move the code from the defer on into a function of its own with the defer in it, called here (no label before it there): the defer is open-coded and allocates nothing")
			return
		}
		if d.inLoop {
			report(d.d, "it is in a loop (one record per iteration, all run at the function's exit)",
				"run the deferred call at the end of each iteration, or move the iteration's body into a function with its own defer")
			return
		}
	}
	switch n := len(defers); {
	case n > maxOpenDefers:
		report(defers[0].d, fmt.Sprintf("%s has %d defers (the compiler open-codes at most %d)", name, n, maxOpenDefers),
			"release the resources explicitly at the exits, or split the function so that each part has fewer defers")
	case returns*n > maxReturnsTimesDefers:
		report(defers[0].d, fmt.Sprintf("%s has %d return statements and %d defer%s (the compiler open-codes defers only when returns × defers ≤ %d)", name, returns, n, plural(n), maxReturnsTimesDefers),
			fmt.Sprintf("move the body with its returns into a function of its own and do the deferred work after calling it (one exit), or cut the return statements to %d or fewer", maxReturnsTimesDefers/n))
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
