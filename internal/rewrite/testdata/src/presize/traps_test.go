package presize

import "testing"

// TestParseIntsNil is the test that sees nil: a failure on the first part
// returns no slice at all.
func TestParseIntsNil(t *testing.T) {
	got, err := ParseInts([]string{"x", "1"})
	if err == nil || got != nil {
		t.Errorf("ParseInts = %v, %v; want nil and an error", got, err)
	}
}
