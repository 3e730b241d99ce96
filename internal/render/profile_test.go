package render

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/perfloop/perfloop/internal/profiles"
	"github.com/perfloop/perfloop/internal/results"
)

// plantedRows analyses the profiles captured from the planted benchmarks
// (../profiles/testdata, see gen.sh there), plus a failed benchmark.
func plantedRows(t *testing.T) []*ProfileRow {
	t.Helper()
	var rows []*ProfileRow
	for _, b := range []string{"BenchmarkCount", "BenchmarkFrame", "BenchmarkLabels", "BenchmarkSum"} {
		dir := filepath.Join("..", "profiles", "testdata")
		a, err := profiles.Analyze(filepath.Join(dir, b+".cpu.pprof"), filepath.Join(dir, b+".mem.pprof"),
			profiles.Options{ModulePath: "example.com/planted", Benchmark: b})
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, &ProfileRow{Package: "example.com/planted", Name: b, Status: results.StatusOK, Analysis: a})
	}
	rows = append(rows, &ProfileRow{Package: "example.com/planted", Name: "BenchmarkPanic", Status: results.StatusFailed,
		Error: "panic: assignment to entry in nil map (planted_test.go:66)"})
	return rows
}

func TestProfileText(t *testing.T) {
	var buf bytes.Buffer
	for i, row := range plantedRows(t) {
		if i > 0 {
			buf.WriteString("\n")
		}
		if err := ProfileText(&buf, row, ProfileOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	golden(t, "profile.planted.text", buf.Bytes())
}

func TestProfileTextTop3(t *testing.T) {
	var buf bytes.Buffer
	if err := ProfileText(&buf, plantedRows(t)[0], ProfileOptions{Hotspots: 3, Sites: 1}); err != nil {
		t.Fatal(err)
	}
	golden(t, "profile.planted.top3.sites1.text", buf.Bytes())
}
