package sliceremade

type Reader struct {
	contextModes []byte
	storage      []byte
	n            int
}

// decode runs per block of a Reader that Reset reuses.
func decode(s *Reader, blockTypes int) {
	s.contextModes = make([]byte, blockTypes) // want `decode makes s.contextModes anew \(make\(\[\]byte, blockTypes\)\) at every call that reaches line 11, dropping the array s.contextModes held`
	s.n += len(s.contextModes)
}

// getStorage grows only when short: kept.
func (s *Reader) getStorage(size int) []byte {
	if len(s.storage) < size {
		s.storage = make([]byte, size)
	}
	return s.storage
}

type costModel struct{ costs []float32 }

func initCostModel(m *costModel, n int) {
	m.costs = make([]float32, n+2) // want `initCostModel makes m.costs \(make\(\[\]float32, n\+2\)\) at every call, and shortestPath declares model and passes &model \(line 31\): each call fills a new m, whose arrays are made anew every time`
}

func shortestPath(n int) float32 {
	var model costModel
	initCostModel(&model, n)
	return model.costs[0]
}

type hasher struct{ buckets []uint32 }

func newHasher() *hasher { return &hasher{} }

// Initialize runs once per hasher, just made.
func (h *hasher) Initialize(n int) {
	h.buckets = make([]uint32, n)
}

func setup(n int) *hasher {
	self := newHasher()
	self.Initialize(n)
	return self
}

type table struct{ buckets []int }

// grow sizes the new array from the old: growth.
func (t *table) grow() { t.buckets = make([]int, len(t.buckets)<<1) }

// Through an interface, just made: once per value too.
type handle interface{ Setup(n int) }

type h6 struct{ table []uint32 }

func (h *h6) Setup(n int) { h.table = make([]uint32, n) }

func newHandle() handle { return &h6{} }

func choose(n int) handle {
	var self handle
	self = newHandle()
	self.Setup(n)
	return self
}
