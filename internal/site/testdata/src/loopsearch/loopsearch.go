package loopsearch

var ranges = [][3]int{
	{0x0000, 0x0009, 1},
	{0x000A, 0x000A, 2},
	{0x000B, 0x001F, 1},
	{0x0020, 0x007E, 3},
	{0x007F, 0x009F, 1},
}

// Property finds r's property in the package's sorted table.
func Property(r rune) int {
	from, to := 0, len(ranges)
	for from < to { // want `the loop at lines 14–25 runs while from < to: a binary search of ranges \(5 entries\)`
		middle := (from + to) / 2
		cpStart, cpEnd := ranges[middle][0], ranges[middle][1]
		if int(r) >= cpStart && int(r) <= cpEnd {
			return ranges[middle][2]
		}
		if int(r) < cpEnd {
			to = middle
		} else {
			from = middle + 1
		}
	}
	return 0
}

// Search is a generic search of the table it is given.
func Search[E interface{ [3]int }](dictionary []E, r rune) (result E) {
	lo, hi := 0, len(dictionary)
	for lo < hi { // want `the loop at lines 32–39 runs while lo < hi: a binary search of dictionary$`
		m := int(uint(lo+hi) >> 1)
		if dictionary[m][0] <= int(r) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return dictionary[lo-1]
}

// Colon finds the first colon a byte at a time.
func Colon(s string) int {
	i := 0
	for ; i < len(s); i++ { // want `the loop at lines 46–50 runs while i < len\(s\), comparing with ':': a byte-at-a-time search of s for ':'`
		if s[i] == ':' {
			break
		}
	}
	return i
}

// Line finds a newline in a byte slice.
func Line(b []byte) int {
	for i := 0; i < len(b); i++ { // want `a byte-at-a-time search of b for '\\n'`
		if b[i] == '\n' {
			return i
		}
	}
	return -1
}

// Skip is no search: it skips while the bytes are spaces.
func Skip(s string) int {
	i := 0
	for ; i < len(s); i++ { // want `the loop at lines 67–71 runs while i < len\(s\), comparing with ' '$`
		if s[i] != ' ' {
			break
		}
	}
	return i
}

// Sum is no search: its loop never leaves early.
func Sum(xs []int, lo, hi int) int {
	n := 0
	for lo < hi { // want `the loop at lines 78–81 runs while lo < hi, counting lo$`
		n += xs[lo]
		lo++
	}
	return n
}

var htmlEscaper = [256][]byte{
	'&': []byte("&amp;"),
	'<': []byte("&lt;"),
	'>': []byte("&gt;"),
	'"': []byte("&quot;"),
}

// escape steps over every byte to find the four the table marks.
func escape(w *[]byte, s []byte) {
	var start, end int
	for end < len(s) { // want `a byte-at-a-time scan of s for the 4 bytes htmlEscaper marks \('"', '&', '<', '>'\)`
		if esc := htmlEscaper[s[end]]; esc != nil {
			*w = append(*w, s[start:end]...)
			*w = append(*w, esc...)
			start = end + 1
		}
		end++
	}
	*w = append(*w, s[start:]...)
}

var wide [256]bool

// A table filled at run time has no literal to read.
func scanWide(s string) int {
	n := 0
	for i := 0; i < len(s); i++ { // want `the loop at lines \d+–\d+ runs while i < len\(s\)`
		if wide[s[i]] {
			n++
		}
	}
	return n
}

type entry struct{ key any }

type node struct{ entries []*entry }

type tree struct{ cmp func(a, b any) int }

// A container's search through its comparator: the structure's own
// search, no table of constant answers.
func (t *tree) search(n *node, key any) (int, bool) {
	lo, hi := 0, len(n.entries)-1
	for lo <= hi { // want `the loop at lines \d+–\d+ runs while lo <= hi`
		mid := (lo + hi) / 2
		switch c := t.cmp(key, n.entries[mid].key); {
		case c > 0:
			lo = mid + 1
		case c < 0:
			hi = mid - 1
		default:
			return mid, true
		}
	}
	return lo, false
}
