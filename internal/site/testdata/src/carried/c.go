package carried

import (
	"crypto/rand"
	"io"
	"sync"
	"time"
)

type ID [20]byte

var (
	rander = rand.Reader
	mu     sync.Mutex
	buf    [16]byte
)

func New() (ID, error) {
	return NewWithTime(time.Now()) // want `New reads the clock once per call and hands the time to the value it returns: the time is what that value carries`
}

func NewWithTime(t time.Time) (id ID, err error) {
	mu.Lock()
	_, err = io.ReadAtLeast(rander, buf[:], len(buf)) // want `NewWithTime reads random bytes from rander, crypto/rand's reader, once per call \(a getrandom system call\): the randomness is what the value it makes carries`
	copy(id[4:], buf[:])
	mu.Unlock()
	id[0] = byte(t.Unix())
	return id, err
}

type UUID [16]byte

func NewRandom() (UUID, error) { return NewRandomFromReader(rander) }

func NewRandomFromReader(r io.Reader) (UUID, error) {
	var uuid UUID                     // want `uuid is read into through r, an io.Reader the compiler cannot see through, so uuid moves to the heap on every call \(16 bytes\)`
	_, err := io.ReadFull(r, uuid[:]) // want `NewRandomFromReader reads random bytes from r \(the package passes rander, crypto/rand's reader\), once per call`
	return uuid, err
}

// Elapsed reads the clock twice: "once per operation" fits it.
func Elapsed(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Now().Sub(start)
}

// Stamp reads the clock but its result does not carry it.
func Stamp(log func(time.Time)) int {
	log(time.Now())
	return 1
}

// Other reader: nothing to say.
func fill(r io.Reader, p []byte) (int, error) { return io.ReadFull(r, p) }
