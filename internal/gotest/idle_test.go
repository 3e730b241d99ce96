package gotest

import "testing"

func TestParseIdle(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"cpu  4705 356 584 3699176 23 23 0 0 0 0\ncpu0 1393280 32966 572056 13343292 6130 0 17875 0 0 0\n", 3699199, true},
		{"cpu0 1 2 3 4 5 6\n", 0, false}, // no aggregate line
		{"cpu  1 2 3 x 5 6\n", 0, false}, // junk
		{"cpu  1 2 3\n", 0, false},       // too short
		{"", 0, false},
	} {
		got, ok := parseIdle([]byte(tc.in))
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseIdle(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// FuzzParseIdle: /proc/stat is outside input; whatever it holds, no panic.
func FuzzParseIdle(f *testing.F) {
	f.Add([]byte("cpu  4705 356 584 3699176 23 23 0 0 0 0\n"))
	f.Fuzz(func(t *testing.T, b []byte) { parseIdle(b) })
}
