package byteappended

type Stream struct{ buf []byte }

// WriteString's fast path appends byte by byte.
func (stream *Stream) WriteString(s string) {
	valLen := len(s)
	stream.buf = append(stream.buf, '"')
	i := 0
	for ; i < valLen; i++ {
		c := s[i]
		if c > 31 && c != '"' && c != '\\' {
			stream.buf = append(stream.buf, c) // want `the loop at lines 10–17 appends s's bytes to stream.buf one at a time while each passes c > 31 && c != '"' && c != '\\\\', and stops at the first that does not`
		} else {
			break
		}
	}
	stream.buf = append(stream.buf, s[i:]...)
}

// The same, indexing in the append.
func copySafe(dst, src []byte, safe *[256]bool) []byte {
	for i := 0; i < len(src); i++ {
		if safe[src[i]] {
			dst = append(dst, src[i]) // want `appends src's bytes to dst one at a time`
		} else {
			break
		}
	}
	return dst
}

// A transform of each byte is not a copy of the run.
func upper(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' {
			dst = append(dst, c-32)
		} else {
			break
		}
	}
	return dst
}
