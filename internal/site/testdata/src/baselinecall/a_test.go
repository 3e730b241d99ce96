package baselinecall

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

func unmarshalWithStdlibXML(r io.Reader) error { // want `unmarshalWithStdlibXML calls nothing of the module: it runs encoding/xml \(xml.NewDecoder, Decoder.Token\), so what its benchmarks measure is encoding/xml's cost, a comparison beside the module's`
	dec := xml.NewDecoder(r)
	for {
		_, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// unmarshalWithTokenizer runs the module: what its benchmarks measure.
func unmarshalWithTokenizer(r io.Reader) error {
	tok := New(r)
	for {
		_, err := tok.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// input builds what the benchmark hands the module: a fixture.
func input(n int) []byte {
	var v []map[string]int
	for i := range n {
		v = append(v, map[string]int{"i": i})
	}
	out, _ := json.Marshal(v)
	return out
}

// fill writes the fixture into its caller's buffer.
func fill(buf *bytes.Buffer) error {
	return json.NewEncoder(buf).Encode(map[string]int{"a": 1})
}

// run calls a function value: it may be the module's.
func run(f func() error) error {
	_, err := json.Marshal(f())
	return err
}

// lower calls only the harness's packages: no library it compares.
func lower(s string) error {
	_ = strings.ToLower(s)
	return nil
}

func BenchmarkToken(b *testing.B) {
	data := input(100)
	b.Run("stdlib", func(b *testing.B) {
		for b.Loop() {
			_ = unmarshalWithStdlibXML(bytes.NewReader(data))
		}
	})
	b.Run("tokenizer", func(b *testing.B) {
		for b.Loop() {
			_ = unmarshalWithTokenizer(bytes.NewReader(data))
		}
	})
	var buf bytes.Buffer
	_ = fill(&buf)
	_ = run(func() error { return nil })
	_ = lower("A")
}
