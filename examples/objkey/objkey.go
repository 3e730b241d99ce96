// Package objkey builds object-store keys such as
//
//	acme/2026/11/21/shard-007/obj-000123.json
//
// from a [Key]. It is one of perfloop's bundled example targets: the four
// builders below produce the same bytes at very different costs, and two
// helpers carry the kind of hidden heap allocation that only escape analysis
// explains.
//
//   - [SprintfKey]: fmt.Sprintf. Shortest to write; every operand is boxed
//     into an interface and the format string is parsed on every call.
//   - [ConcatKey]: + over strconv results. Allocates each padded number and
//     then the result.
//   - [BuilderKey]: strings.Builder sized with Grow. One allocation, the
//     result itself.
//   - [AppendKey]: strconv-style appending to a caller's []byte. No
//     allocation when the caller reuses its buffer.
//
// [WriteKey] streams a key to an io.Writer and [Hash] hashes a key without
// keeping it; both allocate on every call although neither looks like it.
//
// Years must be in 0..9999; numbers wider than their field are printed in
// full, as fmt's %0Nd does.
package objkey

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Key identifies one stored object.
type Key struct {
	Tenant string
	Date   time.Time // only the year, month and day in Date's location are used
	Shard  uint32    // printed with at least 3 digits
	Object uint32    // printed with at least 6 digits
	Ext    string    // file extension, without the dot
}

// Field widths: year, month, day, shard, object.
const (
	yearWidth   = 4
	monthWidth  = 2
	dayWidth    = 2
	shardWidth  = 3
	objectWidth = 6
)

// SprintfKey returns k's key, built with fmt.Sprintf.
func SprintfKey(k Key) string {
	y, m, d := k.Date.Date()
	return fmt.Sprintf("%s/%04d/%02d/%02d/shard-%03d/obj-%06d.%s",
		k.Tenant, y, int(m), d, k.Shard, k.Object, k.Ext)
}

// ConcatKey returns k's key, built by concatenating strings with +.
func ConcatKey(k Key) string {
	y, m, d := k.Date.Date()
	return k.Tenant + "/" + pad(uint64(y), yearWidth) + "/" + pad(uint64(m), monthWidth) +
		"/" + pad(uint64(d), dayWidth) + "/shard-" + pad(uint64(k.Shard), shardWidth) +
		"/obj-" + pad(uint64(k.Object), objectWidth) + "." + k.Ext
}

// pad formats v in decimal, left-padded with zeros to width digits.
func pad(v uint64, width int) string {
	s := strconv.FormatUint(v, 10)
	if len(s) < width {
		s = strings.Repeat("0", width-len(s)) + s
	}
	return s
}

// BuilderKey returns k's key, built with a strings.Builder grown to the
// key's exact length up front.
func BuilderKey(k Key) string {
	y, m, d := k.Date.Date()
	var b strings.Builder
	b.Grow(k.Len())
	var num [20]byte // room for any uint64
	b.WriteString(k.Tenant)
	b.WriteByte('/')
	b.Write(appendPadded(num[:0], uint64(y), yearWidth))
	b.WriteByte('/')
	b.Write(appendPadded(num[:0], uint64(m), monthWidth))
	b.WriteByte('/')
	b.Write(appendPadded(num[:0], uint64(d), dayWidth))
	b.WriteString("/shard-")
	b.Write(appendPadded(num[:0], uint64(k.Shard), shardWidth))
	b.WriteString("/obj-")
	b.Write(appendPadded(num[:0], uint64(k.Object), objectWidth))
	b.WriteByte('.')
	b.WriteString(k.Ext)
	return b.String()
}

// AppendKey appends k's key to dst and returns the extended slice, in the
// manner of strconv.AppendInt.
func AppendKey(dst []byte, k Key) []byte {
	y, m, d := k.Date.Date()
	dst = append(dst, k.Tenant...)
	dst = append(dst, '/')
	dst = appendPadded(dst, uint64(y), yearWidth)
	dst = append(dst, '/')
	dst = appendPadded(dst, uint64(m), monthWidth)
	dst = append(dst, '/')
	dst = appendPadded(dst, uint64(d), dayWidth)
	dst = append(dst, "/shard-"...)
	dst = appendPadded(dst, uint64(k.Shard), shardWidth)
	dst = append(dst, "/obj-"...)
	dst = appendPadded(dst, uint64(k.Object), objectWidth)
	dst = append(dst, '.')
	return append(dst, k.Ext...)
}

// appendPadded appends v in decimal, left-padded with zeros to width digits.
func appendPadded(dst []byte, v uint64, width int) []byte {
	for n := digits(v); n < width; n++ {
		dst = append(dst, '0')
	}
	return strconv.AppendUint(dst, v, 10)
}

// digits returns the number of decimal digits of v.
func digits(v uint64) int {
	n := 1
	for v >= 10 {
		v /= 10
		n++
	}
	return n
}

// Len returns the length in bytes of k's key.
func (k Key) Len() int {
	y, m, d := k.Date.Date()
	return len(k.Tenant) + len("/") + max(yearWidth, digits(uint64(y))) +
		len("/") + max(monthWidth, digits(uint64(m))) +
		len("/") + max(dayWidth, digits(uint64(d))) +
		len("/shard-") + max(shardWidth, digits(uint64(k.Shard))) +
		len("/obj-") + max(objectWidth, digits(uint64(k.Object))) +
		len(".") + len(k.Ext)
}

// WriteKey writes k's key to w piece by piece, as a manifest writer
// streaming millions of keys might, and returns the number of bytes written.
//
// The number scratch buffer is handed to w.Write, a call through an
// interface the compiler cannot see into, so it must assume w keeps the
// slice: num is moved to the heap, one allocation per call.
func WriteKey(w io.Writer, k Key) (int, error) {
	y, m, d := k.Date.Date()
	fields := [...]struct {
		sep   string
		v     uint64
		width int
	}{
		{"/", uint64(y), yearWidth},
		{"/", uint64(m), monthWidth},
		{"/", uint64(d), dayWidth},
		{"/shard-", uint64(k.Shard), shardWidth},
		{"/obj-", uint64(k.Object), objectWidth},
	}
	var num [20]byte
	total, err := io.WriteString(w, k.Tenant)
	for _, f := range fields {
		if err != nil {
			return total, err
		}
		var n int
		n, err = io.WriteString(w, f.sep)
		total += n
		if err != nil {
			return total, err
		}
		n, err = w.Write(appendPadded(num[:0], f.v, f.width))
		total += n
	}
	for _, s := range [...]string{".", k.Ext} {
		if err != nil {
			return total, err
		}
		var n int
		n, err = io.WriteString(w, s)
		total += n
	}
	return total, err
}

// FNV-1a parameters (hash/fnv).
const (
	offset64 = 14695981039346656037
	prime64  = 1099511628211
)

// Hash returns the 64-bit FNV-1a hash of k's key, as used to place objects
// on storage nodes. It builds the key in a scratch buffer that it throws
// away, yet the buffer is heap-allocated on every call. The compiler reports
// that it "does not escape", but its capacity is not a constant, so it cannot
// live in a fixed-size stack frame; since Go 1.25 only sizes up to 32 bytes
// get a stack buffer, and keys are longer than that.
func Hash(k Key) uint64 {
	buf := make([]byte, 0, k.Len())
	buf = AppendKey(buf, k)
	h := uint64(offset64)
	for _, c := range buf {
		h ^= uint64(c)
		h *= prime64
	}
	return h
}
