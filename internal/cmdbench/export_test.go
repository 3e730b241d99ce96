package cmdbench

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// readReport decodes one of the real reports testdata/gen-reports.sh
// captured.
func readReport(t *testing.T, name string) ([]byte, *document.Exec) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var r document.Exec
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s.json: %v", name, err)
	}
	return b, &r
}

// TestExportGolden renders the captured reports in every format and
// compares with the golden files, named after the report and the format
// (testdata/sleep-params.markdown). Regenerate with -update.
func TestExportGolden(t *testing.T) {
	formats := []struct {
		ext   string
		write func(io.Writer, *document.Exec) error
	}{
		{"text", WriteText},
		{"markdown", WriteMarkdown},
		{"csv", WriteCSV},
	}
	for _, name := range []string{"sleep-params", "true-false"} {
		_, rep := readReport(t, name)
		for _, f := range formats {
			t.Run(name+"."+f.ext, func(t *testing.T) {
				var buf bytes.Buffer
				if err := f.write(&buf, rep); err != nil {
					t.Fatal(err)
				}
				golden := filepath.Join("testdata", name+"."+f.ext)
				if *update {
					if err := os.WriteFile(golden, buf.Bytes(), 0o666); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatal(err)
				}
				if got := buf.String(); got != string(want) {
					t.Errorf("%s differs from %s (rerun with -update if the change is right):\n%s", f.ext, golden, got)
				}
			})
		}
	}
}

// TestJSONRoundTrip checks that the schema's field names are stable: a
// report perfloop wrote decodes and encodes back to the same bytes.
func TestJSONRoundTrip(t *testing.T) {
	for _, name := range []string{"sleep-params", "true-false"} {
		raw, rep := readReport(t, name)
		var buf bytes.Buffer
		if err := WriteJSON(&buf, rep); err != nil {
			t.Fatal(err)
		}
		if buf.String() != string(raw) {
			t.Errorf("%s.json does not survive decoding and encoding:\n%s", name, buf.String())
		}
		for _, field := range []string{`"schema": "perfloop.exec/v1"`, `"max_rss_bytes"`, `"minor_faults"`, `"times"`, `"comparisons"`, `"exit_codes"`} {
			if !strings.Contains(string(raw), field) {
				t.Errorf("%s.json has no %s", name, field)
			}
		}
	}
}

func TestSentence(t *testing.T) {
	tests := []struct {
		c    document.ExecComparison
		want string
	}{
		{document.ExecComparison{A: "new", B: "old", Ratio: 0.8, Stddev: 0.032, Low: 0.75, High: 0.85},
			`"new" ran 1.25 ± 0.05 times faster than "old" (95% CI 1.18–1.33)`},
		{document.ExecComparison{A: "new", B: "old", Ratio: 1.25, Stddev: 0.04, Low: 1.2, High: 1.3},
			`"old" ran 1.25 ± 0.04 times faster than "new" (95% CI 1.20–1.30)`},
		{document.ExecComparison{A: "a", B: "b", Ratio: 1.01, Stddev: 0.02, Low: 0.98, High: 1.04},
			`"b" ran 1.01 ± 0.02 times faster than "a" (95% CI 0.98–1.04); not a significant difference: the interval includes 1`},
	}
	for _, tt := range tests {
		if got := Sentence(tt.c); got != tt.want {
			t.Errorf("Sentence() =\n%s\nwant\n%s", got, tt.want)
		}
	}
}

func TestMarkdownCell(t *testing.T) {
	for in, want := range map[string]string{
		"sleep 1":    "`sleep 1`",
		"a | b":      "`a \\| b`",
		"echo `x`":   "`` echo `x` ``",
		"grep -c x ": "`grep -c x `",
		// A run of backticks inside never closes the span early: the
		// HTML after it stays text.
		"echo a``<img src=x>": "```echo a``<img src=x>```",
		"`ls`":                "`` `ls` ``",
		// A line break would end the table row.
		"printf 'a\nb'": "`printf 'a b'`",
	} {
		if got := markdownCell(in); got != want {
			t.Errorf("markdownCell(%q) = %q, want %q", in, got, want)
		}
	}
}
