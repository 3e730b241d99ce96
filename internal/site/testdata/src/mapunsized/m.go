package mapunsized

import "strings"

func linesToStrings(text1, text2 string) []string {
	lineArray := []string{""}
	lineHash := make(map[string]int)
	munge(text1, &lineArray, lineHash)
	munge(text2, &lineArray, lineHash)
	return lineArray
}

func munge(text string, lineArray *[]string, lineHash map[string]int) {
	for _, line := range strings.Split(text, "\n") {
		if _, ok := lineHash[line]; !ok {
			*lineArray = append(*lineArray, line)
			lineHash[line] = len(*lineArray) - 1 // want `lineHash\[line\] stores into lineHash, made without a size \(line 7 in linesToStrings\), once per iteration of the loop at lines 14–19`
		}
	}
}

// Count fills its own map in a loop: the presize rewrite's shape.
func Count(words []string) map[string]int {
	m := map[string]int{}
	for _, w := range words {
		m[w]++ // the presize rewrite's case, not this matcher's
	}
	return m
}

// Sized is made with a size.
func Sized(words []string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// Once stores outside any loop.
func Once(k string) map[string]int {
	m := make(map[string]int)
	m[k] = 1
	return m
}

type decoder struct{ data []byte }

func (d *decoder) next() (any, any) { return nil, nil }

// parseMap reads its entry count from the header, then makes the map
// without it.
func (d *decoder) parseMap() map[any]any {
	count := int(d.data[0])
	m := make(map[any]any)
	for i := 0; i < count; i++ {
		k, e := d.next()
		m[k] = e // want `m\[k\] stores one entry per iteration of the loop at lines 56–59, which runs count times, a count known before the loop; m was made without a size \(line 55\)`
	}
	return m
}

// parseUntil stops at a marker: its count is not the loop's.
func (d *decoder) parseUntil() map[any]any {
	m := make(map[any]any)
	for i := 0; i < len(d.data); i++ {
		if d.data[i] == 0xff {
			break
		}
		k, e := d.next()
		m[k] = e
		i++
	}
	return m
}

// parseEither has a count when the header gives one, a marker when not.
func (d *decoder) parseEither(hasSize bool) map[any]any {
	count := int(d.data[0])
	m := make(map[any]any)
	for i := 0; (hasSize && i < count) || (!hasSize && d.data[i] != 0xff); i++ {
		k, e := d.next()
		if k == nil {
			i++
			return m
		}
		m[k] = e // want `m\[k\] stores one entry per iteration of the loop at lines 81–88, which runs count times where its condition's i < count decides`
	}
	return m
}

// parseOf stores values of a type parameter, whose size is not known.
func parseOf[V any](count int, next func() (string, V)) map[string]V {
	m := make(map[string]V)
	for i := 0; i < count; i++ {
		k, e := next()
		m[k] = e // want `m\[k\] stores one entry per iteration of the loop at lines 95–98, which runs count times`
	}
	return m
}

// Cover walks a line through a grid, storing each cell it enters, until
// the walk passes the segment's end: the number of cells is found only
// by walking, so no count sizes the set.
func Cover(pts [][2]float64) map[[2]int]bool {
	set := make(map[[2]int]bool)
	walk(set, pts)
	return set
}

// Area fills its set by rows and hands it to the walk for the edges: its
// size is the walk's as well.
func Area(pts [][2]float64) map[[2]int]bool {
	set := make(map[[2]int]bool)
	rows(set, pts)
	return set
}

func rows(set map[[2]int]bool, pts [][2]float64) {
	for i := 0; i+1 < len(pts); i += 2 {
		for x := int(pts[i][0]); x < int(pts[i+1][0]); x++ {
			set[[2]int{x, i}] = true
		}
	}
	walk(set, pts)
}

func walk(set map[[2]int]bool, pts [][2]float64) {
	for i := 0; i < len(pts)-1; i++ {
		x, y := pts[i][0], pts[i][1]
		set[[2]int{int(x), int(y)}] = true
		tx, ty := 0.5, 0.25
		for tx < 1 || ty < 1 {
			if tx < ty {
				tx += 0.5
				x++
			} else {
				ty += 0.25
				y++
			}
			set[[2]int{int(x), int(y)}] = true
		}
	}
}
