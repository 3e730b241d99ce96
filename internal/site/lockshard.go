package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"iter"

	"golang.org/x/tools/go/analysis"
)

// LockSharded finds a lock taken on one shard of a sharded structure: a
// struct type with a sync.Mutex or sync.RWMutex of its own that another
// struct type of the package holds as the elements of a slice or an
// array field (ristretto's lockedMap, 256 of them in shardedMap.shards,
// picked by key). Its lock is split by key already: contention a
// benchmark shows on it comes from goroutines that use the same keys,
// one shard, not from the lock's scope.
var LockSharded = &analysis.Analyzer{
	Name: "lockshard",
	Doc:  "a lock taken on one shard of a structure that holds many, picked by key",
	Run:  runLockSharded,
}

func runLockSharded(pass *analysis.Pass) (any, error) {
	shards := shardTypes(pass)
	if len(shards) == 0 {
		return nil, nil
	}
	for _, f := range pass.Files {
		if isTest(pass, f) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if ok && len(call.Args) > 0 {
				shardedAtomic(pass, shards, call)
				return true
			}
			if !ok || len(call.Args) != 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "Lock" && sel.Sel.Name != "RLock") {
				return true
			}
			fn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
			if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
				return true
			}
			// m.RLock() with the mutex embedded, or m.mu.Lock().
			x := ast.Unparen(sel.X)
			shard := namedOf(typeOf(pass, x))
			if shard == nil || !isShard(shards, shard) {
				if inner, ok := x.(*ast.SelectorExpr); ok {
					shard = namedOf(typeOf(pass, inner.X))
				}
			}
			if shard == nil || !isShard(shards, shard) {
				return true
			}
			held := shards[shard.Origin().Obj()]
			pass.Report(analysis.Diagnostic{
				Category: "lock-sharded",
				Pos:      call.Pos(),
				Message: fmt.Sprintf("%s.%s() locks one %s, one of the shards %s holds: the lock is split by key already",
					types.ExprString(sel.X), sel.Sel.Name, shard.Obj().Name(), held),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "contention on it in a benchmark comes from goroutines that use the same keys (one shard); keys spread as the module's use spreads them meet one shard's lock each: change the benchmark's keys before the lock"}},
			})
			return true
		})
	}
	return nil, nil
}

// shardedAtomic reports an atomic update of a field of one shard
// (atomic.AddInt64(&s.stats.Hits, 1) on a cacheShard, one of those
// BigCache.shards holds): the counter is split by key already, as the
// shard's lock is.
func shardedAtomic(pass *analysis.Pass, shards map[*types.TypeName]string, call *ast.CallExpr) {
	fn := calledFunc(pass, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" {
		return
	}
	u, ok := ast.Unparen(call.Args[0]).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return
	}
	e := ast.Unparen(u.X)
	for {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return
		}
		if shard := namedOf(typeOf(pass, sel.X)); shard != nil && isShard(shards, shard) {
			pass.Report(analysis.Diagnostic{
				Category: "lock-sharded",
				Pos:      call.Pos(),
				Message: fmt.Sprintf("%s updates a counter of one %s, one of the shards %s holds: the counter is split by key already",
					oneLine(types.ExprString(call)), shard.Obj().Name(), shards[shard.Origin().Obj()]),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "contention on it in a benchmark comes from goroutines that use the same keys (one shard); keys spread as the module's use spreads them meet one shard's counter each: change the benchmark's keys before the counter"}},
			})
			return
		}
		e = ast.Unparen(sel.X)
	}
}

// shardTypes maps each shard type of the package (a struct with a
// sync.Mutex or sync.RWMutex of its own, held by another struct type as
// the elements of a slice or array field) to where its owner holds them
// ("shardedMap.shards"), when no struct of the package also holds it as a
// field of its own.
func shardTypes(pass *analysis.Pass) map[*types.TypeName]string {
	shards := map[*types.TypeName]string{}
	for owner, st := range pkgStructs(pass.Pkg) {
		for i := range st.NumFields() {
			f := st.Field(i)
			var elem types.Type
			switch t := f.Type().Underlying().(type) {
			case *types.Slice:
				elem = t.Elem()
			case *types.Array:
				if t.Len() > 1 {
					elem = t.Elem()
				}
			}
			if p, ok := elem.(*types.Pointer); ok {
				elem = p.Elem()
			}
			n := namedOf(elem)
			if n == nil || n.Obj().Pkg() != pass.Pkg || !hasLock(n) {
				continue
			}
			if _, seen := shards[n.Origin().Obj()]; !seen {
				shards[n.Origin().Obj()] = fmt.Sprintf("%s.%s", owner.Name(), f.Name())
			}
		}
	}
	// A type some struct also holds as a field of its own (go-cache's
	// Cache embedding *cache, which shardedCache also holds by the
	// dozen) is used whole too: its lock is not split by key there.
	for _, st := range pkgStructs(pass.Pkg) {
		for i := range st.NumFields() {
			if n := namedOf(st.Field(i).Type()); n != nil {
				delete(shards, n.Origin().Obj())
			}
		}
	}
	return shards
}

// pkgStructs yields the package-level struct types of pkg, in the order
// of their names.
func pkgStructs(pkg *types.Package) iter.Seq2[*types.TypeName, *types.Struct] {
	return func(yield func(*types.TypeName, *types.Struct) bool) {
		for _, name := range pkg.Scope().Names() {
			tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
			if !ok {
				continue
			}
			if st, ok := tn.Type().Underlying().(*types.Struct); ok && !yield(tn, st) {
				return
			}
		}
	}
}

// typeOf returns x's type with a pointer taken off.
func typeOf(pass *analysis.Pass, x ast.Expr) types.Type {
	t := pass.TypesInfo.TypeOf(x)
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// isShard reports whether n (or the generic type it instantiates) is one
// of shards.
func isShard(shards map[*types.TypeName]string, n *types.Named) bool {
	_, ok := shards[n.Origin().Obj()]
	return ok
}

// hasLock reports whether the struct n names has a sync.Mutex or
// sync.RWMutex field, embedded or named.
func hasLock(n *types.Named) bool {
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if m := namedOf(st.Field(i).Type()); m != nil && m.Obj().Pkg() != nil && m.Obj().Pkg().Path() == "sync" && (m.Obj().Name() == "Mutex" || m.Obj().Name() == "RWMutex") {
			return true
		}
	}
	return false
}
