package tailfromfront

func width(r rune) int { return 1 }

func tailRunes(s string, sw, w int) (int, bool) {
	wd := 0
	for i, r := range s { // want `the loop over s walks it from the front until sw - \(wd \+ cw\) is at most w \(line 9\)`
		cw := width(r)
		if sw-(wd+cw) <= w {
			return i + 1, true
		}
		wd += cw
	}
	return 0, true
}

// headRunes keeps the front: a forward walk is the right one.
func headRunes(s string, w int) int {
	wd := 0
	for i, r := range s {
		if wd+width(r) > w {
			return i
		}
		wd += width(r)
	}
	return len(s)
}
