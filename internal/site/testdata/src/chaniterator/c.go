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

// Iterator holds the channel a goroutine fills, and a stop channel.
type Iterator struct {
	C    <-chan int
	stop chan struct{}
}

func newIterator() (*Iterator, chan<- int, <-chan struct{}) {
	c := make(chan int)
	stop := make(chan struct{})
	return &Iterator{C: c, stop: stop}, c, stop
}

// Iterator hands out the channel inside an Iterator.
func (s *Set) Iterator() *Iterator {
	it, ch, stop := newIterator()
	go func() {
	L:
		for e := range s.m {
			select { // want `Iterator returns a channel that a goroutine it starts fills one element per send`
			case <-stop:
				break L
			case ch <- e:
			}
		}
		close(ch)
	}()
	return it
}

// Pool feeds workers it waits for: the function receives itself.
func Pool(xs []int) int {
	ch := make(chan int)
	go func() {
		for _, x := range xs {
			ch <- x
		}
		close(ch)
	}()
	n := 0
	for x := range ch {
		n += x
	}
	return n
}
