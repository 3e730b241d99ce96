package ignoredparam

import "testing"

type Claims interface{ Valid() bool }

type MapClaims map[string]any

func (MapClaims) Valid() bool { return true }

type RegisteredClaims struct{ Issuer string }

func (*RegisteredClaims) Valid() bool { return true }

func parse(token string, c Claims) bool { return c.Valid() && token != "" }

func BenchmarkParse(b *testing.B) {
	b.Run("map_claims", func(b *testing.B) { benchmarkParsing(b, "t", MapClaims{}) })
	b.Run("registered_claims", func(b *testing.B) { benchmarkParsing(b, "t", &RegisteredClaims{}) })
}

func benchmarkParsing(b *testing.B, token string, claims Claims) { // want `BenchmarkParse: benchmarkParsing never reads its parameter claims, which its callers set to MapClaims\{\}, &RegisteredClaims\{\}`
	for b.Loop() {
		parse(token, MapClaims{})
	}
}

// Every parameter read: nothing to say.
func benchmarkSize(b *testing.B, n int) {
	s := make([]int, n)
	for b.Loop() {
		_ = len(s)
	}
}

func BenchmarkSizes(b *testing.B) {
	b.Run("10", func(b *testing.B) { benchmarkSize(b, 10) })
	b.Run("100", func(b *testing.B) { benchmarkSize(b, 100) })
}

// Ignored, but every caller passes the same value.
func benchmarkOnce(b *testing.B, label string) {
	for b.Loop() {
		parse("t", MapClaims{})
	}
}

func BenchmarkOnce(b *testing.B) {
	b.Run("a", func(b *testing.B) { benchmarkOnce(b, "x") })
	b.Run("b", func(b *testing.B) { benchmarkOnce(b, "x") })
}
