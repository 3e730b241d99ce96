package wordcount_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/perfloop/perfloop/examples/wordcount"
)

// vocabulary is the fixed word list of the generated corpus. Words are drawn
// from it with a Zipf distribution, so a few words dominate as in real text.
var vocabulary = strings.Fields(`the of and to a in is it you that he was for on are
with as his they be at one have this from or had by hot word but what some we
can out other were all there when up use your how said an each she which do
their time if will way about many then them write would like so these her long
make thing see him two has look more day could go come did number sound no most
people my over know water than call first who may down side been now find any
new work part take get place made live where after back little only round man
year came show every good me give our under name very through just form
sentence great think say help low line differ turn cause much mean before move
right boy old too same tell does set three want air well also play small end
put home read hand port large spell add even land here must big high such
follow act why ask men change went light kind off need house picture try us
again animal point mother world near build self earth father profiling
allocation escape benchmark goroutine scheduler`)

// corpus returns a deterministic text of about words words, in lines of 1 to
// 16 words, with the irregular spacing real text has: double spaces, tabs,
// CRLF line ends and blank lines.
func corpus(words int) []byte {
	rng := rand.New(rand.NewPCG(1, uint64(words)))
	zipf := rand.NewZipf(rng, 1.1, 1, uint64(len(vocabulary)-1))
	var buf bytes.Buffer
	for written := 0; written < words; {
		n := min(1+rng.IntN(16), words-written)
		for i := range n {
			if i > 0 {
				buf.WriteString([]string{" ", " ", " ", " ", " ", " ", "  ", "\t"}[rng.IntN(8)])
			}
			buf.WriteString(vocabulary[zipf.Uint64()])
		}
		written += n
		switch rng.IntN(20) {
		case 0:
			buf.WriteString("\r\n")
		case 1:
			buf.WriteString("\n\n")
		default:
			buf.WriteByte('\n')
		}
	}
	return buf.Bytes()
}

// strategy is one way of counting, adapted to a common signature.
type strategy struct {
	name  string
	count func(io.Reader) (wordcount.Counts, error)
}

func strategies() []strategy {
	s := []strategy{
		{"scanner", wordcount.CountScanner},
		{"readall", wordcount.CountReadAll},
	}
	for _, size := range []int{1, 2, 3, 7, 64, 4096} {
		s = append(s, strategy{fmt.Sprintf("chunked/buf=%d", size), func(r io.Reader) (wordcount.Counts, error) {
			return wordcount.CountChunked(r, make([]byte, size))
		}})
	}
	return s
}

func TestCount(t *testing.T) {
	tests := []struct {
		text string
		want wordcount.Counts
	}{
		{"", wordcount.Counts{}},
		{"a", wordcount.Counts{Lines: 1, Words: 1}},
		{"a\n", wordcount.Counts{Lines: 1, Words: 1}},
		{"\n\n", wordcount.Counts{Lines: 2, Words: 0}},
		{"   ", wordcount.Counts{Lines: 1, Words: 0}},
		{"one two\nthree", wordcount.Counts{Lines: 2, Words: 3}},
		{"  lead\t\ttabs  and  trail  \r\n", wordcount.Counts{Lines: 1, Words: 4}},
		{"crlf\r\nends\r\nhere\r\n", wordcount.Counts{Lines: 3, Words: 3}},
		{"x\vy\fz", wordcount.Counts{Lines: 1, Words: 3}},
		{"naïve café 数据", wordcount.Counts{Lines: 1, Words: 3}},
		{"longwordacrossmanychunks and more\n\n\nend", wordcount.Counts{Lines: 4, Words: 4}},
	}
	for _, s := range strategies() {
		for _, tt := range tests {
			got, err := s.count(strings.NewReader(tt.text))
			if err != nil || got != tt.want {
				t.Errorf("%s(%q) = %+v, %v; want %+v, nil", s.name, tt.text, got, err, tt.want)
			}
		}
	}
}

// TestCountAgree checks every strategy against the scanner on generated text,
// also through readers that return short reads and data together with io.EOF.
func TestCountAgree(t *testing.T) {
	text := corpus(5000)
	want, err := wordcount.CountScanner(bytes.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if want.Words != 5000 {
		t.Fatalf("corpus(5000) has %d words", want.Words)
	}
	readers := map[string]func(io.Reader) io.Reader{
		"plain":   func(r io.Reader) io.Reader { return r },
		"onebyte": iotest.OneByteReader,
		"half":    iotest.HalfReader,
		"dataerr": iotest.DataErrReader,
	}
	for _, s := range strategies() {
		for name, wrap := range readers {
			got, err := s.count(wrap(bytes.NewReader(text)))
			if err != nil || got != want {
				t.Errorf("%s over %s reader = %+v, %v; want %+v", s.name, name, got, err, want)
			}
		}
	}
}

func TestCountError(t *testing.T) {
	boom := errors.New("boom")
	for _, s := range strategies() {
		r := io.MultiReader(strings.NewReader("some words\n"), iotest.ErrReader(boom))
		if _, err := s.count(r); !errors.Is(err, boom) {
			t.Errorf("%s: err = %v; want %v", s.name, err, boom)
		}
	}
	if _, err := wordcount.TopWords(iotest.ErrReader(boom), 3); !errors.Is(err, boom) {
		t.Errorf("TopWords: err = %v; want %v", err, boom)
	}
	if _, err := wordcount.CountChunked(strings.NewReader("x"), nil); err == nil {
		t.Error("CountChunked with a nil buffer: no error")
	}
}

// naiveTop is the obvious TopWords, for comparison.
func naiveTop(text string, k int) []wordcount.Freq {
	counts := map[string]int{}
	for _, w := range strings.Fields(text) {
		counts[w]++
	}
	var freqs []wordcount.Freq
	for w, n := range counts {
		freqs = append(freqs, wordcount.Freq{Word: w, Count: n})
	}
	slices.SortFunc(freqs, func(a, b wordcount.Freq) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return strings.Compare(a.Word, b.Word)
	})
	return freqs[:max(0, min(k, len(freqs)))]
}

func TestTopWords(t *testing.T) {
	small := "b a c b\nc b\td"
	got, err := wordcount.TopWords(strings.NewReader(small), 3)
	want := []wordcount.Freq{{"b", 3}, {"c", 2}, {"a", 1}}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("TopWords(%q, 3) = %v, %v; want %v", small, got, err, want)
	}

	text := string(corpus(5000))
	for _, k := range []int{-1, 0, 1, 10, 1000} {
		got, err := wordcount.TopWords(strings.NewReader(text), k)
		if want := naiveTop(text, k); err != nil || !slices.Equal(got, want) {
			t.Errorf("TopWords(corpus, %d) = %v, %v; want %v", k, got, err, want)
		}
	}
}

// sizes are the corpus sizes, in words, of the scaling benchmarks.
var sizes = []int{1000, 10000, 100000}

// benchCount runs count over corpora of every size. The reader is reset, not
// rebuilt, so the benchmark's own code allocates nothing per op.
func benchCount(b *testing.B, count func(io.Reader) (wordcount.Counts, error)) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			text := corpus(n)
			r := bytes.NewReader(text)
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				r.Reset(text)
				if _, err := count(r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCountScanner(b *testing.B) { benchCount(b, wordcount.CountScanner) }

func BenchmarkCountReadAll(b *testing.B) { benchCount(b, wordcount.CountReadAll) }

func BenchmarkCountChunked(b *testing.B) {
	buf := make([]byte, 32<<10)
	benchCount(b, func(r io.Reader) (wordcount.Counts, error) {
		return wordcount.CountChunked(r, buf)
	})
}

func BenchmarkTopWords(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			text := corpus(n)
			r := bytes.NewReader(text)
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				r.Reset(text)
				if _, err := wordcount.TopWords(r, 10); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
