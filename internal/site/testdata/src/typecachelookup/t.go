package typecachelookup

import (
	"encoding"
	"reflect"
	"sync"
)

type props struct{ text, marshaler bool }

var cache sync.Map // reflect.Type -> props

var textMarshalerType = reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem()

// propsFor asks the cache for every type, methodless ones too.
func propsFor(t reflect.Type) props {
	if p, ok := cache.Load(t); ok { // want `propsFor looks t up in cache \(a sync.Map: the type hashed and compared as an interface\) on every call`
		return p.(props)
	}
	p := props{text: t.Implements(textMarshalerType)}
	cache.Store(t, p)
	return p
}

var sizes sync.Map

// sizeOf caches what is not a method-set answer: on a hit, the lookup
// is the cache working as designed.
func sizeOf(t reflect.Type) uintptr {
	if s, ok := sizes.Load(t); ok { // want `sizeOf looks t up in sizes \(a sync.Map keyed by the type\) and works the entry out only on a miss`
		return s.(uintptr)
	}
	s := t.Size()
	sizes.Store(t, s)
	return s
}

// sizeLate looks up after other work: not the cache's first answer.
func sizeLate(t reflect.Type) uintptr {
	n := t.Size()
	if s, ok := sizes.Load(t); ok {
		return s.(uintptr) + n
	}
	return n
}
