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

// RWExclusive finds a sync.RWMutex a method takes exclusively (Lock):
// a cache whose Get must reorder its recency list under c.lock.Lock(),
// as Add and Remove do, while only Peek, Contains and Len take RLock.
// RWMutex's Lock and Unlock do a Mutex's work and the reader count's
// atomics besides; where the exclusive paths are the hot ones, a plain
// sync.Mutex costs less, and RLock pays only where readers run side by
// side.
var RWExclusive = &analysis.Analyzer{
	Name: "rwexclusive",
	Doc:  "a sync.RWMutex taken exclusively (Lock), with the methods that take it shared named",
	Run:  runRWExclusive,
}

// rwSite is a method's lock operations on one RWMutex field.
type rwSite struct {
	method string
	field  string        // the RWMutex field's name
	lock   *ast.CallExpr // its first Lock, or nil
	unlock []token.Pos   // its Unlocks, and where deferred ones run
	shared bool          // it calls RLock
}

func runRWExclusive(pass *analysis.Pass) (any, error) {
	// Per receiver type and field: the methods that lock it.
	byField := map[string][]*rwSite{}
	var order []string
	for _, f := range pass.Files {
		if isTest(pass, f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv == nil || len(fd.Recv.List) == 0 {
				continue
			}
			recv := recvName(fd.Recv.List[0].Type)
			sites := map[string]*rwSite{}
			deferred := map[*ast.CallExpr]bool{}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if d, ok := n.(*ast.DeferStmt); ok {
					deferred[d.Call] = true
				}
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) != 0 {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "Lock" && sel.Sel.Name != "RLock" && sel.Sel.Name != "Unlock" {
					return true
				}
				if !isNamed(pass.TypesInfo.TypeOf(sel.X), "sync", "RWMutex") {
					return true
				}
				field, ok := ast.Unparen(sel.X).(*ast.SelectorExpr)
				if !ok {
					return true
				}
				key := recv + "." + field.Sel.Name
				s := sites[key]
				if s == nil {
					s = &rwSite{method: fd.Name.Name, field: field.Sel.Name}
					sites[key] = s
					if byField[key] == nil {
						order = append(order, key)
					}
					byField[key] = append(byField[key], s)
				}
				switch {
				case sel.Sel.Name == "RLock":
					s.shared = true
				case sel.Sel.Name == "Unlock":
					s.unlock = append(s.unlock, call.Pos())
					if deferred[call] {
						// A deferred Unlock runs, and a profile
						// puts it, at the closing brace and at
						// each return.
						s.unlock = append(s.unlock, fd.Body.Rbrace)
						s.unlock = append(s.unlock, returnsIn(fd.Body)...)
					}
				case s.lock == nil:
					s.lock = call
				}
				return true
			})
		}
	}
	for _, key := range order {
		sites := byField[key]
		var exclusive, shared []string
		for _, s := range sites {
			if s.lock != nil && !s.shared {
				exclusive = append(exclusive, s.method)
			}
			if s.shared {
				shared = append(shared, s.method)
			}
		}
		if len(exclusive) == 0 || !slices.ContainsFunc(exclusive, readName) {
			// Only writers take it exclusively: an RWMutex whose
			// reads share it is doing its job.
			continue
		}
		slices.Sort(exclusive)
		slices.Sort(shared)
		readers := "no method takes it shared (RLock)"
		if len(shared) > 0 {
			readers = "only " + list(shared, 4) + " take it shared (RLock)"
		}
		for _, s := range sites {
			if s.lock == nil || s.shared {
				continue
			}
			x := oneLine(types.ExprString(s.lock.Fun.(*ast.SelectorExpr).X))
			also := ""
			if others := slices.DeleteFunc(slices.Clone(exclusive), func(m string) bool { return m == s.method }); len(others) > 0 {
				also = ", as " + list(others, 4) + " also do"
				if len(others) == 1 {
					also = ", as " + others[0] + " also does"
				}
			}
			// The Unlocks are the lock's other half: a profile puts
			// the exclusive release's cost at them.
			var related []analysis.RelatedInformation
			for _, u := range s.unlock {
				related = append(related, analysis.RelatedInformation{Pos: u, Message: "the Unlock"})
			}
			pass.Report(analysis.Diagnostic{
				Category: "rwmutex-exclusive",
				Pos:      s.lock.Pos(),
				Related:  related,
				Message: fmt.Sprintf("%s takes %s, a sync.RWMutex, exclusively (Lock)%s; %s: an RWMutex's Lock and Unlock do a Mutex's work plus the reader count's atomics",
					s.method, x, also, readers),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"where the exclusive paths are the hot ones (a cache whose Get updates state cannot take RLock), make %s a sync.Mutex: each Lock and Unlock then costs less; an RWMutex pays only where readers run side by side and outnumber the writers", s.field)}},
			})
		}
	}
	return nil, nil
}

// returnsIn returns the positions of body's return statements, outside
// function literals.
func returnsIn(body *ast.BlockStmt) []token.Pos {
	var out []token.Pos
	for _, r := range returnsOf(body) {
		out = append(out, r.Pos())
	}
	return out
}

// readName reports whether a method's name says it looks a value up:
// Get, Lookup, Find, Fetch (a cache's Get that must reorder its list
// takes Lock, and makes the RWMutex a Mutex in all but name). Load and
// Read are not among them: a cache's Load reads a file into it.
func readName(m string) bool {
	for _, p := range []string{"Get", "Lookup", "Find", "Fetch", "get", "lookup", "find", "fetch"} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}
