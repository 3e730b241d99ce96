package widekey

import "sync"

type cacheKey struct {
	fingerprint [32]byte
	rtype       uintptr
}

type config struct {
	cache sync.Map
	small sync.Map
}

func (c *config) getDecoder(fp [32]byte, rtype uintptr) any {
	key := cacheKey{fingerprint: fp, rtype: rtype}
	if dec, ok := c.cache.Load(key); ok { // want `getDecoder looks c.cache up with key, a 40-byte cacheKey \{fingerprint \[32\]byte; rtype uintptr\}`
		return dec
	}
	return nil
}

// A word-sized key, a string, a pointer: nothing to say.
type pair struct{ a, b uint32 }

func (c *config) small1(p pair, s string, x *int) {
	c.small.Load(p)
	c.small.Load(s)
	c.small.Load(x)
}
