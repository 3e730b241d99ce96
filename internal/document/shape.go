package document

// Shape is a shape of code that a matcher of internal/site recognised at
// a line: evidence for what the report says there, as a profile's share
// is evidence for what it costs.
type Shape struct {
	// Name is the matcher's name for the shape: "append-unsized",
	// "regexp-twice", "rlock-read", "unbuffered-write", …
	Name string `json:"name"`
	File string `json:"file"`
	Line int64  `json:"line"`
	// Function is the function the line is in, named as profiles name
	// it ("example.com/m.(*T).Add").
	Function string `json:"function,omitempty"`
	// Related are the shape's other lines: the second call, the
	// declaration the rewrite edits.
	Related []Location `json:"related,omitempty"`
	// Says is what the code does at the line; Advice the fix that fits
	// that code.
	Says   string `json:"says"`
	Advice string `json:"advice,omitempty"`
	// Rewrite names perfloop fix's rewrite for the shape ("presize"),
	// when its preconditions hold there.
	Rewrite string `json:"rewrite,omitempty"`
	// OwnWork is set when the shape says its line is its function's own
	// work on what it is given (a call on its inputs or its state, a
	// result computed from inputs that hardly recur): Advice explains the
	// cost and names no change to make.
	OwnWork bool `json:"own_work,omitempty"`
	// Seconds is a duration the code sets, when the shape names one: a
	// benchmark's constant timeout (timeout-set), compared with the time
	// per op measured.
	Seconds float64 `json:"seconds,omitempty"`
}

// ShapeRef names a shape at a line: a finding's reference to the
// document's Shapes.
type ShapeRef struct {
	Name    string `json:"name"`
	File    string `json:"file"`
	Line    int64  `json:"line"`
	Rewrite string `json:"rewrite,omitempty"`
}

// Ref returns the reference to s.
func (s Shape) Ref() ShapeRef {
	return ShapeRef{Name: s.Name, File: s.File, Line: s.Line, Rewrite: s.Rewrite}
}

// Lines returns the shape's line and its related lines in file.
func (s Shape) Lines() []int64 {
	out := []int64{s.Line}
	for _, r := range s.Related {
		if r.File == s.File || r.File == "" {
			out = append(out, r.Line)
		}
	}
	return out
}
