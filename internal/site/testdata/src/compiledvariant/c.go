package compiledvariant

import "regexp"

// Matcher matches strings.
type Matcher interface{ MatchString(string) bool }

// Selection holds strings.
type Selection struct{ items []string }

func compile(s string) Matcher {
	re, err := regexp.Compile(s) // want `compile compiles the string it is given on every call \(regexp.Compile\); 2 exported methods call it with their string argument each time, and each has a variant that takes the compiled value: Filter \(FilterMatcher\), Is \(IsMatcher\)`
	if err != nil {
		return nil
	}
	return re
}

// Filter keeps the items that match pattern.
func (s *Selection) Filter(pattern string) *Selection { return s.FilterMatcher(compile(pattern)) }

// FilterMatcher keeps the items m matches.
func (s *Selection) FilterMatcher(m Matcher) *Selection {
	var out []string
	for _, it := range s.items {
		if m.MatchString(it) {
			out = append(out, it)
		}
	}
	return &Selection{out}
}

// Is reports whether any item matches pattern.
func (s *Selection) Is(pattern string) bool { return s.IsMatcher(compile(pattern)) }

// IsMatcher reports whether m matches any item.
func (s *Selection) IsMatcher(m Matcher) bool { return len(s.FilterMatcher(m).items) > 0 }

func lone(s string) *regexp.Regexp {
	return regexp.MustCompile(s) // no variant takes *regexp.Regexp
}

// Grep has no compiled form.
func (s *Selection) Grep(pattern string) bool { return lone(pattern) != nil }
