package globalset

// MaxLength truncates when set.
var MaxLength = 0

// Lowercase is read by nothing a later benchmark calls.
var Lowercase = true

func IsSlug(s string) bool {
	if MaxLength > 0 && len(s) > MaxLength {
		return false
	}
	for _, c := range s {
		if c == ',' {
			return false
		}
	}
	return true
}

func Truncate(s string) string {
	if MaxLength > 0 && len(s) > MaxLength {
		return s[:MaxLength]
	}
	return s
}

func Lower(s string) string { return s }

var poolEnabled = false

// EnablePool turns the pool on for every later call.
func EnablePool() { poolEnabled = true }

// DisablePool turns it off.
func DisablePool() { poolEnabled = false }

func New() int {
	if poolEnabled {
		return 1
	}
	return 2
}
