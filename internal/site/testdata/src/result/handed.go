package result

type point [2]float64

type lineString []point

type multiLineString []lineString

func readLine(n int) lineString {
	return make(lineString, 0, n)
}

// readMulti appends each line it reads to the value it returns.
func readMulti(n int) multiLineString {
	var mls multiLineString
	for i := 0; i < n; i++ {
		ls := readLine(i)     // want `readMulti appends to the value it returns readLine's result`
		mls = append(mls, ls) // want `append\(mls, ls\) computes mls, which readMulti returns`
	}
	return mls
}

// Scanner holds what Scan read.
type Scanner struct {
	Line lineString
	n    int
	kept lineString
}

// Scan stores what it reads into its exported field.
func (s *Scanner) Scan() error {
	l := readLine(s.n) // want `Scan stores into its receiver's exported field Line readLine's result`
	s.Line = l
	s.kept = readLine(1) // an unexported field: the scanner's own
	return nil
}

type ring lineString

type polygon []ring

// readPolygon appends each line, converted, to the value it returns.
func readPolygon(n int) polygon {
	p := make(polygon, 0, n) // want `make\(polygon, 0, n\) computes p, which readPolygon returns`
	for i := 0; i < n; i++ {
		ls := readLine(i)       // want `readPolygon appends to the value it returns readLine's result`
		p = append(p, ring(ls)) // want `append\(p, ring\(ls\)\) computes p, which readPolygon returns`
	}
	return p
}

// asLine returns another's result, converted.
func asLine(n int) lineString {
	ps := readPoints(n) // want `asLine returns readPoints's result`
	return lineString(ps)
}

func readPoints(n int) []point {
	return make([]point, n)
}

// Feature is a decoded feature.
type Feature struct {
	Props map[string]any
}

// decodeFeature makes the properties of the feature it returns.
func decodeFeature(n int) (*Feature, error) {
	f := &Feature{}
	if n > 0 {
		f.Props = make(map[string]any, n) // want `make\(map\[string\]any, n\) makes f.Props, a part of the value decodeFeature returns`
	}
	return f, nil
}

// Layer holds features.
type Layer struct {
	Features []*Feature
}

// decodeLayer stores each feature it decodes into the layer it returns.
func decodeLayer(n int) (*Layer, error) {
	layer := &Layer{Features: make([]*Feature, n)}
	for i := range layer.Features {
		f, err := decodeFeature(i) // want `decodeLayer stores, into a part of the value it returns, decodeFeature's result`
		if err != nil {
			return nil, err
		}
		layer.Features[i] = f
	}
	return layer, nil
}

// text returns a string converted from another's bytes: a copy, not the
// bytes' value.
func text(n int) string {
	return string(raw(n)) // want `string\(raw\(n\)\) makes the string text returns`
}

func raw(n int) []byte {
	return make([]byte, n)
}

func split(s string, set func(int), yield func(string)) {
	set(1)
	yield(s)
}

// parseAll makes its result in the func literal it hands split.
func parseAll(s string) []string {
	var out []string
	split(s, func(n int) {
		out = make([]string, 0, n) // want `make\(\[\]string, 0, n\) computes out, which parseAll returns`
	}, func(part string) {
		out = append(out, part)
	})
	return out
}
