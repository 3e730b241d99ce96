package madeperiteration

import "strconv"

// frame is a template's data frame: its parent and its variables.
type frame struct {
	parent *frame
	data   map[string]any
}

func newFrame() *frame { return &frame{data: make(map[string]any)} }

// copyFrame is a new frame with p's variables: a fresh value through
// newFrame's.
func (p *frame) copyFrame() *frame {
	f := newFrame()
	for k, v := range p.data {
		f.data[k] = v
	}
	f.parent = p
	return f
}

// iterFrame sets the iteration's variables on a copy.
func (p *frame) iterFrame(i int) *frame {
	f := p.copyFrame()
	f.data["index"] = i
	return f
}

type visitor struct{ frames []*frame }

func (v *visitor) eval(s string, f *frame) string { return s + strconv.Itoa(len(f.data)) }

// each makes a frame per element and uses it only in the iteration.
func (v *visitor) each(p *frame, items []string) string {
	out := ""
	for i, s := range items {
		f := p.iterFrame(i) // want `iterFrame returns a new \*frame, made on every iteration of the loop at line 38 and used only within that iteration \(passed to v.eval\): one allocation per element`
		f.data["item"] = s
		out += v.eval(s, f)
	}
	return out
}

// counts makes a map per element, read only.
func counts(words []string) int {
	n := 0
	for _, w := range words {
		m := letters(w) // want `letters returns a new map\[rune\]int, made on every iteration`
		n += len(m)
	}
	return n
}

func letters(w string) map[rune]int {
	m := map[rune]int{}
	for _, r := range w {
		m[r]++
	}
	return m
}

// collect keeps every frame: appended, nothing to reuse.
func (v *visitor) collect(p *frame, n int) {
	for i := 0; i < n; i++ {
		f := p.iterFrame(i)
		v.frames = append(v.frames, f)
	}
}

// last keeps the final frame past the loop.
func last(p *frame, n int) *frame {
	var keep *frame
	for i := 0; i < n; i++ {
		f := p.iterFrame(i)
		keep = f
	}
	return keep
}

// spawn captures it in a goroutine.
func spawn(p *frame, n int, done chan<- int) {
	for i := 0; i < n; i++ {
		f := p.iterFrame(i)
		go func() { done <- len(f.data) }()
	}
}

var pool = map[int]*frame{}

// cached returns a kept value: not a new one per call.
func cached(i int) *frame {
	if f, ok := pool[i]; ok {
		return f
	}
	f := newFrame()
	pool[i] = f
	return f
}

func lookups(n int) int {
	t := 0
	for i := 0; i < n; i++ {
		f := cached(i)
		t += len(f.data)
	}
	return t
}

// stored puts the frame into a map it keeps.
func stored(p *frame, n int, into map[int]*frame) {
	for i := 0; i < n; i++ {
		f := p.iterFrame(i)
		into[i] = f
	}
}

// A tree's node: parseChild appends the child it makes to its parent's
// children and returns it; the loop reads it within the iteration, but
// the tree keeps it.
type node struct {
	kids []*node
	foot string
}

func newNode() *node { return &node{} }

func parseChild(parent *node) *node {
	child := newNode()
	parent.kids = append(parent.kids, child)
	return child
}

func mapping(n int) *node {
	root := newNode()
	for i := 0; i < n; i++ {
		k := parseChild(root)
		if k.foot != "" {
			k.foot = ""
		}
	}
	return root
}
