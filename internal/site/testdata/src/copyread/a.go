package copyread

// Version is a parsed version.
type Version struct{ segments []int64 }

// Segments64 returns a copy of the segments.
func (v *Version) Segments64() []int64 {
	result := make([]int64, len(v.segments)) // want `Compare takes v.Segments64\(\)`
	copy(result, v.segments)                 // want `Compare takes v.Segments64\(\)`
	return result
}

// Compare compares the segments.
func (v *Version) Compare(o *Version) int {
	a := v.Segments64() // want `Compare takes v.Segments64\(\), a copy of v.segments that Segments64 makes for callers outside the package, only to read it`
	b := o.Segments64() // want `Compare takes o.Segments64\(\)`
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return int(a[i] - b[i])
		}
	}
	return len(a) - len(b)
}

// Bumped returns the segments with the last one raised: the copy is written.
func (v *Version) Bumped() []int64 {
	s := v.Segments64()
	s[len(s)-1]++
	return s
}
