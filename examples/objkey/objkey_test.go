package objkey_test

import (
	"bytes"
	"errors"
	"hash/fnv"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/perfloop/perfloop/examples/objkey"
)

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 13, 45, 0, 0, time.UTC) }

var keyTests = []struct {
	key  objkey.Key
	want string
}{
	{objkey.Key{"acme", date(2026, 11, 21), 7, 123, "json"}, "acme/2026/11/21/shard-007/obj-000123.json"},
	{objkey.Key{"t", date(2026, 1, 2), 0, 0, "bin"}, "t/2026/01/02/shard-000/obj-000000.bin"},
	{objkey.Key{"initech-eu", date(999, 12, 31), 1000, 4294967295, "parquet"},
		"initech-eu/0999/12/31/shard-1000/obj-4294967295.parquet"},
	{objkey.Key{"", date(2026, 7, 4), 42, 999999, ""}, "/2026/07/04/shard-042/obj-999999."},
	// The date is taken in its own location, not converted to UTC.
	{objkey.Key{"tz", time.Date(2026, 3, 1, 0, 30, 0, 0, time.FixedZone("CET", 3600)), 1, 1, "x"},
		"tz/2026/03/01/shard-001/obj-000001.x"},
}

// builders are the strategies that return a key.
var builders = []struct {
	name  string
	build func(objkey.Key) string
}{
	{"sprintf", objkey.SprintfKey},
	{"concat", objkey.ConcatKey},
	{"builder", objkey.BuilderKey},
	{"append", func(k objkey.Key) string { return string(objkey.AppendKey([]byte("prefix:"), k)[len("prefix:"):]) }},
	{"write", func(k objkey.Key) string {
		var buf bytes.Buffer
		n, err := objkey.WriteKey(&buf, k)
		if err != nil || n != buf.Len() {
			return "WriteKey error"
		}
		return buf.String()
	}},
}

func TestKeys(t *testing.T) {
	for _, tt := range keyTests {
		for _, b := range builders {
			if got := b.build(tt.key); got != tt.want {
				t.Errorf("%s(%+v) = %q; want %q", b.name, tt.key, got, tt.want)
			}
		}
		if got := tt.key.Len(); got != len(tt.want) {
			t.Errorf("Len(%+v) = %d; want %d", tt.key, got, len(tt.want))
		}
		h := fnv.New64a()
		h.Write([]byte(tt.want))
		if got, want := objkey.Hash(tt.key), h.Sum64(); got != want {
			t.Errorf("Hash(%+v) = %#x; want %#x", tt.key, got, want)
		}
	}
}

// TestKeysAgree checks every strategy against fmt.Sprintf on the benchmark keys.
func TestKeysAgree(t *testing.T) {
	for _, k := range benchKeys() {
		want := objkey.SprintfKey(k)
		for _, b := range builders {
			if got := b.build(k); got != want {
				t.Fatalf("%s(%+v) = %q; want %q", b.name, k, got, want)
			}
		}
	}
}

// failWriter accepts limit bytes, then fails.
type failWriter struct{ limit int }

var errFull = errors.New("full")

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.limit {
		n := w.limit
		w.limit = 0
		return n, errFull
	}
	w.limit -= len(p)
	return len(p), nil
}

func TestWriteKeyError(t *testing.T) {
	k := keyTests[0].key
	for limit := range len(keyTests[0].want) {
		n, err := objkey.WriteKey(&failWriter{limit}, k)
		if !errors.Is(err, errFull) || n != limit {
			t.Errorf("WriteKey into %d bytes = %d, %v; want %d, %v", limit, n, err, limit, errFull)
		}
	}
}

// benchKeys returns a deterministic set of keys of realistic spread.
func benchKeys() []objkey.Key {
	tenants := []string{"acme", "globex", "initech", "umbrella-eu", "hooli", "stark-industries"}
	exts := []string{"json", "parquet", "csv.gz"}
	rng := rand.New(rand.NewPCG(7, 11))
	start := date(2026, 1, 1)
	keys := make([]objkey.Key, 256)
	for i := range keys {
		keys[i] = objkey.Key{
			Tenant: tenants[rng.IntN(len(tenants))],
			Date:   start.AddDate(0, 0, rng.IntN(365)),
			Shard:  rng.Uint32N(512),
			Object: rng.Uint32N(1_000_000),
			Ext:    exts[rng.IntN(len(exts))],
		}
	}
	return keys
}

// Each benchmark builds one key per op, cycling through benchKeys so that no
// single key's digits decide the result.

func BenchmarkSprintfKey(b *testing.B) {
	keys := benchKeys()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		objkey.SprintfKey(keys[i%len(keys)])
		i++
	}
}

func BenchmarkConcatKey(b *testing.B) {
	keys := benchKeys()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		objkey.ConcatKey(keys[i%len(keys)])
		i++
	}
}

func BenchmarkBuilderKey(b *testing.B) {
	keys := benchKeys()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		objkey.BuilderKey(keys[i%len(keys)])
		i++
	}
}

func BenchmarkAppendKey(b *testing.B) {
	keys := benchKeys()
	buf := make([]byte, 0, 128)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		buf = objkey.AppendKey(buf[:0], keys[i%len(keys)])
		i++
	}
}

func BenchmarkWriteKey(b *testing.B) {
	keys := benchKeys()
	var buf bytes.Buffer
	buf.Grow(128)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		buf.Reset()
		if _, err := objkey.WriteKey(&buf, keys[i%len(keys)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkHash(b *testing.B) {
	keys := benchKeys()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		objkey.Hash(keys[i%len(keys)])
		i++
	}
}
