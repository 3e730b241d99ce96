package comparedcopy

import (
	"encoding/binary"
	"log"
	"unsafe"
)

func bytesToString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

func readKeyFromEntry(data []byte) string {
	n := binary.LittleEndian.Uint16(data[16:])
	dst := make([]byte, n)
	copy(dst, data[18:18+n])
	return bytesToString(dst)
}

func compareKeyFromEntry(data []byte, key string) bool {
	n := binary.LittleEndian.Uint16(data[16:])
	return bytesToString(data[18:18+n]) == key
}

type shard struct {
	verbose bool
	logger  *log.Logger
	entries map[uint64][]byte
}

func (s *shard) get(key string, h uint64) ([]byte, bool) {
	e := s.entries[h]
	if entryKey := readKeyFromEntry(e); key != entryKey { // want `get copies into a new entryKey \(readKeyFromEntry\) only to compare it with key, and to log it on the rare path`
		if s.verbose {
			s.logger.Printf("collision: %q and %q", key, entryKey)
		}
		return nil, false
	}
	return e, true
}

// The key kept in what is returned: the copy is needed.
type info struct{ key string }

func (s *shard) info(h uint64) info {
	k := readKeyFromEntry(s.entries[h])
	if k == "" {
		return info{}
	}
	return info{key: k}
}
