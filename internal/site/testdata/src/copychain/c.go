package copychain

import (
	"regexp"
	"strings"
)

var (
	nonAuthorized = regexp.MustCompile("[^a-z0-9-]")
	dashes        = regexp.MustCompile("-+")
	word          = regexp.MustCompile(`(\w+)@(\w+)`)
)

func Make(s string, lang string) (slug string) {
	slug = strings.TrimSpace(s)
	switch lang {
	case "de":
		slug = sub(slug, "ß") // want `Make passes slug through 5 calls that each return a new string \(sub, strings.ToLower, nonAuthorized.ReplaceAllString, dashes.ReplaceAllString, strings.Trim\), reassigning it each time`
	default:
		slug = sub(slug, "&")
	}
	slug = strings.ToLower(slug)
	slug = nonAuthorized.ReplaceAllString(slug, "-") // want `nonAuthorized is "\[\^a-z0-9-\]", one character class: ReplaceAllString runs the regexp engine once per match and builds a new string; dashes \("-\+"\) at line 24 makes another pass over its result`
	slug = dashes.ReplaceAllString(slug, "-")        // want `dashes is "-\+", one character, repeated: ReplaceAllString runs the regexp engine once per match`
	slug = strings.Trim(slug, "-")
	return slug
}

func sub(s, x string) string { return strings.ReplaceAll(s, x, "") }

// Two steps are no chain; a pattern with groups is no character class.
func Mail(s string) string {
	s = strings.ToLower(s)
	s = word.ReplaceAllString(s, "$1 at $2")
	return s
}
