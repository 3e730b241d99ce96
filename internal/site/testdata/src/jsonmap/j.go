package jsonmap

import (
	"bytes"
	"encoding/json"
)

// Fields are a logger's fields.
type Fields map[string]interface{}

func format(b *bytes.Buffer, data Fields) error {
	return json.NewEncoder(b).Encode(data) // want `json.NewEncoder\(b\).Encode\(data\) encodes data \(Fields\) with encoding/json: on every call it sorts the map's keys`
}

func write(p []byte) (string, error) {
	var evt map[string]interface{}
	d := json.NewDecoder(bytes.NewReader(p))
	d.UseNumber()
	if err := d.Decode(&evt); err != nil { // want `d.Decode\(&evt\) decodes a whole JSON object into &evt \(map\[string\]interface\{\}\)`
		return "", err
	}
	s, _ := evt["message"].(string)
	return s, nil
}

func marshal(m map[string]any) ([]byte, error) {
	return json.Marshal(m) // want `json.Marshal\(m\) encodes m \(map\[string\]any\)`
}

// A struct or a map of strings is not this shape.
type event struct{ Message string }

func typed(p []byte) (event, error) {
	var e event
	err := json.Unmarshal(p, &e)
	return e, err
}

func strs(m map[string]string) ([]byte, error) { return json.Marshal(m) }

// Token is a parsed token whose Header the API exposes as a map.
type Token struct {
	Header map[string]any
	raw    map[string]any
}

func ParseToken(header []byte) (*Token, error) {
	t := &Token{}
	if err := json.Unmarshal(header, &t.Header); err != nil { // want `json.Unmarshal\(header, &t.Header\) decodes into Token.Header, a map\[string\]any the package's API exposes`
		return nil, err
	}
	if err := json.Unmarshal(header, &t.raw); err != nil { // want `decodes a whole JSON object into &t.raw`
		return nil, err
	}
	return t, nil
}

// Claims is the package's exported map type a caller passes to be filled.
type Claims map[string]any

func ParseClaims(b []byte, c Claims) error {
	return json.Unmarshal(b, &c) // want `json.Unmarshal\(b, &c\) decodes into &c, a Claims: the package's exported map type, which the caller chose`
}
