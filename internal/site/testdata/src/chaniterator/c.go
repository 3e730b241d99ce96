package chaniterator

// Set is a set of ints.
type Set struct{ m map[int]struct{} }

// Iter sends every element from a goroutine.
func (s *Set) Iter() <-chan int {
	ch := make(chan int)
	go func() {
		for e := range s.m {
			ch <- e // want `Iter returns a channel that a goroutine it starts fills one element per send: every element costs a send, a receive and a hand-off between two goroutines`
		}
		close(ch)
	}()
	return ch
}

// Each calls f per element: the alternative already there.
func (s *Set) Each(f func(int) bool) {
	for e := range s.m {
		if f(e) {
			return
		}
	}
}

// Buffered hands off less often.
func Buffered(xs []string) chan string {
	out := make(chan string, len(xs))
	go func() {
		defer close(out)
		for _, x := range xs {
			out <- x // want `Buffered returns a channel that a goroutine it starts fills one element per send \(buffered: len\(xs\)`
		}
	}()
	return out
}

// Done sends once: a result, not an iterator.
func Done(f func() error) <-chan error {
	ch := make(chan error, 1)
	go func() {
		ch <- f()
	}()
	return ch
}

// Ticks returns a channel it does not fill itself.
func Ticks(in chan int) <-chan int {
	go func() {
		for v := range in {
			_ = v
		}
	}()
	return in
}
