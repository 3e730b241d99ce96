package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// RegexpTwice finds one compiled regexp run twice on the same input in one
// function: a MatchString that guards a FindStringSubmatch, say. The
// second call scans the input again for what the first found.
var RegexpTwice = &analysis.Analyzer{
	Name: "regexptwice",
	Doc:  "the same *regexp.Regexp run twice on the same input in one function",
	Run:  runRegexpTwice,
}

// regexpMatch are the methods of *regexp.Regexp that scan an input.
var regexpMatch = map[string]bool{
	"Match": true, "MatchString": true, "MatchReader": true,
	"Find": true, "FindString": true, "FindIndex": true, "FindStringIndex": true,
	"FindSubmatch": true, "FindStringSubmatch": true, "FindSubmatchIndex": true, "FindStringSubmatchIndex": true,
	"FindAll": true, "FindAllString": true, "FindAllIndex": true, "FindAllStringIndex": true,
	"FindAllSubmatch": true, "FindAllStringSubmatch": true, "FindAllSubmatchIndex": true, "FindAllStringSubmatchIndex": true,
	"FindReaderIndex": true, "FindReaderSubmatchIndex": true,
}

func runRegexpTwice(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		byInput := map[string][]reCall{}
		var order []string
		ast.Inspect(body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			c, sel := regexpScan(pass, n)
			if c == nil {
				return true
			}
			k := identity(pass, sel.X) + "\x00" + identity(pass, c.Args[0])
			if byInput[k] == nil {
				order = append(order, k)
			}
			vars := append(varsOf(pass, sel.X), varsOf(pass, c.Args[0])...)
			byInput[k] = append(byInput[k], reCall{sel.Sel.Name, c.Pos(), types.ExprString(sel.X), types.ExprString(c.Args[0]), vars})
			return true
		})
		for _, k := range order {
			calls := byInput[k]
			// The same values: nothing assigns to the regexp's or the
			// input's variables between the first call and the next.
			for len(calls) >= 2 && assignedBetween(pass, body, calls[0].vars, calls[0].pos, calls[1].pos) {
				calls = calls[1:]
			}
			if len(calls) < 2 {
				continue
			}
			n := 2
			for n < len(calls) && !assignedBetween(pass, body, calls[0].vars, calls[0].pos, calls[n].pos) {
				n++
			}
			calls = calls[:n]
			re, in := calls[0].re, calls[0].in
			first, second := calls[0], calls[1]
			d := analysis.Diagnostic{
				Category: "regexp-twice",
				Pos:      first.pos,
				Message:  fmt.Sprintf("the regexp %s runs twice on %s: %s here, %s at line %d", re, in, first.method, second.method, pass.Fset.Position(second.pos).Line),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"run it once and keep the result: %s's submatches (nil when there is no match) answer %s as well", widest(calls), first.method)}},
			}
			for _, c := range calls[1:] {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: c.pos, Message: "the same regexp on the same input: " + c.method})
			}
			pass.Report(d)
		}
	})
	return nil, nil
}

// regexpScan returns n as a call of a *regexp.Regexp's scanning method
// (regexpMatch) with its input, and the method's selector; nil when n is
// not one.
func regexpScan(pass *analysis.Pass, n ast.Node) (*ast.CallExpr, *ast.SelectorExpr) {
	c, ok := n.(*ast.CallExpr)
	if !ok || len(c.Args) == 0 {
		return nil, nil
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil, nil
	}
	t := pass.TypesInfo.TypeOf(sel.X)
	switch {
	case regexpMatch[sel.Sel.Name] && isNamed(t, "regexp", "Regexp"):
	case otherRegexp(t) && (strings.HasPrefix(sel.Sel.Name, "Find") || strings.HasPrefix(sel.Sel.Name, "Match")):
		// Another engine's matcher (regexp2's FindStringMatch,
		// FindRunesMatchStartingAt, MatchString).
	default:
		return nil, nil
	}
	return c, sel
}

// otherRegexp reports whether t is another regexp engine's compiled
// pattern: a type named Regexp in a package named regexp-something
// (github.com/dlclark/regexp2, github.com/grafana/regexp) or re2.
func otherRegexp(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Name() != "Regexp" || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() == "regexp" {
		return false
	}
	name := n.Obj().Pkg().Name()
	return strings.HasPrefix(name, "regexp") || name == "re2"
}

// reCall is one call of a regexp's scanning method.
type reCall struct {
	method string
	pos    token.Pos
	re, in string       // the regexp's and the input's text
	vars   []*types.Var // the variables they read
}

// widest is the call among calls that finds the most: submatches over
// indexes over a match.
func widest(calls []reCall) string {
	best, rank := calls[0].method, -1
	for _, c := range calls {
		r := 0
		switch {
		case strings.Contains(c.method, "Submatch"):
			r = 3
		case strings.Contains(c.method, "Index"):
			r = 2
		case strings.HasPrefix(c.method, "Find"):
			r = 1
		}
		if r > rank {
			best, rank = c.method, r
		}
	}
	return best
}

// RLockRead finds an RWMutex read lock held around a read that calls
// nothing: the lock's two atomic writes to the reader count are then
// most of the read's cost, and with readers on several cores the count's
// cache line moves between them on every call.
var RLockRead = &analysis.Analyzer{
	Name: "rlockread",
	Doc:  "an RWMutex read lock around a read that calls nothing",
	Run:  runRLockRead,
}

func runRLockRead(pass *analysis.Pass) (any, error) {
	eachBlock(pass, func(list []ast.Stmt) {
		for i, st := range list {
			recv, ok := lockStmt(pass, st, "RLock")
			if !ok {
				continue
			}
			// The statements until the RUnlock of the same receiver
			// (or, after a deferred RUnlock, the rest of the block).
			var held []ast.Stmt
			end := -1
			for j := i + 1; j < len(list); j++ {
				if r, ok := lockStmt(pass, list[j], "RUnlock"); ok && r == recv {
					end = j
					break
				}
				if r, ok := deferredUnlock(pass, list[j]); ok && r == recv {
					end = len(list) - 1
					held = append(held, list[j+1:]...)
					break
				}
				held = append(held, list[j])
			}
			if end < 0 || len(held) == 0 || len(held) > 3 || callsAnything(pass, held) {
				continue
			}
			pass.Report(analysis.Diagnostic{
				Category:       "rlock-read",
				Pos:            st.Pos(),
				Message:        fmt.Sprintf("%s.RLock() guards a read that calls nothing (%s): the lock's two writes to the RWMutex's reader count cost as much as the read, and with readers on several cores that count's cache line moves between them on every call", recv, oneLine(nodeText(pass, stmtExpr(held[0])))),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "for read-mostly data, publish an immutable snapshot behind an atomic.Pointer (writers copy, change and Store it; readers Load it without a lock), or use sync.Map for keys written once and read often: either takes the shared reader count off the read path"}},
			})
		}
	})
	return nil, nil
}

// UnbufferedWrite finds writes to an *os.File (os.Stdout, a created file)
// in a loop: an *os.File is not buffered, so every Fprintln is a system
// call.
var UnbufferedWrite = &analysis.Analyzer{
	Name: "unbufferedwrite",
	Doc:  "writes to an *os.File in a loop, one system call each",
	Run:  runUnbufferedWrite,
}

func runUnbufferedWrite(pass *analysis.Pass) (any, error) {
	eachLoop(pass, func(body *ast.BlockStmt) {
		reported := false
		ast.Inspect(body, func(n ast.Node) bool {
			if reported {
				return false
			}
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			dst := fileWritten(pass, c)
			if dst == "" {
				return true
			}
			reported = true // one report per loop: the first write
			pass.Report(analysis.Diagnostic{
				Category: "unbuffered-write",
				Pos:      c.Pos(),
				Message:  fmt.Sprintf("%s writes to %s in a loop: an *os.File is not buffered, so every write is a system call", types.ExprString(c.Fun), dst),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"buffer it: w := bufio.NewWriter(%s) before the loop, write to w in it, and w.Flush() after it and on every return path (before an os.Exit too)", dst)}},
			})
			return false
		})
	})
	return nil, nil
}

// fileWritten returns the *os.File a call writes to (fmt.Fprint* to it,
// or its Write and WriteString methods), or "".
func fileWritten(pass *analysis.Pass, c *ast.CallExpr) string {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if fn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "fmt" && strings.HasPrefix(fn.Name(), "Fprint") && len(c.Args) > 0 {
		if isFile(pass.TypesInfo.TypeOf(c.Args[0])) {
			return types.ExprString(c.Args[0])
		}
		return ""
	}
	if (sel.Sel.Name == "Write" || sel.Sel.Name == "WriteString") && isFile(pass.TypesInfo.TypeOf(sel.X)) {
		return types.ExprString(sel.X)
	}
	return ""
}

// madeForEffect reports whether a call of fn is made for what it does,
// not for a value to keep: it returns only an error, or it writes
// (Write…, Flush, Close).
func madeForEffect(fn *types.Func) bool {
	if strings.HasPrefix(fn.Name(), "Write") || fn.Name() == "Flush" || fn.Name() == "Close" {
		return true
	}
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Results().Len() == 1 && isError(sig.Results().At(0).Type())
}

func isFile(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	return ok && isNamed(p.Elem(), "os", "File")
}

// SameCall finds one function making the same call, with the same
// arguments, on two lines, using the result each time: the second does
// the work again.
var SameCall = &analysis.Analyzer{
	Name: "samecall",
	Doc:  "the same call with the same arguments on two lines of one function, its result used each time",
	Run:  runSameCall,
}

func runSameCall(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		byText := map[string][]*ast.CallExpr{}
		var order []string
		parents := map[ast.Node]ast.Node{}
		var stack []ast.Node
		ast.Inspect(body, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if len(stack) > 0 {
				parents[n] = stack[len(stack)-1]
			}
			stack = append(stack, n)
			if _, ok := n.(*ast.FuncLit); ok {
				stack = stack[:len(stack)-1]
				return false
			}
			c, ok := n.(*ast.CallExpr)
			if !ok || !pureArgs(c.Args) {
				return true
			}
			fn, ok := pass.TypesInfo.Uses[calleeIdent(c)].(*types.Func)
			if !ok {
				return true // a builtin, a conversion, a func value
			}
			if madeForEffect(fn) {
				return true // err = dst.WriteByte('"') at the start and at the end: two writes
			}
			// The same text of the same variables: a shadowing
			// variable of the same name is another value.
			k := identity(pass, c)
			if byText[k] == nil {
				order = append(order, k)
			}
			byText[k] = append(byText[k], c)
			return true
		})
		for _, k := range order {
			calls := byText[k]
			var used []*ast.CallExpr
			lines := map[int]bool{}
			for _, c := range calls {
				if _, stmt := parents[c].(*ast.ExprStmt); stmt {
					continue // called for its effect
				}
				if l := pass.Fset.Position(c.Pos()).Line; !lines[l] {
					lines[l] = true
					used = append(used, c)
				}
			}
			// A call on another branch (the other arm of an if or a
			// switch) or after its variables are assigned is not the
			// first call again.
			if len(used) < 2 {
				continue
			}
			same := []*ast.CallExpr{used[0]}
			for _, c := range used[1:] {
				if !exclusive(parents, used[0], c) && !assignedBetween(pass, body, varsOf(pass, c), used[0].End(), c.Pos()) {
					same = append(same, c)
				}
			}
			used = same
			if len(used) < 2 {
				continue
			}
			text := types.ExprString(used[0])
			d := analysis.Diagnostic{
				Category:       "same-call-repeated",
				Pos:            used[0].Pos(),
				Message:        fmt.Sprintf("%s is called on %d lines with the same arguments, its result used each time", oneLine(text), len(used)),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("call it once and keep the result: r := %s, then use r", oneLine(text))}},
			}
			for _, c := range used[1:] {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: c.Pos(), Message: "the same call again"})
			}
			pass.Report(d)
		}
	})
	return nil, nil
}

// exclusive reports whether two nodes are on branches of which one run
// takes only one: the body and the else of an if, two clauses of a
// switch or a select.
func exclusive(parents map[ast.Node]ast.Node, a, b ast.Node) bool {
	// a's ancestors, each with the child on a's path.
	onPath := map[ast.Node]ast.Node{}
	for n := a; n != nil; n = parents[n] {
		if p := parents[n]; p != nil {
			onPath[p] = n
		}
	}
	child := b
	for n := parents[b]; n != nil; child, n = n, parents[n] {
		ca, ok := onPath[n]
		if !ok {
			continue
		}
		switch x := n.(type) {
		case *ast.IfStmt:
			return x.Else != nil && (ca == x.Body && child == x.Else || ca == x.Else && child == x.Body)
		case *ast.BlockStmt:
			_, c1 := ca.(*ast.CaseClause)
			_, c2 := ca.(*ast.CommClause)
			if is, ok := ca.(*ast.IfStmt); ok && ca.Pos() < child.Pos() {
				// if … { a; return } b: a run that takes the
				// branch leaves before b.
				return onPath[is] == is.Body && terminates(is.Body.List)
			}
			return (c1 || c2) && ca != child
		}
		return false
	}
	return false
}

// pureArgs reports whether call arguments read values without calling
// anything: the same text then means the same values, unless something
// between the calls assigns them.
func pureArgs(args []ast.Expr) bool {
	for _, a := range args {
		pure := true
		ast.Inspect(a, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.CallExpr, *ast.FuncLit, *ast.UnaryExpr:
				pure = false
			}
			return pure
		})
		if !pure {
			return false
		}
	}
	return true
}

func calleeIdent(c *ast.CallExpr) *ast.Ident {
	switch f := ast.Unparen(c.Fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}

// SortSlice finds sort.Slice and sort.SliceStable, which swap through
// reflection and call the comparison through a closure of indexes.
var SortSlice = &analysis.Analyzer{
	Name: "sortslice",
	Doc:  "sort.Slice or sort.SliceStable where slices.SortFunc would do without reflection",
	Run:  runSortSlice,
}

func runSortSlice(pass *analysis.Pass) (any, error) {
	if v := moduleGo(pass); v != "" && versionLess(v, "1.21") {
		return nil, nil // package slices is Go 1.21
	}
	eachFunc(pass, func(body *ast.BlockStmt) {
		ast.Inspect(body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok || len(c.Args) != 2 {
				return true
			}
			sel, ok := c.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			fn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
			if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sort" || (fn.Name() != "Slice" && fn.Name() != "SliceStable") {
				return true
			}
			if _, ok := pass.TypesInfo.TypeOf(c.Args[0]).Underlying().(*types.Slice); !ok {
				return true
			}
			with := "slices.SortFunc"
			if fn.Name() == "SliceStable" {
				with = "slices.SortStableFunc"
			}
			pass.Report(analysis.Diagnostic{
				Category: "sort-slice",
				Pos:      c.Pos(),
				Message:  fmt.Sprintf("sort.%s(%s, …) swaps the elements through reflection (reflect.Swapper) and compares them through a function of indexes", fn.Name(), oneLine(types.ExprString(c.Args[0]))),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"%s(%s, func(a, b T) int { … }) sorts the same elements with generic code, no reflection (return cmp.Compare of the keys, or a negative, zero or positive number)", with, oneLine(types.ExprString(c.Args[0])))}},
			})
			return true
		})
	})
	return nil, nil
}

// terminates reports whether a statement list ends by leaving its block
// for good: a return, a branch (break, continue, goto) or a panic.
func terminates(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	switch x := list[len(list)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		if c, ok := x.X.(*ast.CallExpr); ok {
			id, ok := c.Fun.(*ast.Ident)
			return ok && id.Name == "panic"
		}
	}
	return false
}
