package bytescan

// Tokenizer scans tags.
type Tokenizer struct{ buf []byte }

// RawToken returns the next tag.
func (t *Tokenizer) RawToken() []byte {
	pivot, pos, open := 0, 0, 0
	for {
		if pos >= len(t.buf) {
			return nil
		}
		switch t.buf[pos] { // want `RawToken tests each byte of t.buf against '<' and '>' one index at a time \(pos\+\+\)`
		case '<':
			pivot = pos
			open++
		case '>':
			if open--; open == 0 {
				return t.buf[pivot : pos+1]
			}
		}
		pos++
	}
}

func (t *Tokenizer) charData(pos int) int {
	for i := pos + 1; i < len(t.buf); i++ {
		if t.buf[i] != '<' { // want `charData tests each byte of t.buf against '<' one index at a time \(i\+\+\)`
			continue
		}
		return i
	}
	return -1
}

// count does something for every byte (a default): not a search.
func count(b []byte) (n int) {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\n':
			n++
		default:
			n += 2
		}
	}
	return n
}

// unescape keeps every other byte after its switch: not a search.
func unescape(str []byte) []byte {
	var out []byte
	for i := 0; i < len(str); i++ {
		switch str[i] {
		case '\\':
			i++
			continue
		}
		out = append(out, str[i])
	}
	return out
}
