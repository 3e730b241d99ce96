package bufferfromnil

import "strconv"

// Version is a parsed version.
type Version struct {
	segments []int64
	pre      string
}

// String formats the version.
func (v *Version) String() string {
	return string(v.bytes())
}

func (v *Version) bytes() []byte {
	var buf []byte // want `bytes builds buf by 3 appends from nil and returns it, and string\(v.bytes\(\)\) \(line 13\) converts it to a string at once`
	for i, s := range v.segments {
		if i > 0 {
			buf = append(buf, '.')
		}
		buf = strconv.AppendInt(buf, s, 10)
	}
	if v.pre != "" {
		buf = append(buf, v.pre...)
	}
	return buf
}

// Raw returns the bytes for a writer: nobody converts them.
func (v *Version) Raw() []byte {
	var buf []byte
	buf = append(buf, v.pre...)
	buf = append(buf, '\n')
	return buf
}
