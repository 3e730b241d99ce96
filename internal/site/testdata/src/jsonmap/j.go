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
