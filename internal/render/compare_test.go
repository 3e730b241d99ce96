package render

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/results"
	"github.com/perfloop/perfloop/internal/stats"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run go test ./internal/render -update and review the diff)\ngot:\n%s", name, got)
	}
}

func compareTables(t *testing.T, files ...string) []*stats.Table {
	t.Helper()
	f, err := results.Read(files)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Errors) > 0 {
		t.Fatalf("malformed input: %v", f.Errors)
	}
	tables, err := stats.Compare(f.Results, f.Units, stats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tables
}

func TestCompareText(t *testing.T) {
	tables := compareTables(t, "old=../stats/testdata/old.txt", "new=../stats/testdata/new.txt")
	var buf bytes.Buffer
	if err := CompareText(&buf, tables, stats.Alpha); err != nil {
		t.Fatal(err)
	}
	golden(t, "compare.old-new.text", buf.Bytes())
}

func TestCompareThroughput(t *testing.T) {
	// Higher B/s is better: a throughput that rises is "faster", and a
	// custom unit declared better=higher is "better".
	tables := compareTables(t, "testdata/throughput-old.txt", "testdata/throughput-new.txt")
	var buf bytes.Buffer
	if err := CompareText(&buf, tables, stats.Alpha); err != nil {
		t.Fatal(err)
	}
	golden(t, "compare.throughput.text", buf.Bytes())
	doc := NewCompareJSON(tables)
	verdicts := map[string]string{}
	for _, r := range doc.Rows {
		verdicts[r.Benchmark+" "+r.Unit] = r.Verdict
	}
	for key, want := range map[string]string{
		"Decode sec/op":    "faster",
		"Decode B/s":       "faster",
		"Decode hits/op":   "better",
		"Decode allocs/op": "worse",
	} {
		if verdicts[key] != want {
			t.Errorf("%s: verdict %q, want %q (all: %v)", key, verdicts[key], want, verdicts)
		}
	}
}

func TestCompareJSON(t *testing.T) {
	tables := compareTables(t, "../stats/testdata/old.txt", "../stats/testdata/new.txt")
	var buf bytes.Buffer
	if err := WriteJSON(&buf, NewCompareJSON(tables)); err != nil {
		t.Fatal(err)
	}
	// The contract: schema, and per row the DESIGN.md field names.
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["schema"] != "perfloop.compare/v1" {
		t.Errorf("schema = %v", doc["schema"])
	}
	rows := doc["rows"].([]any)
	row := rows[0].(map[string]any)
	for _, k := range []string{"benchmark", "procs", "unit", "old", "new", "delta", "p", "significant"} {
		if _, ok := row[k]; !ok {
			t.Errorf("row lacks %q: %v", k, row)
		}
	}
	if b := row["benchmark"].(string); strings.HasPrefix(b, "Benchmark") || strings.HasSuffix(b, "-2") {
		t.Errorf("benchmark %q should have neither the Benchmark prefix nor the -procs suffix", b)
	}
	golden(t, "compare.old-new.json", buf.Bytes())
}
