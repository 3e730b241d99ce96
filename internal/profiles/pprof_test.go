package profiles

import (
	"bufio"
	"bytes"
	"math"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// pprofRow is one row of go tool pprof -top: percentages as printed.
type pprofRow struct {
	name      string
	flat, cum float64 // fractions
}

// pprofTop runs go tool pprof -top on a profile and parses its rows.
func pprofTop(t *testing.T, file string, args ...string) []pprofRow {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found")
	}
	cmd := exec.Command(goCmd, append(append([]string{"tool", "pprof", "-top"}, args...), file)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go tool pprof: %v\n%s", err, stderr.Bytes())
	}
	var rows []pprofRow
	sc := bufio.NewScanner(bytes.NewReader(out))
	header := false
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if !header {
			header = len(f) == 5 && f[0] == "flat" && f[4] == "cum%"
			continue
		}
		if len(f) < 6 {
			t.Fatalf("unexpected pprof line %q", sc.Text())
		}
		name := strings.Join(f[5:], " ")
		name = strings.TrimSuffix(strings.TrimSuffix(name, " (inline)"), " (partial-inline)")
		rows = append(rows, pprofRow{name: name, flat: parsePercent(t, f[1]), cum: parsePercent(t, f[4])})
	}
	if !header || len(rows) == 0 {
		t.Fatalf("no rows in pprof output:\n%s", out)
	}
	return rows
}

func parsePercent(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil {
		t.Fatalf("pprof percentage %q: %v", s, err)
	}
	return v / 100
}

// TestAgreesWithPprof checks flat and cum against go tool pprof -top on the
// same profiles, sorted by flat and by cum: every function pprof shows
// must have our fractions to within its printed rounding (0.01%).
func TestAgreesWithPprof(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go tool pprof")
	}
	files, err := filepath.Glob(filepath.Join("testdata", "*.cpu.pprof"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no CPU profiles in testdata: %v", err)
	}
	for _, file := range files {
		p, err := ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		cpu, err := AnalyzeCPU(p, plantedOpts)
		if err != nil {
			t.Fatal(err)
		}
		ours := map[string]Function{}
		for _, f := range cpu.Functions {
			ours[f.Name] = f
		}
		for _, sort := range []string{"-flat", "-cum"} {
			rows := pprofTop(t, file, "-nodecount=25", sort)
			for i, r := range rows {
				f, ok := ours[r.name]
				if !ok {
					t.Errorf("%s %s: pprof shows %s, we do not", file, sort, r.name)
					continue
				}
				if math.Abs(f.FlatShare-r.flat) > 0.00005+1e-9 || math.Abs(f.CumShare-r.cum) > 0.00005+1e-9 {
					t.Errorf("%s %s: %s flat %.4f cum %.4f, pprof %.4f %.4f", file, sort, r.name, f.FlatShare, f.CumShare, r.flat, r.cum)
				}
				// Same order as pprof where values differ.
				if i > 0 && sort == "-cum" && rows[i-1].cum > r.cum && ours[rows[i-1].name].Cum < f.Cum {
					t.Errorf("%s: order of %s and %s differs from pprof", file, rows[i-1].name, r.name)
				}
			}
			t.Logf("%s %s: %d rows agree", filepath.Base(file), sort, len(rows))
		}
	}
}
