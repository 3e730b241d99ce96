package mapkeybuilt

import (
	"strings"
	"sync"
)

var cache sync.Map

// Backref looks up a compiled pattern by its text and groups: the key is
// built for the lookup, hit or miss.
func Backref(input string, groups []string) any {
	key := input + "\000" + strings.Join(groups, "\000") // want `the key of the sync.Map cache is built on every lookup \(input \+ "\\000" \+ strings.Join\(groups, "\\000"\)\): building the string costs as much as the lookup it serves`
	if v, ok := cache.Load(key); ok {
		return v
	}
	return nil
}

// ByName looks up by a key it is given: no shape.
func ByName(name string) any {
	v, _ := cache.Load(name)
	return v
}
