package errdiscarded

import (
	"strconv"
	"testing"
)

func BenchmarkMarshal(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_, _ = Marshal(map[string]any{"Name": 1}) // want `BenchmarkMarshal drops the error Marshal returns, to _, in its loop`
	}
}

func BenchmarkValidate(b *testing.B) {
	for b.Loop() {
		Validate(1) // want `BenchmarkValidate drops the error Validate returns, as a statement, in its loop`
	}
}

// The error checked, a result without an error, another package's
// error: nothing to say.
func BenchmarkChecked(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := Marshal(1); err != nil {
			b.Fatal(err)
		}
		_ = Size(1)
		_, _ = strconv.Atoi("1")
		out, err := Marshal(2)
		_, _ = out, err
	}
}
