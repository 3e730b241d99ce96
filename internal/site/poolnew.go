package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// PoolNew finds the allocations of a sync.Pool's New function: a func
// literal assigned to a pool's New (ants' pool.workerCache.New = func()
// any { return &goWorker{…} }), set in a sync.Pool literal, or handed to
// a constructor of a type that wraps one (zap's pool.New(func() *Buffer
// {…})). New runs only when the pool has nothing to give, so what a heap
// profile puts here is the values that did not come back: kept by
// whoever took them (zap's With keeps a 1 KiB buffer for the child
// logger's life; each of ants' live workers keeps its goWorker), or
// dropped by the collector, which empties pools at every cycle.
var PoolNew = &analysis.Analyzer{
	Name: "poolnew",
	Doc:  "the allocations of a sync.Pool's New function",
	Run:  runPoolNew,
}

func runPoolNew(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectAll(fd.Body, func(n ast.Node) {
			for _, lit := range poolNewLits(pass, n) {
				reportPoolNew(pass, fd.Name.Name, lit)
			}
		})
	})
	// Package-level pools: var bufPool = sync.Pool{New: …}.
	for _, f := range pass.Files {
		if isTest(pass, f) {
			continue
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, sp := range gd.Specs {
				vs, ok := sp.(*ast.ValueSpec)
				if !ok || len(vs.Names) == 0 {
					continue
				}
				for _, v := range vs.Values {
					ast.Inspect(v, func(n ast.Node) bool {
						for _, lit := range poolNewLits(pass, n) {
							reportPoolNew(pass, vs.Names[0].Name, lit)
						}
						return true
					})
				}
			}
		}
	}
	return nil, nil
}

// poolNewLits returns the func literals a node makes a pool's New: one
// assigned to a sync.Pool's New, set in a sync.Pool literal, or handed to
// a call whose result wraps a sync.Pool.
func poolNewLits(pass *analysis.Pass, n ast.Node) []*ast.FuncLit {
	var lits []*ast.FuncLit
	switch x := n.(type) {
	case *ast.AssignStmt:
		if len(x.Lhs) == 1 && len(x.Rhs) == 1 {
			if sel, ok := ast.Unparen(x.Lhs[0]).(*ast.SelectorExpr); ok && sel.Sel.Name == "New" && isSyncPool(pass.TypesInfo.TypeOf(sel.X)) {
				if lit, ok := ast.Unparen(x.Rhs[0]).(*ast.FuncLit); ok {
					lits = append(lits, lit)
				}
			}
		}
	case *ast.CompositeLit:
		if isSyncPool(pass.TypesInfo.TypeOf(x)) {
			for _, e := range x.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "New" {
						if lit, ok := ast.Unparen(kv.Value).(*ast.FuncLit); ok {
							lits = append(lits, lit)
						}
					}
				}
			}
		}
	case *ast.CallExpr:
		if wrapsPool(pass.TypesInfo.TypeOf(x)) {
			for _, a := range x.Args {
				if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
					lits = append(lits, lit)
				}
			}
		}
	}
	return lits
}

func reportPoolNew(pass *analysis.Pass, owner string, lit *ast.FuncLit) {
	inspectBody(lit.Body, func(n ast.Node) {
		var made string
		switch x := n.(type) {
		case *ast.UnaryExpr:
			if _, ok := ast.Unparen(x.X).(*ast.CompositeLit); ok && x.Op.String() == "&" {
				made = types.TypeString(pass.TypesInfo.TypeOf(x.X), types.RelativeTo(pass.Pkg))
			}
		case *ast.CallExpr:
			if isBuiltin(pass, x.Fun, "make") || isBuiltin(pass, x.Fun, "new") {
				made = types.TypeString(pass.TypesInfo.TypeOf(x), types.RelativeTo(pass.Pkg))
			}
		}
		if made == "" {
			return
		}
		pass.Report(analysis.Diagnostic{
			Category:       "pool-new",
			Pos:            n.Pos(),
			Message:        fmt.Sprintf("%s's pool makes a %s here only when it has none to give: each allocation is a value that did not come back to the pool", owner, made),
			SuggestedFixes: []analysis.SuggestedFix{{Message: "find who keeps the values taken from the pool — a Get with no Put, or a value kept for the life of its owner — and put them back when done (a copy of exact size where the owner must keep the contents); the collector also empties pools at every cycle, so values kept by design (a live worker's own) are made once each"}},
		})
	})
}

// isSyncPool reports whether t is sync.Pool or a pointer to one.
func isSyncPool(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && n.Obj().Name() == "Pool"
}

// wrapsPool reports whether t is (a pointer to) a struct with a sync.Pool
// field: a typed wrapper of one.
func wrapsPool(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	s, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for f := range s.Fields() {
		if isSyncPool(f.Type()) {
			return true
		}
	}
	return false
}
