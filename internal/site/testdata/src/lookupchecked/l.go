package lookupchecked

type info struct{ digits uint8 }

var currencies = map[string]info{"EUR": {2}, "JPY": {0}}

func IsValid(code string) bool {
	if code == "" {
		return false
	}
	_, ok := currencies[code]
	return ok
}

func GetDigits(code string) (uint8, bool) {
	if !IsValid(code) {
		return 0, false
	}
	return currencies[code].digits, true // want `GetDigits asks IsValid\(code\) whether code is in currencies \(a lookup at line 11\), then looks it up again here`
}

// Another key: two values.
func Other(code, other string) uint8 {
	if !IsValid(code) {
		return 0
	}
	return currencies[other].digits
}
