package jsonscalar

import (
	"bytes"
	"encoding/json"
	"strings"
)

func encodeString(sb *strings.Builder, s string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil { // want `encodeString quotes the string s through a json.Encoder it makes for the call, and its Encode`
		return err
	}
	sb.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return nil
}

func quote(s string) string {
	b, _ := json.Marshal(s) // want `quote quotes the string s through json.Marshal`
	return string(b)
}

func value(v map[string]any) []byte {
	b, _ := json.Marshal(v) // a map: the encoder's job
	return b
}

// Stream writes each string with one encoder it is given.
func stream(enc *json.Encoder, ss []string) {
	for _, s := range ss {
		enc.Encode(s) // an encoder made elsewhere, for a stream
	}
}
