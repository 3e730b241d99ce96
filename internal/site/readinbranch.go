package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// ReadInBranch finds a local variable set from a call that allocates and
// has no other effect (reflect.Value.Interface, fmt.Sprint*, a string
// built by strings or strconv) on every call of a function, but read only
// inside one later if statement's branch: the calls that do not take the
// branch make it for nothing. gin's mapFormByTag boxes the pointed-to
// value with Interface() — a copy of the whole struct — only to use it
// when the target is a map: MapFormName 1 → 0 allocs/op, −31%, measured
// by hand.
var ReadInBranch = &analysis.Analyzer{
	Name: "readinbranch",
	Doc:  "a value made on every call but read only in one later branch",
	Run:  runReadInBranch,
}

func runReadInBranch(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || !pureAllocating(pass, call) {
				return
			}
			v, _ := objOf(pass, as.Lhs[0]).(*types.Var)
			if v == nil || v.IsField() || v.Pos() < fd.Body.Pos() || v.Pos() > fd.Body.End() {
				return
			}
			branch := onlyReadIn(pass, fd.Body, v, as)
			if branch == nil {
				return
			}
			cond := oneLine(types.ExprString(branch.Cond))
			what := oneLine(types.ExprString(call))
			extra := ""
			if isFunc(pass, call, "reflect", "Value", "Interface") {
				extra = " (Interface copies a value that is not a pointer into a new allocation to box it)"
			}
			pass.Report(analysis.Diagnostic{
				Category: "read-in-branch",
				Pos:      call.Pos(),
				Message: fmt.Sprintf("%s makes %s = %s on every call%s, but reads %s only when %s (line %d): the calls that do not take that branch make it for nothing",
					fd.Name.Name, v.Name(), what, extra, v.Name(), cond, pass.Fset.Position(branch.Pos()).Line),
				Related: []analysis.RelatedInformation{{Pos: branch.Pos(), Message: "the branch that reads it"}},
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"make it inside that branch, where it is read (%s there, from what it is made from); test what the condition needs (a Kind, a length) without it", what)}},
			})
		})
	})
	return nil, nil
}

// pureAllocating reports whether call makes a new value and does nothing
// else: reflect.Value.Interface, fmt.Sprint*, and the string builders of
// strings and strconv.
func pureAllocating(pass *analysis.Pass, call *ast.CallExpr) bool {
	if isFunc(pass, call, "reflect", "Value", "Interface") {
		return true
	}
	fn := calledFunc(pass, call)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() + "." + fn.Name() {
	case "fmt.Sprint", "fmt.Sprintf", "fmt.Sprintln", "strings.Join", "strings.Repeat", "strings.ToLower", "strings.ToUpper",
		"strings.Replace", "strings.ReplaceAll", "strconv.Itoa", "strconv.FormatInt", "strconv.Quote":
		return true
	}
	return false
}

// onlyReadIn returns the if statement after as whose body holds every
// read of v (and v is assigned nowhere else but at as), or nil.
func onlyReadIn(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var, as *ast.AssignStmt) *ast.IfStmt {
	var reads []*ast.Ident
	other := false
	ast.Inspect(body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || pass.TypesInfo.Uses[id] != v {
			return true
		}
		if id.Pos() >= as.Pos() && id.End() <= as.End() {
			return true
		}
		if id.Pos() < as.Pos() {
			other = true // used or declared before: a var set in several places
		}
		reads = append(reads, id)
		return true
	})
	if other || len(reads) == 0 {
		return nil
	}
	var branch *ast.IfStmt
	ast.Inspect(body, func(n ast.Node) bool {
		is, ok := n.(*ast.IfStmt)
		if !ok || branch != nil {
			return branch == nil
		}
		if is.Pos() < as.End() {
			return true // the assignment's own if, or one before it
		}
		for _, r := range reads {
			if r.Pos() < is.Body.Pos() || r.End() > is.Body.End() {
				return true
			}
		}
		branch = is
		return false
	})
	return branch
}
