package fixedcap

type Logger struct{ context []byte }

// With copies the parent's context into a 500-byte buffer every time.
func (l Logger) With() Logger {
	context := l.context
	l.context = make([]byte, 0, 500) // want `l.context is made with a constant capacity of 500 and given a copy of context, of any length, at line 9`
	l.context = append(l.context, context...)
	return l
}

// A small constant is not worth it.
func small(src []byte) []byte {
	b := make([]byte, 0, 16)
	b = append(b, src...)
	return b
}

// Sized from the input.
func sized(src []byte) []byte {
	b := make([]byte, 0, len(src)+64)
	b = append(b, src...)
	return b
}

// A constant appended: its length is known.
func header() []byte {
	b := make([]byte, 0, 512)
	b = append(b, "HTTP/1.1 200 OK\r\n"...)
	return b
}
