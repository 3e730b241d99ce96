package loops

// encode62 writes the base-62 digits of a 160-bit number held as five
// 32-bit words: one digit per pass over the words.
func encode62(dst []byte, parts [5]uint32) {
	const srcBase = 4294967296
	const dstBase = 62
	n := len(dst)
	bp := parts[:]
	bq := [5]uint32{}
	for len(bp) != 0 { // want `the loop at lines 11–25 runs while len\(bp\) != 0`
		quotient := bq[:0]
		remainder := uint64(0)
		for _, c := range bp { // want `the loop at lines 14–21 ranges over every element of bp.*: schoolbook base conversion: each pass of the loop at line 11 runs over every digit of bp, dividing the whole number by 62, and yields one output digit`
			value := uint64(c) + remainder*srcBase
			digit := value / dstBase
			remainder = value % dstBase
			if len(quotient) != 0 || digit != 0 {
				quotient = append(quotient, uint32(digit))
			}
		}
		n--
		dst[n] = byte(remainder)
		bp = quotient
	}
}

// decode62 turns 27 base-62 digits, one per byte, into 32-bit words.
func decode62(dst []uint32, parts [27]byte) {
	const srcBase = 62
	const dstBase = 4294967296
	n := len(dst)
	bp := parts[:]
	bq := [27]byte{}
	for len(bp) > 0 { // want `the loop at lines 35–49 runs while len\(bp\) > 0`
		quotient := bq[:0]
		remainder := uint64(0)
		for _, c := range bp { // want `the loop at lines 38–45 ranges over every byte of bp.*: schoolbook base conversion: each pass of the loop at line 35 runs over every digit of bp, dividing the whole number by 4294967296`
			value := uint64(c) + remainder*srcBase
			digit := value / dstBase
			remainder = value % dstBase
			if len(quotient) != 0 || digit != 0 {
				quotient = append(quotient, byte(digit))
			}
		}
		n--
		dst[n] = uint32(remainder)
		bp = quotient
	}
}
