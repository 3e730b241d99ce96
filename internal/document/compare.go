package document

// CompareSchema names version 1 of the compare JSON contract.
const CompareSchema = "perfloop.compare/v1"

// Compare is the perfloop.compare/v1 document: the rows of perfloop
// compare -json and perfloop diff -json.
type Compare struct {
	Schema  string           `json:"schema"`
	Rows    []CompareRow     `json:"rows"`
	Geomean []CompareGeomean `json:"geomean"`
	// Rounds and WallSeconds are set by diff.
	Rounds      int     `json:"rounds,omitempty"`
	WallSeconds float64 `json:"wall_seconds,omitempty"`
}

// CompareRow is one benchmark, unit and new file compared with the baseline.
type CompareRow struct {
	Benchmark string   `json:"benchmark"`
	Procs     int      `json:"procs,omitempty"`
	Package   string   `json:"package,omitempty"`
	Unit      string   `json:"unit"`
	Old       *Metric  `json:"old"`
	New       *Metric  `json:"new"`
	Delta     *float64 `json:"delta"`
	P         float64  `json:"p"`
	Q         float64  `json:"q"`
	// Significant reports Q <= alpha.
	Significant bool   `json:"significant"`
	Verdict     string `json:"verdict"`
	// MDE is the smallest relative change the run could have detected
	// (diff only).
	MDE *float64 `json:"mde,omitempty"`
	// DeltaLow and DeltaHigh bound the change of an inconclusive paired
	// row (diff only).
	DeltaLow  *float64 `json:"delta_low,omitempty"`
	DeltaHigh *float64 `json:"delta_high,omitempty"`
	// OldFile and NewFile label the compared columns.
	OldFile string `json:"old_file,omitempty"`
	NewFile string `json:"new_file,omitempty"`
}

// CompareGeomean is the geomean delta of one unit (and new file).
type CompareGeomean struct {
	Unit    string   `json:"unit"`
	Package string   `json:"package,omitempty"`
	Delta   *float64 `json:"delta"`
	NewFile string   `json:"new_file,omitempty"`
}
