package builtunlessused

import "io"

const (
	Smartypants = 1 << iota
	Safelink
)

type Smarty struct{ table [256]func(w io.Writer) int }

func NewSmarty(flags int) *Smarty { return &Smarty{} }

type Renderer struct {
	Flags int
	sr    *Smarty
	buf   []byte
	names map[string]int
}

// NewRenderer builds the renderer.
func NewRenderer(flags int) *Renderer {
	return &Renderer{
		Flags: flags,
		sr:    NewSmarty(flags), // want `sr is built by NewSmarty\(flags\) with every value, but read only when r.Flags&Smartypants != 0 \(lines 35, 42\)`
		buf:   make([]byte, 0, 64),
		names: newNames(),
	}
}

func newNames() map[string]int { return map[string]int{} }

func (r *Renderer) Text(w io.Writer) {
	if r.Flags&Smartypants != 0 {
		r.sr.table[0](w)
	}
	r.buf = r.buf[:0]
}

func (rr *Renderer) Title(w io.Writer) {
	if rr.Flags&Smartypants != 0 {
		rr.sr.table[1](w)
	}
}

// names is read unguarded: it is used.
func (r *Renderer) Name(k string) int { return r.names[k] }
