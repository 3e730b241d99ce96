package encodedconcat

import (
	"encoding/base64"
	"encoding/hex"
)

type Token struct{ sig []byte }

func (*Token) EncodeSegment(seg []byte) string {
	return base64.RawURLEncoding.EncodeToString(seg)
}

func (t *Token) SigningString(h, c []byte) string {
	return t.EncodeSegment(h) + "." + t.EncodeSegment(c) // want `SigningString returns a concatenation of 3 pieces, t.EncodeSegment\(h\) and t.EncodeSegment\(c\) encoded into a string of its own first`
}

func Signed(s string, sig []byte) string {
	return s + "." + hex.EncodeToString(sig) // want `Signed returns a concatenation of 3 pieces, hex.EncodeToString\(sig\) encoded`
}

// Plain strings: nothing encoded first.
func Join(a, b string) string {
	return a + "." + b
}
