package stringappended

import (
	"net"
	"net/netip"
	"time"
)

type Encoder struct{}

func (Encoder) AppendString(dst []byte, s string) []byte { return append(dst, s...) }

func (e Encoder) AppendIPAddr(dst []byte, ip net.IP) []byte {
	return e.AppendString(dst, ip.String()) // want `ip.String\(\) makes a string only for e.AppendString to append it to dst: the text is allocated, then copied again; net.IP has AppendText`
}

func appendAddr(dst []byte, a netip.Addr) []byte {
	return append(dst, a.String()...) // want `a.String\(\) makes a string only for append to append it to dst.*netip.Addr has AppendText`
}

// A duration has no append form of its String text.
func appendDur(dst []byte, d time.Duration) []byte {
	return append(dst, d.String()...)
}
