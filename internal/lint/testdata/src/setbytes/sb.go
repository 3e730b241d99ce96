package setbytes

func Checksum(p []byte) uint32 {
	var s uint32
	for _, c := range p {
		s = s*31 + uint32(c)
	}
	return s
}
