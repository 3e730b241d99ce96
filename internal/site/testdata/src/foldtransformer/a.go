package foldtransformer

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/transform"
)

func stringTransform(s string, t transform.Transformer) string {
	out, _, err := transform.String(t, s)
	if err != nil {
		return s
	}
	return out
}

type foldTransformer struct{ transform.NopResetter }

func (foldTransformer) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for _, r := range string(src) { // want `foldTransformer maps each rune through unicode.ToLower, run through the x/text transform machinery`
		nSrc += utf8.RuneLen(r)
		r = unicode.ToLower(r)
		if utf8.RuneLen(r) > len(dst[nDst:]) {
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += utf8.EncodeRune(dst[nDst:], r)
	}
	return nDst, nSrc, nil
}

// A transformer that does something else: no report.
type dropper struct{ transform.NopResetter }

func (dropper) Transform(dst, src []byte, atEOF bool) (int, int, error) {
	return copy(dst, src), len(src), nil
}
