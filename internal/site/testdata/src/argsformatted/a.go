package argsformatted

import "fmt"

func getMessageln(fmtArgs []interface{}) string {
	msg := fmt.Sprintln(fmtArgs...) // want `getMessageln formats getMessageln's own arguments \(fmtArgs..., its ...any parameter\) with fmt.Sprintln`
	return msg[:len(msg)-1]
}

func getMessage(template string, fmtArgs []interface{}) string {
	if template == "" {
		return fmt.Sprint(fmtArgs...) // want `getMessage formats getMessage's own arguments`
	}
	return fmt.Sprintf(template, fmtArgs...) // want `getMessage formats getMessage's own arguments`
}

func Infof(format string, args ...any) string {
	return fmt.Sprintf(format, args...) // want `Infof formats Infof's own arguments`
}

// Its own values, not the caller's: not this shape.
func label(id int, name string) string {
	parts := []any{id, name}
	return fmt.Sprint(parts...)
}
