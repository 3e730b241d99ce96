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
