package reflecttemp

import (
	"reflect"
	"unsafe"

	"github.com/modern-go/reflect2"
)

type node struct{ kids []*node }

type decoder struct{}

func (d *decoder) unmarshal(n *node, out reflect.Value) bool { return n != nil && out.IsValid() }

func (d *decoder) sequence(n *node, out reflect.Value) {
	l := len(n.kids)
	out.Set(reflect.MakeSlice(out.Type(), l, l))
	et := out.Type().Elem()
	j := 0
	for i := 0; i < l; i++ {
		e := reflect.New(et).Elem() // want `sequence makes e with reflect.New\(et\) on every iteration of the loop at lines 21–27, only to copy it into out.Index\(j\), a slot that already exists`
		if d.unmarshal(n.kids[i], e) {
			out.Index(j).Set(e)
			j++
		}
	}
}

func (d *decoder) mapping(n *node, out reflect.Value) {
	kt, et := out.Type().Key(), out.Type().Elem()
	for i := 0; i+1 < len(n.kids); i += 2 {
		k := reflect.New(kt).Elem() // want `mapping makes k with reflect.New\(kt\) on every iteration of the loop at lines 32–40, and out.SetMapIndex copies it into the map`
		if d.unmarshal(n.kids[i], k) {
			e := reflect.New(et).Elem() // want `mapping makes e with reflect.New\(et\)`
			if d.unmarshal(n.kids[i+1], e) {
				out.SetMapIndex(k, e)
			}
		}
	}
}

// Kept: appended to a slice of values, not copied into a slot.
func collect(ts []reflect.Type) []reflect.Value {
	var out []reflect.Value
	for _, t := range ts {
		v := reflect.New(t).Elem()
		out = append(out, v)
	}
	return out
}

func (d *decoder) compact(out reflect.Value, j int) {
	out.Set(out.Slice(0, j)) // want `compact sets out to out.Slice\(0, j\) on every call`
}

func (d *decoder) guarded(out reflect.Value, j int) {
	if j < out.Len() {
		out.Set(out.Slice(0, j))
	}
}

// reflect2's unsafe API: a new element per field, copied into the map.
type recordMapDecoder struct {
	mapType  *reflect2.UnsafeMapType
	elemType reflect2.Type
	fields   []string
}

func (d *recordMapDecoder) Decode(ptr unsafe.Pointer, decode func(unsafe.Pointer)) {
	for _, field := range d.fields {
		elemPtr := d.elemType.UnsafeNew() // want `Decode makes elemPtr with d.elemType.UnsafeNew\(\) on every iteration of the loop at lines [0-9]+–[0-9]+, and d.mapType.UnsafeSetIndex copies it into the map`
		decode(elemPtr)
		d.mapType.UnsafeSetIndex(ptr, reflect2.PtrOf(field), elemPtr)
	}
}
