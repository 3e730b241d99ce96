package registryunset

import "sync"

var acronyms = sync.Map{}

// ConfigureAcronym fills the registry.
func ConfigureAcronym(key, val string) { acronyms.Store(key, val) }

func ToCamel(s string) string {
	if a, ok := acronyms.Load(s); ok { // want `ToCamel looks its input up in acronyms, a sync.Map, on every call, though only ConfigureAcronym store into it`
		return a.(string)
	}
	return s
}

var cache sync.Map

// Lookup fills what it looks up: a cache, nothing to say.
func Lookup(k string) string {
	if v, ok := cache.Load(k); ok {
		return v.(string)
	}
	cache.Store(k, k)
	return k
}

// A field filled only by an exported configuring method.
type TypeConverters struct{ convs sync.Map }

func (c *TypeConverters) RegisterTypeConverters(k string, v any) { c.convs.Store(k, v) }

func (c *TypeConverters) getTypeConverter(k string) (any, bool) {
	return c.convs.Load(k) // want `getTypeConverter looks its input up in convs, a sync.Map, on every call, though only RegisterTypeConverters store into it`
}

// A field the package fills itself, through an unexported function: a
// cache, nothing to say.
type config struct{ decoders sync.Map }

func (c *config) addDecoder(k string, v any) { c.decoders.Store(k, v) }

func (c *config) getDecoder(k string) (any, bool) { return c.decoders.Load(k) }

func (c *config) DecoderOf(k string) any {
	if d, ok := c.getDecoder(k); ok {
		return d
	}
	c.addDecoder(k, k)
	return k
}
