package judge

import (
	"encoding/json"
	"os"

	"github.com/perfloop/perfloop/internal/document"
)

// WriteEvidence writes a report as a corpus module's evidence: everything
// the findings derive from, without the findings, the gate and the
// commands, so the file says what was measured and nothing it concluded.
func WriteEvidence(path string, doc *document.Report) error {
	d := *doc
	d.Findings, d.Gate, d.Commands = nil, nil, nil
	d.Date = ""
	for i := range d.Benchmarks {
		b := &d.Benchmarks[i]
		b.CPUProfile, b.HeapProfile = "", ""
	}
	data, err := json.MarshalIndent(&d, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// ReadEvidence reads a corpus module's evidence.json.
func ReadEvidence(path string) (*document.Report, error) { return document.ReadFile(path) }
