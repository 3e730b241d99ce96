package copyrecopied

import (
	"encoding/binary"
	"sync"
)

type shard struct {
	lock    sync.RWMutex
	entries map[uint64][]byte
}

func (s *shard) getEntry(h uint64) ([]byte, error) {
	s.lock.RLock()
	entry := s.entries[h]
	newEntry := make([]byte, len(entry)) // want `getEntry returns a fresh copy of entry to setCurrent, which only reads from it \(readEntry, readKey, which copy parts out of it again\) and drops it`
	copy(newEntry, entry)
	s.lock.RUnlock()
	return newEntry, nil
}

func readTimestamp(data []byte) uint64 { return binary.LittleEndian.Uint64(data) }

func readKey(data []byte) string {
	n := binary.LittleEndian.Uint16(data[8:])
	dst := make([]byte, n)
	copy(dst, data[10:10+n])
	return string(dst)
}

func readEntry(data []byte) []byte {
	n := binary.LittleEndian.Uint16(data[8:])
	dst := make([]byte, len(data)-int(10+n))
	copy(dst, data[10+n:])
	return dst
}

type info struct {
	ts    uint64
	key   string
	value []byte
}

func setCurrent(s *shard, h uint64) info {
	entry, err := s.getEntry(h)
	if err != nil {
		return info{}
	}
	return info{ts: readTimestamp(entry), key: readKey(entry), value: readEntry(entry)}
}

// Get hands the copy to its caller, who keeps it: the copy is the API's.
func (s *shard) get(h uint64) ([]byte, error) {
	s.lock.RLock()
	e := s.entries[h]
	out := make([]byte, len(e))
	copy(out, e)
	s.lock.RUnlock()
	return out, nil
}

func Get(s *shard, h uint64) []byte {
	v, _ := s.get(h)
	return v
}

// A reader that keeps the slice it is given (stored): not only a read.
type holder struct{ b []byte }

func (s *shard) peek(h uint64) []byte {
	e := s.entries[h]
	c := make([]byte, len(e))
	copy(c, e)
	return c
}

func keep(hd *holder, s *shard, h uint64) {
	c := s.peek(h)
	hd.b = c
	_ = readKey(c)
}
