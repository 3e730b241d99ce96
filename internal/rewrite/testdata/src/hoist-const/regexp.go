package hoistconst

import "regexp"

// Valid compiles its pattern on every call.
func Valid(s string) bool {
	return regexp.MustCompile(`^[a-z]+$`).MatchString(s) // want `compiles the same constant on every call`
}
