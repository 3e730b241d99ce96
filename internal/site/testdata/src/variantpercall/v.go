package variantpercall

type Rounder string

type Context struct {
	Precision uint32
	Rounding  Rounder
	Traps     uint32
}

var ctx19 = &Context{Precision: 19, Rounding: "half_up"}
var ctx39 = &Context{Precision: 39, Rounding: "half_up"}

func base(big bool) *Context {
	if big {
		return ctx39
	}
	return ctx19
}

type Mode int

func rounding(big bool, mode Mode) *Context {
	if mode == 0 {
		return base(big)
	}
	modes := map[Mode]Rounder{1: "half_down", 2: "up", 3: "down"}
	ctx := *base(big) // want `rounding copies \*base\(big\), sets Rounding from constants \(line 29\) and returns &ctx: a new heap copy on every call`
	ctx.Rounding = modes[mode]
	return &ctx
}

// A field from the caller: as many variants as inputs.
func withPrecision(p uint32) *Context {
	ctx := *ctx19
	ctx.Precision = p
	return &ctx
}
