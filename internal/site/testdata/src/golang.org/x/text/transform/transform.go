// Package transform is a stub of golang.org/x/text/transform for tests.
package transform

type Transformer interface {
	Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error)
	Reset()
}

type NopResetter struct{}

func (NopResetter) Reset() {}

var ErrShortDst error

func String(t Transformer, s string) (string, int, error) { return s, len(s), nil }
