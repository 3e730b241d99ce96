package regexpformat

import "regexp"

var stringNumberRe = regexp.MustCompile(`^([-+]?\d*)(\.\d*)?$`)

var wordsRe = regexp.MustCompile(`^(foo|bar)+$`)

var units = []string{"k", "M", "G"}

var parseRe *regexp.Regexp

func init() {
	ri := `^([\-0-9.]+)\s?([`
	for _, u := range units {
		ri += u
	}
	ri += `]?)(.*)`
	parseRe = regexp.MustCompile(ri)
}

func TrimDecimal(s string) string {
	if m := stringNumberRe.FindStringSubmatch(s); m != nil { // want "TrimDecimal runs stringNumberRe, `\\^\\(\\[-\\+\\]\\?\\\\d\\*\\)\\(\\\\.\\\\d\\*\\)\\?\\$`, to take a fixed format apart"
		return m[1]
	}
	return s
}

func Parse(s string) []string {
	return parseRe.FindStringSubmatch(s) // want "Parse runs parseRe, a pattern built at init from"
}

// Alternatives of words: the engine earns its keep.
func Words(s string) bool { return wordsRe.MatchString(s) }
