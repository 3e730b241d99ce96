package bytesofstring

import (
	"bytes"
	"net/url"
)

// A router's query lookup: the raw query copied into bytes to be cut
// with bytes functions, and the parts turned back into strings.
func findFirstQueryKey(rawQuery, key string) (value string, ok bool) {
	query := []byte(rawQuery) // want `findFirstQueryKey copies rawQuery into query, a \[\]byte it only reads: it searches and cuts it with bytes.IndexAny, bytes.IndexByte and turns parts of it back into strings \(lines 29, 36\)`
	for len(query) > 0 {
		foundKey := query
		if i := bytes.IndexAny(foundKey, "&;"); i >= 0 {
			foundKey, query = foundKey[:i], foundKey[i+1:]
		} else {
			query = query[:0]
		}
		if len(foundKey) == 0 {
			continue
		}
		var value []byte
		if i := bytes.IndexByte(foundKey, '='); i >= 0 {
			foundKey, value = foundKey[:i], foundKey[i+1:]
		}
		if len(foundKey) < len(key) {
			continue
		}
		keyString, err := url.QueryUnescape(string(foundKey))
		if err != nil {
			continue
		}
		if keyString != key {
			continue
		}
		valueString, err := url.QueryUnescape(string(value))
		if err != nil {
			continue
		}
		return valueString, true
	}
	return "", false
}

// Cut's parts are followed too.
func header(line string) string {
	b := []byte(line) // want `header copies line into b, a \[\]byte it only reads: it searches and cuts it with bytes.Cut, bytes.TrimSpace and turns parts`
	name, _, _ := bytes.Cut(b, []byte(":"))
	return string(bytes.TrimSpace(name))
}

// Written, handed on, appended to, ranged over by value, lowered: the
// copy is needed (or the twin is no twin).
func lower(s string) string {
	b := []byte(s)
	for i := range b {
		if b[i] >= 'A' && b[i] <= 'Z' {
			b[i] += 'a' - 'A'
		}
	}
	return string(b)
}

func handed(s string, w *bytes.Buffer) {
	b := []byte(s)
	w.Write(b)
}

func runes(s string) int {
	b := []byte(s)
	n := 0
	for _, c := range b {
		n += int(c)
	}
	return n
}

func upper(s string) string {
	b := []byte(s)
	return string(bytes.ToUpper(b))
}

func grown(s string) []byte {
	b := []byte(s)
	rest := b[1:]
	if bytes.HasPrefix(rest, []byte("x")) {
		rest = append(rest, 'y')
	}
	return rest
}
