package document

import (
	"encoding/json"
	"fmt"
	"os"
)

// ReadFile reads a report.json (perfloop.report/v1). A file of another
// schema is an error that says which.
func ReadFile(path string) (*Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc Report
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	if doc.Schema != Schema {
		return nil, fmt.Errorf("%s: schema %q, want %s (a report.json from perfloop report)", path, doc.Schema, Schema)
	}
	return &doc, nil
}
