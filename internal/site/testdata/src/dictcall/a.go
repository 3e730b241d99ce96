package dictcall

// TypeID is an ID with a prefix and a suffix.
type TypeID struct{ prefix, suffix string }

func (t *TypeID) init(prefix, suffix string) { t.prefix, t.suffix = prefix, suffix }

// Subtype is what an ID type embeds.
type Subtype interface{ Prefix() string }

// SubtypePtr is a pointer to a Subtype with init.
type SubtypePtr[T any] interface {
	*T
	init(prefix, suffix string)
}

func from[T Subtype, PT SubtypePtr[T]](prefix, suffix string) (T, error) {
	var tid T // want `from hands &tid to init through the type parameter PT \(PT\(&tid\).init\(prefix, suffix\) at line 19\): a method of a type parameter is called through the generic dictionary`
	PT(&tid).init(prefix, suffix)
	return tid, nil
}

func concrete(prefix, suffix string) TypeID {
	var t TypeID
	(&t).init(prefix, suffix) // a static call: no dictionary
	return t
}
