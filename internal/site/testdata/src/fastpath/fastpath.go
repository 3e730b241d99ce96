package fastpath

var table [][3]int

func search(r rune) int { return len(table) + int(r) }

// LineBreak split costs 91 (go build -gcflags=-m=2): over the budget, no shape.
func LineBreak(r rune) int {
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

func skipWS(s string) string { // want `skipWS returns early at lines 54–56 \(len\(s\) == 0 \|\| s\[0\] > 0x20\) and leaves the rest to skipWSSlow`
	if len(s) == 0 || s[0] > 0x20 {
		return s
	}
	return skipWSSlow(s)
}

func skipWSSlow(s string) string {
	if len(s) == 0 || s[0] != 0x20 && s[0] != 0x0A && s[0] != 0x09 && s[0] != 0x0D {
		return s
	}
	for i := 1; i < len(s); i++ {
		if s[i] != 0x20 && s[i] != 0x0A && s[i] != 0x09 && s[i] != 0x0D {
			return s[i:]
		}
	}
	return ""
}

// Outlined already marks its slow path //go:noinline: the split is made.
func Outlined(s string) string {
	if len(s) == 0 || s[0] > 0x20 {
		return s
	}
	return outlinedSlow(s)
}

//go:noinline
func outlinedSlow(s string) string { return skipWSSlow(s) }

// Heavy leaves its rest to a function too large to inline: its cost is
// its own early returns and the call, so the early returns are the split.
func Heavy(r rune) int { // want `Heavy returns early at lines 86–88 \(r < 0x80\); its other work, from line 89 \(return heavySlow\(r\)\), is the slow path`
	if r < 0x80 {
		return 1
	}
	return heavySlow(r)
}

func heavySlow(r rune) int {
	n := search(r)
	n += search(r + 1)
	return n
}

// Wrapped leaves its rest to a function that is one call itself: inlined
// or not, the call is there, so marking it //go:noinline gives nothing
// back. Its early returns are the split.
func Wrapped(r rune) int { // want `Wrapped returns early at lines 102–104 \(r < 0x80\); its other work, from line 105 \(return wrappedSlow\(r\)\), is the slow path`
	if r < 0x80 {
		return 1
	}
	return wrappedSlow(r)
}

func wrappedSlow(r rune) int {
	return heavySlow(r) + heavySlow(r+1) + int(r)*3 + int(r)%7 + int(r)/5 + int(r)<<2
}

type list struct{ size int }

func (l *list) within(i int) bool { return i >= 0 && i < l.size }

// Remove refuses an index out of range and does its work after: a
// guard, not a fast path.
func (l *list) Remove(i int) {
	if !l.within(i) {
		return
	}
	l.size = search(rune(i))
}

// Class answers two small ranges before its search: split, it fits.
func Class(r rune) int { // want `Class returns early at lines \d+–\d+ \(r < 'a', r > 'z'\); its other work, from line \d+ \(return search\(r\)\), is the slow path`
	if r < 'a' {
		return 1
	}
	if r > 'z' {
		return 2
	}
	return search(r)
}
