package carried

import "github.com/gofrs/uuid/v5"

// makeSuffix generates an ID's suffix: a new UUID per call is its job.
func makeSuffix() (string, error) {
	uid, err := uuid.NewV7() // want `makeSuffix calls uuid.NewV7\(\) with no argument, once per call: a new value each time \(random or time-ordered bytes\) is what the call is for, and what makeSuffix's result carries`
	if err != nil {
		return "", err
	}
	return string(uid[:]), nil
}
