package partsapart

type Capture struct{ Index, Length int }

// Group is embedded by value: its Captures are in the Match's memory.
type Group struct {
	Captures []Capture
	Capture
}

// Match is a value whose slices are made at three places.
type Match struct {
	matchcount []int
	matches    [][]int
	Group
	hook *Hook
}

// Hook is held through a pointer: its slices are its own.
type Hook struct{ calls []int }

func (m *Match) hooked() {
	m.hook.calls = make([]int, 4)
}

func newMatch(capcount int) *Match {
	counts := make([]int, capcount+2) // want `Match's parts are allocated one by one: matchcount and matches \(newMatch, line \d+\), matches\[c\] \(addMatch, line \d+\), Captures \(tidy, line \d+\) — slices that live and die with the Match, an allocation each`
	m := &Match{                      // want `Match's parts are allocated one by one`
		matchcount: counts[:capcount:capcount],
		matches:    make([][]int, capcount), // want `Match's parts are allocated one by one`
	}
	m.matches[0] = counts[capcount:]
	return m
}

func (m *Match) addMatch(c, start, l int) {
	if m.matches[c] == nil {
		m.matches[c] = make([]int, 2) // want `Match's parts are allocated one by one`
	}
	n := m.matchcount[c]
	if n*2+2 > len(m.matches[c]) {
		// Growth: a local, then stored; not a part.
		grown := make([]int, n*8)
		copy(grown, m.matches[c])
		m.matches[c] = grown
	}
	m.matches[c][n*2], m.matches[c][n*2+1] = start, l
	m.matchcount[c]++
}

func (m *Match) tidy() {
	m.Captures = []Capture{m.Capture} // want `Match's parts are allocated one by one`
}

// Buffer has one part, regrown from its own length, and a slice grown by
// append: neither is a second part.
type Buffer struct {
	buf  []byte
	list []int
	seen map[string]bool
}

func NewBuffer() *Buffer {
	return &Buffer{buf: make([]byte, 64), seen: make(map[string]bool)}
}

func (b *Buffer) grow() {
	b.buf = make([]byte, 2*len(b.buf))
}

func (b *Buffer) add(x int) {
	b.list = append(b.list, x)
}

// table's slices are as long as its input: a table over the input, not
// small parts.
type table struct {
	data    []byte
	closeAt []int
	nested  []bool
}

func (t *table) ensure() {
	n := len(t.data)
	t.closeAt = make([]int, len(t.data))
	t.nested = make([]bool, n)
}

// writer's stacks grow by append: made with it, but not parts of a fixed
// size.
type writer struct {
	intStack []int
	emitted  []int
	names    []string
}

func newWriter() *writer {
	return &writer{intStack: make([]int, 0, 32), emitted: make([]int, 0, 32), names: []string{"x"}}
}

func (w *writer) push(i int) {
	w.intStack = append(w.intStack, i)
	w.emitted = append(w.emitted, i)
}

// Queue's array is regrown with its contents carried over (the old array
// kept, then copied into the new one): growth, not a part made on first
// use; made with its header buffer, they are two parts.
type Queue struct {
	array    []byte
	header   []byte
	capacity int
}

func NewQueue(n int) *Queue {
	return &Queue{array: make([]byte, n), header: make([]byte, 5), capacity: n} // want `Queue's parts are allocated one by one: array and header \(NewQueue, line 116\) —` `Queue.s parts are allocated one by one: array and header` `Queue.s parts`
}

func (q *Queue) allocateMore(min int) {
	q.capacity = 2 * (q.capacity + min)
	old := q.array
	q.array = make([]byte, q.capacity)
	copy(q.array, old)
}

// Two fixed-size headers converted to a named slice type, made with the
// stream.
type header []byte

type Stream struct {
	controlHdr header
	sendHdr    header
	recvCh     chan struct{}
}

func newStream() *Stream {
	return &Stream{ // want `Stream.s parts are allocated one by one`
		controlHdr: header(make([]byte, 12)), // want `Stream's parts are allocated one by one`
		sendHdr:    header(make([]byte, 12)), // want `Stream's parts are allocated one by one`
		recvCh:     make(chan struct{}, 1),
	}
}

// A header made again after a failed send, which may still hold the old
// one: not a part made on first use.
func (s *Stream) write(send func(header) error) error {
	if err := send(s.sendHdr); err != nil {
		s.sendHdr = header(make([]byte, 12))
		return err
	}
	return nil
}

// A split kept from use to use: each part made only when it is short
// (brotli's buildMetaBlock), resliced otherwise: not parts to carve.
type split struct {
	literalMap  []uint32
	distanceMap []uint32
}

func buildSplit(mb *split, n, m int) {
	if cap(mb.literalMap) < n {
		mb.literalMap = make([]uint32, n)
	} else {
		mb.literalMap = mb.literalMap[:n]
	}
	if cap(mb.distanceMap) < m {
		mb.distanceMap = make([]uint32, m)
	} else {
		mb.distanceMap = mb.distanceMap[:m]
	}
}
