package rescanrest

import "bytes"

func findEarliest(data []byte, starts []byte) int {
	earliest := -1
	for _, b := range starts {
		if idx := bytes.IndexByte(data, b); idx >= 0 { // want `findEarliest searches all of data once per needle \(bytes.IndexByte\(data, b\)\), keeping the earliest hit.*; IsMatch calls it on haystack\[i \+ 1:\] in its loop \(line 22\)`
			if earliest < 0 || idx < earliest {
				earliest = idx
			}
		}
	}
	return earliest
}

func IsMatch(haystack []byte, starts []byte, step func(byte) bool) bool {
	for i := 0; i < len(haystack); i++ {
		if step(haystack[i]) {
			return true
		}
		skip := findEarliest(haystack[i+1:], starts)
		if skip < 0 {
			return false
		}
		i += skip
	}
	return false
}

// Called once on the whole input: one scan per needle, no rescan.
func First(haystack, starts []byte) int {
	return findEarliest(haystack, starts)
}
