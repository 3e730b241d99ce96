package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseBudget(t *testing.T) {
	for _, tt := range []struct {
		in       string
		op       string
		value    float64
		relative bool
		err      string
	}{
		{in: "BenchmarkEncode allocs/op == 0", op: "==", value: 0},
		{in: "  Benchmark.  sec/op   <=  +5% ", op: "<=", value: 0.05, relative: true},
		{in: "BenchmarkX B/op < 64", op: "<", value: 64},
		{in: "BenchmarkX MB/s >= -10%", op: ">=", value: -0.1, relative: true},
		{in: "BenchmarkX allocs/op ~= 0", err: `operator "~="`},
		{in: "BenchmarkX allocs/op == 5%", err: "signed"},
		{in: "BenchmarkX allocs/op == zero", err: `value "zero"`},
		{in: "BenchmarkX allocs/op == NaN", err: `value "NaN"`},
		{in: "BenchmarkX allocs/op", err: "want PATTERN UNIT OP VALUE"},
		{in: "Benchmark( sec/op < 1", err: "pattern"},
	} {
		b, err := ParseBudget(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseBudget(%q) error = %v, want it to say %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseBudget(%q): %v", tt.in, err)
			continue
		}
		if b.Op != tt.op || b.Value != tt.value || b.Relative != tt.relative {
			t.Errorf("ParseBudget(%q) = op %q value %v relative %v, want %q %v %v", tt.in, b.Op, b.Value, b.Relative, tt.op, tt.value, tt.relative)
		}
	}
}

// The pattern is anchored at the start, as -bench's is not: a budget on
// BenchmarkEncode does not apply to BenchmarkReEncode.
func TestBudgetPatternAnchored(t *testing.T) {
	b, err := ParseBudget("BenchmarkEncode allocs/op == 0")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{
		"BenchmarkEncode":        true,
		"BenchmarkEncode/size=1": true,
		"BenchmarkReEncode":      false,
	} {
		if got := b.Pattern.MatchString(name); got != want {
			t.Errorf("%q matches %s: %v, want %v", b.Text, name, got, want)
		}
	}
}

func TestReadConfig(t *testing.T) {
	dir := t.TempDir()
	cfg, err := ReadConfig(filepath.Join(dir, "perfloop.json"))
	if err != nil || cfg.Threshold != "" || cfg.Budgets != nil {
		t.Errorf("missing file: %+v, %v; want no configuration", cfg, err)
	}
	write := func(text string) string {
		p := filepath.Join(dir, "perfloop.json")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cfg, err = ReadConfig(write(`{"check": {"threshold": "3%", "budgets": ["BenchmarkX allocs/op == 0"]}}`))
	if err != nil || cfg.Threshold != "3%" || len(cfg.Budgets) != 1 {
		t.Errorf("good file: %+v, %v", cfg, err)
	}
	// A misspelt key is an error, not a budget silently dropped.
	if _, err := ReadConfig(write(`{"check": {"budget": ["BenchmarkX allocs/op == 0"]}}`)); err == nil || !strings.Contains(err.Error(), "budget") {
		t.Errorf("unknown key: error = %v, want it named", err)
	}
	if _, err := ReadConfig(write(`{"check": `)); err == nil || !strings.Contains(err.Error(), "perfloop.json") {
		t.Errorf("truncated file: error = %v, want it to name the file", err)
	}
}

// FuzzParseBudget checks that any text parses or errs without panicking,
// and that what parses is written back as the four fields it read.
func FuzzParseBudget(f *testing.F) {
	for _, s := range []string{"BenchmarkEncode allocs/op == 0", "Benchmark. sec/op <= +5%", "X B/op < -1e3%", "a b c", "( x == 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseBudget(s)
		if err != nil {
			return
		}
		if len(strings.Fields(b.Text)) != 4 || b.Pattern == nil {
			t.Errorf("ParseBudget(%q) = %+v", s, b)
		}
	})
}
