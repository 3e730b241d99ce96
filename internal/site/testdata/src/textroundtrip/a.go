package textroundtrip

import "github.com/gofrs/uuid/v5"

// FromUUIDBytesWithPrefix encodes the UUID's bytes with a prefix.
func FromUUIDBytesWithPrefix(prefix string, bytes []byte) (string, error) {
	uidStr := uuid.FromBytesOrNil(bytes).String() // want `FromUUIDBytesWithPrefix formats uuid.FromBytesOrNil\(bytes\) as text \(uuid.FromBytesOrNil\(bytes\).String\(\)\) only for uuid.FromString at line 17, through FromUUIDWithPrefix, fromUUID, to parse it back into a uuid.UUID`
	return FromUUIDWithPrefix(prefix, uidStr)
}

// FromUUIDWithPrefix encodes the UUID's text with a prefix.
func FromUUIDWithPrefix(prefix string, uidStr string) (string, error) {
	return fromUUID(prefix, uidStr)
}

func fromUUID(prefix, uidStr string) (string, error) {
	uid, err := uuid.FromString(uidStr) // want `FromUUIDBytesWithPrefix formats`
	if err != nil {
		return "", err
	}
	return prefix + string(uid[:]), nil
}

// Label formats the UUID for a person: nothing parses it back.
func Label(u uuid.UUID) string {
	s := u.String()
	return "id " + s
}
