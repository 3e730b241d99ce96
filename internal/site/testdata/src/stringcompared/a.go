package stringcompared

import "strconv"

// Version is a parsed version.
type Version struct {
	segments []int64
	pre      string
	original string
}

// String formats the version.
func (v *Version) String() string {
	return string(v.bytes())
}

func (v *Version) bytes() []byte {
	var buf []byte
	for i, s := range v.segments {
		if i > 0 {
			buf = append(buf, '.')
		}
		buf = strconv.AppendInt(buf, s, 10)
	}
	return buf
}

// Original returns the text the version was parsed from.
func (v *Version) Original() string {
	return v.original
}

// Compare compares v with other.
func (v *Version) Compare(other *Version) int {
	if v.String() == other.String() { // want `Compare compares v.String\(\) with other.String\(\): String builds each text anew \(string\(v.bytes\(\)\)\) on every call, only for the two strings to be compared and dropped`
		return 0
	}
	if v.Original() == other.Original() { // a field: nothing built
		return 0
	}
	return len(v.segments) - len(other.segments)
}

// Same compares a version with a string.
func (v *Version) Same(s string) bool {
	return v.String() == s // one side only: the caller's text
}
