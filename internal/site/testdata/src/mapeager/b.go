package mapeager

type evalVisitor struct {
	ctx      []any
	exprFunc map[*int]bool
	vars     map[string]int
	seen     map[string]bool
}

func newEvalVisitor(ctx any) *evalVisitor {
	return &evalVisitor{
		ctx:      []any{ctx},
		exprFunc: make(map[*int]bool), // want `newEvalVisitor makes exprFunc with every value it builds, but the package writes it only under conditions \(line 21\)`
		vars:     make(map[string]int),
		seen:     make(map[string]bool),
	}
}

func (v *evalVisitor) call(expr *int, root bool) {
	if root {
		v.exprFunc[expr] = true
	}
	v.vars["calls"]++ // every call writes it: nothing to save
}

func (v *evalVisitor) wasFunc(expr *int) bool { return v.exprFunc[expr] }

func (v *evalVisitor) mark(k string, ok bool) map[string]bool {
	if ok {
		v.seen[k] = true
	}
	return v.seen // handed out: its holder may write it
}
