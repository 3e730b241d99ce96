package oninputsloop

import "strconv"

// One converts its parameter once.
func One(x int) int {
	return len(strconv.Itoa(x)) // want `strconv.Itoa\(x\) works on what One is given \(x\)`
}

// Each converts every element.
func Each(xs []int) int {
	n := 0
	for _, x := range xs {
		n += len(strconv.Itoa(x)) // want `strconv.Itoa\(x\) works on what Each is given \(xs\)`
	}
	return n
}
