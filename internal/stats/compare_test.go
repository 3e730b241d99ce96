package stats

import (
	"bytes"
	"encoding/csv"
	"io"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/results"
)

// TestAgreesWithBenchstat compares every median and p-value with those of
// benchstat (the version in go.mod, run with go run) on the same files.
func TestAgreesWithBenchstat(t *testing.T) {
	if testing.Short() {
		t.Skip("runs benchstat")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command("go", "run", "golang.org/x/perf/cmd/benchstat", "-format", "csv", "old.txt", "new.txt")
	cmd.Dir = "testdata"
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("benchstat: %v\n%s", err, stderr.Bytes())
	}
	want := parseBenchstatCSV(t, out)

	f, err := results.Read([]string{"testdata/old.txt", "testdata/new.txt"})
	if err != nil {
		t.Fatal(err)
	}
	// benchstat labels columns with the arguments as given.
	for _, r := range f.Results {
		r.SetConfig(".file", strings.TrimPrefix(r.GetConfig(".file"), "testdata/"))
	}
	tables, err := Compare(f.Results, f.Units, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, tb := range tables {
		pkg := ""
		for _, c := range tb.Config {
			if v, ok := strings.CutPrefix(c, "pkg: "); ok {
				pkg = v
			}
		}
		for _, r := range tb.Rows {
			key := pkg + " " + tb.Unit + " " + r.FullName
			w, ok := want[key]
			if !ok {
				t.Errorf("%s: not in benchstat's output", key)
				continue
			}
			old, new := r.Cells[0], r.Cells[1]
			if !near(old.Summary.Median, w.oldMedian) || !near(new.Summary.Median, w.newMedian) {
				t.Errorf("%s: medians %g, %g; benchstat %g, %g", key, old.Summary.Median, new.Summary.Median, w.oldMedian, w.newMedian)
			}
			if math.Abs(new.P-w.p) > 0.0005 {
				t.Errorf("%s: p = %.4f; benchstat p=%.3f", key, new.P, w.p)
			}
			checked++
		}
	}
	if checked < 50 || checked != len(want) {
		t.Errorf("checked %d rows; benchstat printed %d", checked, len(want))
	}
	t.Logf("%d rows agree with benchstat", checked)
}

func near(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

type benchstatRow struct {
	oldMedian, newMedian, p float64
}

// parseBenchstatCSV reads benchstat -format csv output for two files into
// rows keyed by "pkg unit name".
func parseBenchstatCSV(t *testing.T, out []byte) map[string]benchstatRow {
	t.Helper()
	rows := map[string]benchstatRow{}
	pkg, unit := "", ""
	r := csv.NewReader(bytes.NewReader(out))
	r.FieldsPerRecord = -1
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("parse benchstat csv: %v", err)
		}
		switch {
		case len(rec) == 1 && strings.HasPrefix(rec[0], "pkg: "):
			pkg = strings.TrimPrefix(rec[0], "pkg: ")
		case len(rec) < 7:
		case rec[0] == "" && rec[2] == "CI":
			unit = rec[1]
		case rec[0] == "" || rec[0] == "geomean":
		default:
			old, err1 := strconv.ParseFloat(rec[1], 64)
			new, err2 := strconv.ParseFloat(rec[3], 64)
			var p float64
			_, err3 := fmtSscanf(rec[6], &p)
			if err1 != nil || err2 != nil || err3 != nil {
				t.Fatalf("parse benchstat row %q: %v %v %v", rec, err1, err2, err3)
			}
			rows[pkg+" "+unit+" "+rec[0]] = benchstatRow{old, new, p}
		}
	}
	return rows
}

// fmtSscanf reads the p from "p=0.002 n=10" (absent for exact units: "n=10").
func fmtSscanf(s string, p *float64) (int, error) {
	f := strings.Fields(s)
	if len(f) == 0 || !strings.HasPrefix(f[0], "p=") {
		*p = 0
		return 0, nil
	}
	v, err := strconv.ParseFloat(strings.TrimPrefix(f[0], "p="), 64)
	*p = v
	return 1, err
}

func TestBenjaminiHochberg(t *testing.T) {
	// Reference values from R: p.adjust(c(0.01, 0.04, 0.03, 0.005, 0.5), "BH").
	ps := []float64{0.01, 0.04, 0.03, 0.005, 0.5}
	want := []float64{0.025, 0.05, 0.05, 0.025, 0.5}
	got := BenjaminiHochberg(ps)
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Errorf("q[%d] = %g, want %g (all: %v)", i, got[i], want[i], got)
		}
	}
	if len(BenjaminiHochberg(nil)) != 0 {
		t.Error("BenjaminiHochberg(nil) not empty")
	}
}

func TestBetterAndVerdict(t *testing.T) {
	tests := []struct {
		unit  string
		delta float64
		want  string
	}{
		{"sec/op", -0.1, "faster"},
		{"sec/op", 0.1, "slower"},
		{"B/s", 0.1, "faster"},
		{"B/s", -0.1, "slower"},
		{"frames/s", 0.2, "faster"},
		{"B/op", -0.5, "better"},
		{"allocs/op", 1, "worse"},
		{"ratio", 1, "higher"},
	}
	for _, tt := range tests {
		if got := verdict(tt.unit, Better(tt.unit, nil), tt.delta); got != tt.want {
			t.Errorf("verdict(%s, %+g) = %q, want %q", tt.unit, tt.delta, got, tt.want)
		}
	}
}

// From a baseline of zero there is no ratio, but a significant change
// still has a direction: 0 B/op → 4 B/op is worse, not "no change".
func TestDecideFromZero(t *testing.T) {
	tab := &Table{Unit: "B/op", Better: -1}
	c := &Cell{Summary: Summary{Median: 4}, Delta: math.NaN()}
	c.Decide(tab, true)
	if c.Verdict != "worse" {
		t.Errorf("0 → 4 B/op, significant: verdict %q, want worse", c.Verdict)
	}
	c.Decide(tab, false)
	if c.Verdict != NoChange {
		t.Errorf("not significant: verdict %q, want %q", c.Verdict, NoChange)
	}
}
