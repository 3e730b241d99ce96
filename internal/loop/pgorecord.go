package loop

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/perfloop/perfloop/internal/document"
)

// PGORecord is where perfloop pgo keeps its last result in a module, for
// perfloop report.
const PGORecord = StateDir + "/pgo.json"

// LastPGO returns the module's last perfloop pgo run, as PGORecord holds
// it, or nil.
func LastPGO(root string) *document.PGO {
	data, err := os.ReadFile(filepath.Join(root, PGORecord))
	if err != nil {
		return nil
	}
	var doc document.PGO
	if json.Unmarshal(data, &doc) != nil || doc.Schema != document.PGOSchema {
		return nil
	}
	return &doc
}

// readPGO returns the summary of the module's last perfloop pgo run, or
// nil.
func readPGO(root string) *document.PGOSummary { return LastPGO(root).Summary() }
