package builder

import "strings"

// Lines joins the non-empty lines, each with a newline.
func Lines(xs []string) string {
	var text string
	for _, x := range xs {
		if strings.TrimSpace(x) == "" {
			continue
		}
		text = text + x + "\n" // want `is built with \+= in a loop`
	}
	return strings.TrimSuffix(text, "\n")
}
