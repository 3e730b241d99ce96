package gotest

import (
	"bytes"
	"fmt"
)

// OutputLimit bounds what is kept of a benchmark's output: the first and
// the last OutputLimit bytes of each stream, and of each line. A benchmark
// may print hundreds of megabytes; perfloop needs only the testing
// package's lines and enough of the rest to explain a failure.
const OutputLimit = 64 << 10

// capture is an io.Writer that keeps the first and the last limit bytes
// written to it and counts the rest.
type capture struct {
	limit   int
	head    []byte
	tail    []byte // the bytes after head; trimmed to the last limit bytes
	total   int64
	dropped bool
}

func newCapture(limit int) *capture { return &capture{limit: limit} }

func (c *capture) Write(p []byte) (int, error) {
	n := len(p)
	c.total += int64(n)
	if room := c.limit - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 {
		return n, nil
	}
	if len(p) >= c.limit {
		c.dropped = c.dropped || len(c.tail) > 0 || len(p) > c.limit
		c.tail = append(c.tail[:0], p[len(p)-c.limit:]...)
		return n, nil
	}
	c.tail = append(c.tail, p...)
	if len(c.tail) > 2*c.limit {
		c.tail = c.tail[:copy(c.tail, c.tail[len(c.tail)-c.limit:])]
		c.dropped = true
	}
	return n, nil
}

// Bytes returns what was kept: everything written when it fit, or else
// the head, a line saying how much was left out, and the tail.
func (c *capture) Bytes() []byte {
	tail := c.tail
	if len(tail) > c.limit {
		tail = tail[len(tail)-c.limit:]
	}
	kept := int64(len(c.head) + len(tail))
	if kept == c.total {
		return append(append([]byte(nil), c.head...), tail...)
	}
	var b bytes.Buffer
	b.Write(c.head)
	fmt.Fprintf(&b, "\n[… %d bytes of output left out …]\n", c.total-kept)
	b.Write(tail)
	return b.Bytes()
}

// lineWriter is an io.Writer that splits what is written into lines and
// calls fn with each complete line, without its newline (and a trailing
// carriage return). Of a line longer than 2×limit only the first and the
// last limit bytes are kept and passed on, with cut set, so memory stays
// bounded whatever a benchmark prints. Call flush at the end for a last line
// without a newline.
type lineWriter struct {
	fn    func(line []byte, cut bool)
	limit int
	head  []byte
	tail  []byte // bytes after head, trimmed to the last limit bytes
	cut   bool
	line  []byte // scratch for head+tail
}

func newLineWriter(limit int, fn func(line []byte, cut bool)) *lineWriter {
	return &lineWriter{fn: fn, limit: limit}
}

func (w *lineWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.add(p)
			break
		}
		w.add(p[:i])
		w.emit()
		p = p[i+1:]
	}
	return n, nil
}

func (w *lineWriter) add(p []byte) {
	if room := w.limit - len(w.head); room > 0 {
		k := min(room, len(p))
		w.head = append(w.head, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 {
		return
	}
	if len(p) >= w.limit {
		w.cut = w.cut || len(w.tail) > 0 || len(p) > w.limit
		w.tail = append(w.tail[:0], p[len(p)-w.limit:]...)
		return
	}
	w.tail = append(w.tail, p...)
	if len(w.tail) > 2*w.limit {
		w.tail = w.tail[:copy(w.tail, w.tail[len(w.tail)-w.limit:])]
		w.cut = true
	}
}

func (w *lineWriter) emit() {
	head, tail := w.head, w.tail
	if len(tail) > 0 {
		tail = bytes.TrimSuffix(tail, []byte("\r"))
	} else {
		head = bytes.TrimSuffix(head, []byte("\r"))
	}
	if len(tail) > w.limit {
		tail = tail[len(tail)-w.limit:]
		w.cut = true
	}
	w.line = append(append(w.line[:0], head...), tail...)
	w.fn(w.line, w.cut)
	w.head, w.tail, w.cut = w.head[:0], w.tail[:0], false
}

// flush passes on a last line that has no newline.
func (w *lineWriter) flush() {
	if len(w.head) > 0 || len(w.tail) > 0 {
		w.emit()
	}
}
