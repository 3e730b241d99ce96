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
