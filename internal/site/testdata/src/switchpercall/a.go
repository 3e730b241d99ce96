package switchpercall

type exctx struct{}

type index struct{ less func(a, b string) bool }

type item struct{ key, val string }

func (a *item) Less(b *item, ctx interface{}) bool {
	switch ctx := ctx.(type) { // want `the function lessCtx makes for ctx calls Less with it, and Less type-switches on ctx \(line 10\) on every call, though ctx is fixed when lessCtx makes the function`
	case *exctx:
		return false
	case *index:
		if ctx.less(a.val, b.val) {
			return true
		}
	}
	return a.key < b.key
}

func lessCtx(ctx interface{}) func(a, b interface{}) bool {
	return func(a, b interface{}) bool {
		return a.(*item).Less(b.(*item), ctx)
	}
}

// The context comes with each call: nothing is fixed.
func lessEach() func(a, b *item, ctx interface{}) bool {
	return func(a, b *item, ctx interface{}) bool {
		return a.Less(b, ctx)
	}
}
