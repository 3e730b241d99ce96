package render

import (
	"bytes"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

// TestSummaryTried: what perfloop fix tried at a root cause (report
// -from-fix) is said under it on the first screen, in report.md and in
// report.html; a root cause fix tried nothing at says nothing about fix.
func TestSummaryTried(t *testing.T) {
	doc := reportFixture(t)
	doc.Findings[0].Tried = []document.Tried{
		{Rewrite: "presize", File: "frame.go", Line: 6, Kept: true, Patch: "fixes/01-presize-frame-6.patch",
			Gain: &document.FixMeasured{Name: "BenchmarkFrame", Unit: "sec/op", Delta: -0.164, CI: [2]float64{-0.190, -0.132}, Significant: true}},
		{Rewrite: "strconv", File: "frame.go", Line: 8, Reason: "no significant change (could detect ±3.0%)"},
	}
	var buf bytes.Buffer
	if err := Summary(&buf, doc); err != nil {
		t.Fatal(err)
	}
	golden(t, "summary.tried.text", buf.Bytes())

	var md bytes.Buffer
	if err := Markdown(&md, doc, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`*Tried by perfloop fix:* presize, −16.4% \[−19.0, −13.2\] sec/op in BenchmarkFrame — fixes/01-presize-frame-6.patch`,
		"*Tried by perfloop fix:* strconv, no significant change (could detect ±3.0%)",
	} {
		if !bytes.Contains(md.Bytes(), []byte(want)) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	if n := bytes.Count(md.Bytes(), []byte("Tried by perfloop fix")); n != 2 {
		t.Errorf("report.md says %d times what fix tried, want 2 (label.go:9 had no candidate)", n)
	}

	var html bytes.Buffer
	if err := HTML(&html, doc, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"<dt>Tried by perfloop fix</dt><dd>presize, −16.4% [−19.0, −13.2] sec/op in BenchmarkFrame — fixes/01-presize-frame-6.patch</dd>",
		"<dt>Tried by perfloop fix</dt><dd>strconv, no significant change (could detect ±3.0%)</dd>",
	} {
		if !bytes.Contains(html.Bytes(), []byte(want)) {
			t.Errorf("report.html lacks %q", want)
		}
	}
}
