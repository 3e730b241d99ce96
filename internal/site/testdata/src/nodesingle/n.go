package nodesingle

// Geometry is a node of a tree of geometries.
type Geometry struct {
	Type       string
	Geometries []*Geometry
}

// NewGeometry makes a node, and one per child of a collection.
func NewGeometry(kind string, children []string) *Geometry { // the constructor
	g := &Geometry{Type: kind} // want `NewGeometry makes every Geometry of the tree`
	for _, c := range children {
		g.Geometries = append(g.Geometries, NewGeometry(c, nil))
	}
	return g
}

type doc struct{ Geometry *Geometry }

// newDoc wraps one geometry for its encoding: one node per call.
func newDoc(kind string) *doc {
	return &doc{Geometry: NewGeometry(kind, nil)}
}

// Marshal calls newDoc once.
func Marshal(kind string) *doc { return newDoc(kind) }

// parser builds trees by recursive descent.
type parser struct{ toks []string }

func (p *parser) value() *Geometry {
	if len(p.toks) > 0 && p.toks[0] == "(" {
		return p.list()
	}
	return p.leaf()
}

// leaf makes one node per call, but value, on a cycle, calls it many
// times per tree.
func (p *parser) leaf() *Geometry {
	t := p.toks[0]
	p.toks = p.toks[1:]
	return NewGeometry(t, nil)
}

func (p *parser) list() *Geometry {
	g := NewGeometry("list", nil)
	p.toks = p.toks[1:]
	for len(p.toks) > 0 && p.toks[0] != ")" {
		g.Geometries = append(g.Geometries, p.value())
	}
	return g
}

// handlers are called through a table: as often as anything.
var handlers = map[string]func() *Geometry{"point": point}

func point() *Geometry {
	return NewGeometry("point", nil)
}
