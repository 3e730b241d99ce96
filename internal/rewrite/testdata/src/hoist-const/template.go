package hoistconst

import (
	"strings"
	"text/template"
)

const greeting = "hello {{.}}"

// Render parses its template on every call.
func Render(name string) string {
	t := template.Must(template.New("greet").Parse(greeting)) // want `compiles the same constant on every call`
	var b strings.Builder
	if err := t.Execute(&b, name); err != nil {
		return err.Error()
	}
	return b.String()
}
