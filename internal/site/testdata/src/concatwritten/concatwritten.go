package concatwritten

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"strings"
)

type Renderer struct {
	last     int
	stripped bool
}

// A tag built from its name and attributes, returned as a string: the
// renderer's OutTag only writes it.
func TagWithAttributes(name string, attrs []string) string {
	return tagStart(name, attrs) + ">" // want `TagWithAttributes concatenates "<", tag, " ", strings.Join\(attrs, " "\), ">" into a new string at every call, and OutTag only writes it to w through Outs \(concatwritten.go:\d+\)`
}

func tagStart(name string, attrs []string) string {
	if len(attrs) == 0 {
		return name
	}
	return name + " " + strings.Join(attrs, " ")
}

// Outs writes s, filtered when tags are stripped.
func (r *Renderer) Outs(w io.Writer, s string) {
	r.last = len(s)
	if r.stripped {
		s = strings.ToLower(s)
	}
	io.WriteString(w, s)
}

func (r *Renderer) OutTag(w io.Writer, tag string, attrs []string) {
	r.Outs(w, TagWithAttributes("<"+tag, attrs))
}

// A pair concatenated into a buffer.
func pair(sb *strings.Builder, k, v string) {
	sb.WriteString(k + "=" + v) // want `pair concatenates k \+ "=" \+ v into a new string only to write it to sb: each piece is copied twice`
}

func line(b *bytes.Buffer, s string) {
	b.Write([]byte(s + "\n")) // want `line concatenates s \+ "\\n" into a new string only to write it to b`
}

func header(w io.Writer, name, value string) {
	io.WriteString(w, name+": "+value+"\r\n") // want `header concatenates name \+ ": " \+ value \+ "\\r\\n"`
}

// A file is unbuffered: one write of the whole line is cheaper than a
// system call per piece. A constant is folded; a string kept is not only
// written; a buffered writer of bufio is a buffer.
func traps(f *os.File, b *bytes.Buffer, bw *bufio.Writer, s string) string {
	io.WriteString(f, s+"\n")
	f.WriteString(s + "\n")
	b.WriteString("a" + "b")
	kept := s + "!"
	b.WriteString(kept)
	bw.WriteString(s + "\n") // want `traps concatenates s \+ "\\n" into a new string only to write it to bw`
	return kept
}
