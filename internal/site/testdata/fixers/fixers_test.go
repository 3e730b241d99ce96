package fixers

import "testing"

func TestJoin(t *testing.T) {
	if Join([]string{"a", "b"}) != "ab" {
		t.Fail()
	}
}
