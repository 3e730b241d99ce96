package ifacevarloop

import (
	"encoding/binary"
	"hash"
	"hash/fnv"
)

var binaryOrder binary.ByteOrder = binary.BigEndian

func LittleEndian() { binaryOrder = binary.LittleEndian }

func decode(chunk []uint64, buffer []byte) {
	for i := range chunk {
		chunk[i] = binaryOrder.Uint64(buffer[8*i:]) // want `decode calls binaryOrder.Uint64 once per iteration of the loop at lines 14–16 through binaryOrder, a package-level variable of interface type binary.ByteOrder the package sets only to binary.BigEndian or binary.LittleEndian: a dynamic call per element`
	}
}

// once calls it outside any loop: one dynamic call.
func once(buffer []byte) uint64 { return binaryOrder.Uint64(buffer) }

// Hasher is set from a caller's value: any type may come.
var Hasher hash.Hash64 = fnv.New64()

func SetHasher(h hash.Hash64) { Hasher = h }

func sum(parts [][]byte) uint64 {
	for _, p := range parts {
		Hasher.Write(p)
	}
	return Hasher.Sum64()
}
