package capshort

// Pretty formats json; its output is usually as long as its input.
func Pretty(json []byte, prefix string) []byte {
	buf := make([]byte, 0, len(json))
	if len(prefix) != 0 {
		buf = append(buf, prefix...)
	}
	buf = appendPretty(buf, json)
	if len(buf) > 0 {
		buf = append(buf, '\n') // want `buf is made with room for len\(json\) bytes, the input's length \(line 5\), and after it is filled Pretty appends '\\n': when the output is as long as the input, this append finds the room full`
	}
	return buf
}

func appendPretty(dst, src []byte) []byte { return append(dst, src...) }

// Sized has room for the newline: nothing to say.
func Sized(json []byte) []byte {
	buf := make([]byte, 0, len(json)+1)
	buf = appendPretty(buf, json)
	buf = append(buf, '\n')
	return buf
}

// Ugly appends nothing after the fill: nothing to say.
func Ugly(json []byte) []byte {
	buf := make([]byte, 0, len(json))
	buf = appendPretty(buf, json)
	return buf
}
