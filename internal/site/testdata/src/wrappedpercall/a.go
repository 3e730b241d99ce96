package wrappedpercall

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"io"
	"net/http"
	"sync"
)

var pool = sync.Pool{New: func() any { return new(gzip.Reader) }}

// A pooled gzip.Reader reset onto each request's body: the body has no
// ReadByte, so Reset makes a new bufio.Reader every time.
func decompress(r *http.Request) error {
	gr := pool.Get().(*gzip.Reader)
	defer pool.Put(gr)
	if err := gr.Reset(r.Body); err != nil { // want `gzip.\(\*Reader\).Reset wraps r.Body, an io.ReadCloser with no ReadByte, in a new bufio.Reader \(a 4 KiB buffer\) on every call`
		return err
	}
	_, err := io.Copy(io.Discard, gr)
	return err
}

func open(body io.Reader) (*gzip.Reader, error) {
	return gzip.NewReader(body) // want `gzip.NewReader wraps body, an io.Reader with no ReadByte`
}

// An XML response written straight to the ResponseWriter.
func render(w http.ResponseWriter, v any) error {
	return xml.NewEncoder(w).Encode(v) // want `xml.NewEncoder wraps w, a net/http.ResponseWriter and not a \*bufio.Writer, in a new bufio.Writer`
}

// Readers that have ReadByte, and a buffered writer: used as they are.
func buffered(b []byte, br *bufio.Reader, bw *bufio.Writer, v any) error {
	if _, err := gzip.NewReader(bytes.NewReader(b)); err != nil {
		return err
	}
	if _, err := gzip.NewReader(br); err != nil {
		return err
	}
	return xml.NewEncoder(bw).Encode(v)
}
