package hoistconst

import (
	"html/template"
	"io"
	"regexp"
	"strings"
)

// Dynamic compiles a pattern it is given.
func Dynamic(pattern, s string) bool {
	return regexp.MustCompile(pattern).MatchString(s) // no rewrite
}

// Local compiles a constant local to the function.
func Local(s string) bool {
	const p = `^\d+$`
	return regexp.MustCompile(p).MatchString(s) // no rewrite
}

// Longest changes the compiled expression.
func Longest(s string) string {
	re := regexp.MustCompile(`a+?`) // no rewrite
	re.Longest()
	return re.FindString(s)
}

// Funcs changes the template after parsing.
func Funcs(w io.Writer) error {
	t := template.Must(template.New("x").Parse(`{{.}}`)) // no rewrite
	t.Funcs(template.FuncMap{"up": strings.ToUpper})
	return t.Execute(w, 1)
}

// Invalid panics when called; hoisted, it would panic at start-up.
func Invalid(s string) bool {
	return regexp.MustCompile(`(`).MatchString(s) // no rewrite
}

// Returned lets the caller change it.
func Returned() *regexp.Regexp {
	return regexp.MustCompile(`x`) // no rewrite
}
