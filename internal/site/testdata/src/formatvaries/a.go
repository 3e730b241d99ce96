package formatvaries

import "fmt"

func humanate(val float64, digits int, suffix string) string {
	ff := "%%.%df %%s"
	f := fmt.Sprintf(ff, digits)
	return fmt.Sprintf(f, val, suffix) // want `humanate formats val with f, a format built by fmt.Sprintf\(ff, digits\) at line 7 only to set the float's precision`
}

func big(val float64, suffix string) string {
	f := "%.0f %s"
	if val < 10 {
		f = "%.1f %s"
	}
	return fmt.Sprintf(f, val, suffix) // want `big formats val with f, a format chosen between 2 constant formats`
}

// A format of other verbs: fmt's work is the point.
func other(val float64, suffix string, quote bool) string {
	f := "%v %s"
	if quote {
		f = "%q %s"
	}
	return fmt.Sprintf(f, val, suffix)
}
