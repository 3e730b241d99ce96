package fastpath

var table [][3]int

func search(r rune) int { return len(table) + int(r) }

// LineBreak answers letters and digits before its search.
func LineBreak(r rune) int { // want `LineBreak returns early at lines 9–17 \(r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', …\); its other work, from line 18 \(return search\(r\)\), is the slow path`
	if r >= 'a' && r <= 'z' {
		return 1
	}
	if r >= 'A' && r <= 'Z' {
		return 2
	}
	if r >= '0' && r <= '9' {
		return 3
	}
	return search(r)
}

// Plain has no early return.
func Plain(r rune) int {
	x := int(r)
	return x * 2
}

// Branches has an else: no fast path before the work.
func Branches(r rune) int {
	if r < 0x80 {
		return 1
	} else {
		return search(r)
	}
}

// Guard returns early only on empty input: the common path is the rest.
func Guard(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	return xs[0] + search(0)
}

// Small answers ASCII early and does no call after: nothing to move.
func Small(r rune) int {
	if r < 0x80 {
		return 1
	}
	x := int(r) * 3
	return x + 1
}
