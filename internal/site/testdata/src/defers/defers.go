package defers

import "sync"

var mu sync.Mutex

// Few returns and one defer: open-coded.
func Few(x int) int {
	mu.Lock()
	defer mu.Unlock()
	if x > 0 {
		return 1
	}
	return 0
}

// Many returns: 16 × 1 > 15.
func Many(r rune) (state int) {
	defer func() {
		if state < 0 {
			state = 0
		}
	}()
	switch r {
	case 'a':
		return 1
	case 'b':
		return 2
	case 'c':
		return 3
	case 'd':
		return 4
	case 'e':
		return 5
	case 'f':
		return 6
	case 'g':
		return 7
	case 'h':
		return 8
	case 'i':
		return 9
	case 'j':
		return 10
	case 'k':
		return 11
	case 'l':
		return 12
	case 'm':
		return 13
	case 'n':
		return 14
	case 'o':
		return 15
	}
	return -1
} // want `the defer at line 19 is not open-coded: Many has 16 return statements and 1 defer \(the compiler open-codes defers only when returns × defers ≤ 15\), so every call records it in the runtime and runs it through runtime.deferreturn at line 57`

// Fifteen returns and one defer: open-coded (the limit is inclusive).
func Fifteen(r rune) (state int) {
	defer func() {
		state++
	}()
	switch r {
	case 'a':
		return 1
	case 'b':
		return 2
	case 'c':
		return 3
	case 'd':
		return 4
	case 'e':
		return 5
	case 'f':
		return 6
	case 'g':
		return 7
	case 'h':
		return 8
	case 'i':
		return 9
	case 'j':
		return 10
	case 'k':
		return 11
	case 'l':
		return 12
	case 'm':
		return 13
	case 'n':
		return 14
	}
	return -1
}

// InLoop defers in a loop.
func InLoop(ms []*sync.Mutex) {
	for _, m := range ms {
		m.Lock()
		defer m.Unlock()
	}
} // want `the defer at line 101 is not open-coded: it is in a loop`

// Nested has its defer in a func literal of its own: the literal's
// returns are not the outer function's.
func Nested(xs []int) func() int {
	return func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(xs)
	}
}

// A scanner that loops back with goto: the defer after the label is in a
// loop for the compiler.
func nextToken(s []byte, end func(int)) int {
	i := 0
start:
	if i < len(s) && s[i] == ' ' {
		i++
		goto start
	}
	defer end(i)
	return i
} // want `the defer at line \d+ is not open-coded: it follows the label start, which the goto at line \d+ jumps back to`

// A goto forward: no loop.
func skip(s []byte, end func(int)) int {
	i := 0
	if len(s) == 0 {
		goto done
	}
	i++
done:
	defer end(i)
	return i
}
