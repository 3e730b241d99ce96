// Package wordcount counts the lines and words of a text, several ways.
//
// It is one of perfloop's bundled example targets. Every strategy answers the
// same question, so their benchmarks differ only in how input is handled:
//
//   - [CountScanner] reads a line at a time with bufio.Scanner and splits each
//     line with strings.Fields. It is the first version most people write; it
//     allocates a string and a slice for every line.
//   - [CountReadAll] reads the whole input with io.ReadAll and makes one pass
//     over the bytes. No per-line cost, but memory grows with the input and
//     the buffer is copied as it grows.
//   - [CountChunked] reads into a caller-provided buffer of any size and keeps
//     a two-state machine across reads, so a word split between two chunks is
//     counted once. Constant memory, no allocation.
//   - [TopWords] counts how often each word occurs in a map and returns the
//     most frequent ones; here the map, and the string made from every word
//     to index it, are the cost.
//
// A word is a maximal run of bytes that are not ASCII white space (space,
// \t, \n, \v, \f, \r). A line is a run of bytes ended by '\n', or by the end
// of the input when the text does not end in a newline. On text without
// Unicode-only spaces (such as U+00A0 or U+2003), all strategies agree.
package wordcount

import (
	"bufio"
	"cmp"
	"errors"
	"io"
	"slices"
	"strings"
)

// Counts is the result of counting a text.
type Counts struct {
	Lines int // lines, counting a final line without a newline
	Words int // runs of non-space bytes
}

// CountScanner counts r line by line with a bufio.Scanner and strings.Fields.
// A line longer than bufio.MaxScanTokenSize makes it fail with
// bufio.ErrTooLong; the byte-level strategies have no such limit.
func CountScanner(r io.Reader) (Counts, error) {
	var c Counts
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		c.Lines++
		c.Words += len(strings.Fields(sc.Text()))
	}
	return c, sc.Err()
}

// CountReadAll reads all of r into memory and counts it in one pass.
func CountReadAll(r io.Reader) (Counts, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return Counts{}, err
	}
	var s counter
	s.write(data)
	return s.finish(), nil
}

// errEmptyBuffer is returned by CountChunked when it is given no buffer space.
var errEmptyBuffer = errors.New("wordcount: CountChunked needs a non-empty buffer")

// CountChunked counts r by reading it into buf, len(buf) bytes at a time.
// It allocates nothing, so a caller that counts many texts can reuse one
// buffer for all of them.
func CountChunked(r io.Reader, buf []byte) (Counts, error) {
	if len(buf) == 0 {
		return Counts{}, errEmptyBuffer
	}
	var s counter
	for {
		n, err := r.Read(buf)
		s.write(buf[:n])
		if err == io.EOF {
			return s.finish(), nil
		}
		if err != nil {
			return Counts{}, err
		}
	}
}

// asciiSpace marks the bytes that separate words, as strings.Fields does for
// ASCII input.
var asciiSpace = [256]bool{' ': true, '\t': true, '\n': true, '\v': true, '\f': true, '\r': true}

// counter is the state machine behind CountReadAll and CountChunked. inWord
// survives between calls to write, which is what lets a word that straddles
// a chunk boundary be counted once.
type counter struct {
	c      Counts
	inWord bool
	seen   bool // at least one byte was written
	last   byte // the last byte written, to count an unterminated last line
}

func (s *counter) write(p []byte) {
	if len(p) == 0 {
		return
	}
	for _, b := range p {
		switch {
		case asciiSpace[b]:
			if b == '\n' {
				s.c.Lines++
			}
			s.inWord = false
		case !s.inWord:
			s.c.Words++
			s.inWord = true
		}
	}
	s.seen = true
	s.last = p[len(p)-1]
}

func (s *counter) finish() Counts {
	if s.seen && s.last != '\n' {
		s.c.Lines++
	}
	return s.c
}

// Freq is how often one word occurs.
type Freq struct {
	Word  string
	Count int
}

// TopWords returns the k most frequent words of r, most frequent first; words
// with equal counts are in byte order. It returns every word when k exceeds
// the number of distinct words, and none when k <= 0.
func TopWords(r io.Reader, k int) ([]Freq, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	counts := make(map[string]int)
	start := -1 // start of the current word, or -1 between words
	for i, b := range data {
		if !asciiSpace[b] {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			counts[string(data[start:i])]++
			start = -1
		}
	}
	if start >= 0 {
		counts[string(data[start:])]++
	}

	freqs := make([]Freq, 0, len(counts))
	for w, n := range counts {
		freqs = append(freqs, Freq{Word: w, Count: n})
	}
	slices.SortFunc(freqs, func(a, b Freq) int {
		if c := cmp.Compare(b.Count, a.Count); c != 0 {
			return c
		}
		return strings.Compare(a.Word, b.Word)
	})
	return freqs[:max(0, min(k, len(freqs)))], nil
}
