package readall

import (
	"bytes"
	"io"
	"strings"
)

func Count(r io.Reader) (int, error) {
	data, err := io.ReadAll(r) // want `io.ReadAll\(r\) reads the whole input into one buffer it grows by doubling`
	if err != nil {
		return 0, err
	}
	return bytes.Count(data, []byte("\n")), nil
}

type Decoder struct{ r io.Reader }

func NewDecoder(r io.Reader) *Decoder { return &Decoder{r: r} }

func Decode(data string) (int, error) {
	return NewDecoder(strings.NewReader(data)).Decode()
}

func (d *Decoder) Decode() (int, error) {
	data, err := io.ReadAll(d.r) // want `io.ReadAll\(d.r\) reads the whole input`
	return len(string(data)), err
}
