package contextpercall

// walk is the state of a walk down the tree: eight words.
type walk struct {
	offset int
	path   []int
	depth  int
	state  *int
	kind   int
	floor  int
}

type matcher interface {
	Match(walk, string) (int, bool)
}

// seq is a node with children: it reads the walk and passes it down.
type seq []matcher

func (ms seq) Match(x walk, s string) (int, bool) {
	n := 0
	for i := x.depth; i < len(ms); i++ {
		k, ok := ms[i].Match(x, s[n:]) // want `ms\[i\]\.Match\(x, s\[n:\]\) passes x, a walk of 8 words, by value to Match, an interface method 3 of whose 4 implementations ignore it \(char, text, void\): every call copies it, a leaf's too; with seq's receiver \(3 words\) and the other arguments, a call's arguments take 13 words, more than the 9 integer registers`
		if !ok {
			return 0, false
		}
		n += k
	}
	return n, true
}

type text struct{ s string }

func (m *text) Match(_ walk, s string) (int, bool) { return len(m.s), len(s) >= len(m.s) }

type char struct{}

func (char) Match(_ walk, s string) (int, bool) { return 1, len(s) > 0 }

type void struct{}

func (*void) Match(walk, string) (int, bool) { return 0, true }

// Run starts the walk: one call per function is reported.
func Run(m matcher, s string) bool {
	var x walk
	n, ok := m.Match(x, s) // want `m\.Match\(x, s\) passes x, a walk of 8 words`
	n2, _ := m.Match(x, s)
	return ok && n == len(s) && n2 >= 0
}

// small is two words: copying it costs nothing worth a shape.
type small struct{ a, b int }

type visitor interface{ Visit(small) }

type v1 struct{}

func (v1) Visit(small) {}

type v2 struct{}

func (v2) Visit(small) {}

type v3 struct{}

func (v3) Visit(small) {}

func Each(vs []visitor) {
	for _, v := range vs {
		v.Visit(small{})
	}
}

// used is read by most implementations: the copy is their input.
type used interface{ Use(walk) int }

type u1 struct{}

func (u1) Use(x walk) int { return x.offset }

type u2 struct{}

func (u2) Use(x walk) int { return x.depth }

type u3 struct{}

func (u3) Use(walk) int { return 0 }

func Uses(us []used, x walk) int {
	n := 0
	for _, u := range us {
		n += u.Use(x)
	}
	return n
}
