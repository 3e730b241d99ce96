package document

import (
	"slices"
	"strings"
	"testing"
)

func TestBenchKey(t *testing.T) {
	keys := []BenchKey{
		{"example.com/m", "BenchmarkA"},
		{"example.com/m", "BenchmarkA/size=10"},
		{"example.com/m/sub", "BenchmarkA"},
		{"example.com/m-x", "BenchmarkB"},
		{"gopkg.in/yaml.v3", "BenchmarkDecode/big_doc"},
		{"example.com/m", ""},
	}
	for _, k := range keys {
		if got := ParseBenchKey(k.String()); got != k {
			t.Errorf("ParseBenchKey(%q) = %+v, want %+v", k.String(), got, k)
		}
	}
	// Compare sorts as the String forms do, which the store's order and
	// the shard assignment's ties rely on.
	byKey := slices.SortedFunc(slices.Values(keys), BenchKey.Compare)
	byString := slices.SortedFunc(slices.Values(keys), func(a, b BenchKey) int { return strings.Compare(a.String(), b.String()) })
	if !slices.Equal(byKey, byString) {
		t.Errorf("Compare order %v, String order %v", byKey, byString)
	}
}
