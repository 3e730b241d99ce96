package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// LockPerCall finds a method that takes its receiver's lock once per
// call, outside any loop:
//
//	func (c *cache) IncrementInt(k string, n int) (int, error) {
//		c.mu.Lock()
//		…
//		c.mu.Unlock()
//
// One Lock and one Unlock (or RLock and RUnlock) per call is what makes
// the type safe for concurrent use: on one goroutine its price is the
// lock's atomic operations, paid whether or not another goroutine holds
// it. A profile of a serial benchmark puts a third or more of a small
// method's time there, and there is no change at the line: the lock is
// the method's own work. What changes it is elsewhere: callers that share
// one value across cores split its state so they do not share one lock
// (rwmutex-exclusive and rlock-read name the changes a lock's kind or a
// read path calls for); callers on one goroutine use a variant without
// the lock.
var LockPerCall = &analysis.Analyzer{
	Name: "lockpercall",
	Doc:  "a method that takes its receiver's lock once per call: the price of a type safe for concurrent use",
	Run:  runLockPerCall,
}

// lockedMethod is a method that takes its receiver's lock once per call.
type lockedMethod struct {
	name, what string // the method's name; the lock, in words
}

func runLockPerCall(pass *analysis.Pass) (any, error) {
	locked := map[*types.Func]lockedMethod{}
	shards := shardTypes(pass)
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if fd.Recv == nil || len(fd.Recv.List) == 0 || len(fd.Recv.List[0].Names) == 0 {
			return
		}
		recv := pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
		if recv == nil {
			return
		}
		type lockUse struct {
			acquire  []*ast.CallExpr // Lock and RLock calls
			inLoop   bool            // one of them in a loop
			release  []token.Pos     // Unlocks, and where deferred ones run
			kind     string          // "Mutex" or "RWMutex"
			embedded bool            // the receiver's own (promoted) methods
		}
		uses := map[string]*lockUse{}
		var order []string
		deferred := map[*ast.CallExpr]bool{}
		inspectLoops(fd.Body, func(n ast.Node, loop ast.Stmt) {
			if d, ok := n.(*ast.DeferStmt); ok {
				deferred[d.Call] = true
			}
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 0 {
				return
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return
			}
			name := sel.Sel.Name
			if name != "Lock" && name != "RLock" && name != "Unlock" && name != "RUnlock" {
				return
			}
			fn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
			if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
				return
			}
			kind := ""
			if r := fn.Signature().Recv(); r != nil {
				switch {
				case isNamed(r.Type(), "sync", "Mutex"):
					kind = "Mutex"
				case isNamed(r.Type(), "sync", "RWMutex"):
					kind = "RWMutex"
				}
			}
			if kind == "" || exprRoot(sel.X) == nil || pass.TypesInfo.Uses[exprRoot(sel.X)] != recv {
				return
			}
			x := types.ExprString(sel.X)
			u := uses[x]
			if u == nil {
				_, promoted := ast.Unparen(sel.X).(*ast.Ident)
				u = &lockUse{kind: kind, embedded: promoted}
				uses[x] = u
				order = append(order, x)
			}
			switch name {
			case "Lock", "RLock":
				u.acquire = append(u.acquire, call)
				u.inLoop = u.inLoop || loop != nil
			default:
				u.release = append(u.release, call.Pos())
				if deferred[call] {
					// A deferred Unlock runs, and a profile puts it,
					// at the closing brace and at each return.
					u.release = append(u.release, fd.Body.Rbrace)
					u.release = append(u.release, returnsIn(fd.Body)...)
				}
			}
		})
		owner := strings.TrimSuffix(strings.TrimPrefix(recvName(fd.Recv.List[0].Type), "(*"), ")")
		for _, x := range order {
			u := uses[x]
			if len(u.acquire) != 1 || u.inLoop || len(u.release) == 0 {
				// Taken twice, or per element: a shape of its own,
				// not the price of one call.
				continue
			}
			lock := u.acquire[0]
			what := fmt.Sprintf("%s, a sync.%s", x, u.kind)
			if u.embedded {
				what = fmt.Sprintf("the sync.%s %s embeds", u.kind, x)
			}
			var related []analysis.RelatedInformation
			var nums []int
			for _, r := range u.release {
				related = append(related, analysis.RelatedInformation{Pos: r, Message: "the Unlock"})
				nums = append(nums, pass.Fset.Position(r).Line)
			}
			slices.Sort(nums)
			var lines []string
			for _, l := range slices.Compact(nums) {
				lines = append(lines, fmt.Sprint(l))
			}
			at := "line " + lines[0]
			if len(lines) > 1 {
				at = "lines " + list(lines, 4)
			}
			verb := lock.Fun.(*ast.SelectorExpr).Sel.Name
			if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				locked[fn] = lockedMethod{name: fd.Name.Name, what: what}
			}
			split := fmt.Sprintf("where goroutines on several cores share one %s, split its state by key (shards) so that their calls do not share one lock", owner)
			if n := namedOf(recv.Type()); n != nil && isShard(shards, n) {
				split = fmt.Sprintf("%s is one of the shards %s holds, split by key already: goroutines share one only when they use its keys", n.Obj().Name(), shards[n.Origin().Obj()])
			}
			pass.Report(analysis.Diagnostic{
				Category: "lock-per-call" + ownWork,
				Pos:      lock.Pos(),
				Related:  related,
				Message: fmt.Sprintf("%s takes %s, once per call (%s here, released at %s): the lock that makes %s safe for concurrent use",
					fd.Name.Name, what, verb, at, owner),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"one lock round trip per call is the price of a type safe for concurrent use, paid in its atomic operations even when no other goroutine holds the lock: nothing to change at this line; %s; where a value is used from one goroutine only, a variant of %s without the lock; %s",
					split, owner, ownWorkWords)}},
			})
		}
	})
	lockPerElement(pass, locked)
	return nil, nil
}

// lockPerElement reports a call, in a loop, of a method that takes its
// receiver's lock once per call: NewSet(vals...) calling s.Add(v) for
// each value. Each element then pays a lock round trip that one lock
// around the loop would pay once.
func lockPerElement(pass *analysis.Pass, locked map[*types.Func]lockedMethod) {
	if len(locked) == 0 {
		return
	}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		seen := map[ast.Stmt]bool{}
		inspectLoops(fd.Body, func(n ast.Node, loop ast.Stmt) {
			call, ok := n.(*ast.CallExpr)
			if !ok || loop == nil || seen[loop] {
				return
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return
			}
			fn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
			if !ok {
				return
			}
			m, ok := locked[fn.Origin()]
			if !ok {
				return
			}
			if mentionsAny(pass, sel.X, setInLoop(pass, loop)) {
				// Each iteration locks another value (buckets[i]):
				// there is no one lock to take around the loop.
				return
			}
			seen[loop] = true
			x := types.ExprString(sel.X)
			start, end := pass.Fset.Position(loop.Pos()).Line, pass.Fset.Position(loop.End()).Line
			pass.Report(analysis.Diagnostic{
				Category: "lock-per-element",
				Pos:      call.Pos(),
				Message: fmt.Sprintf("%s calls %s.%s once per iteration of the loop at lines %d–%d, and %s takes %s on every call: a lock round trip per element",
					fd.Name.Name, x, m.name, start, end, m.name, m.what),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"take the lock once for the whole loop: lock %s before the loop and do what %s does under the lock for each element (an unexported form of it that expects the lock held); where %s is new and not yet shared with another goroutine (a constructor filling it), fill it with no lock at all",
					x, m.name, x)}},
			})
		})
	})
}

// exprRoot returns the identifier an expression of selectors, index
// expressions and stars starts from: c in c.mu, s.shards[i].mu, (*c).mu.
func exprRoot(e ast.Expr) *ast.Ident {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// setInLoop returns the variables a loop sets: its range key and value,
// its init and post statements' variables, and every variable assigned
// or declared in its body.
func setInLoop(pass *analysis.Pass, loop ast.Stmt) map[types.Object]bool {
	set := map[types.Object]bool{}
	ast.Inspect(loop, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{x.Key, x.Value} {
				if id, ok := e.(*ast.Ident); ok {
					set[pass.TypesInfo.ObjectOf(id)] = true
				}
			}
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok {
					set[pass.TypesInfo.ObjectOf(id)] = true
				}
			}
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(x.X).(*ast.Ident); ok {
				set[pass.TypesInfo.ObjectOf(id)] = true
			}
		case *ast.ValueSpec:
			for _, id := range x.Names {
				set[pass.TypesInfo.ObjectOf(id)] = true
			}
		}
		return true
	})
	delete(set, nil)
	return set
}
