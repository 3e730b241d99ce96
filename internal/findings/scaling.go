package findings

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
)

// paramSegment matches a sub-benchmark name segment "n=1000".
var paramSegment = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)=([0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)$`)

// point is one size and its time.
type point struct{ n, sec float64 }

// series is a benchmark measured at several values of one parameter.
type series struct {
	bench, param string
	points       []point
	sizes        map[float64]bool
}

// Scaling fits how time grows with a numeric sub-benchmark parameter: one
// row per benchmark and parameter measured at 3 sizes or more, in the
// order the benchmarks first appear.
func Scaling(doc *document.Report) []document.Scaling {
	if doc == nil {
		return nil
	}
	var order []string
	groups := map[string]*series{}
	for i := range doc.Benchmarks {
		b := &doc.Benchmarks[i]
		if b.Status != "" && b.Status != "ok" {
			continue
		}
		sec, ok := median(b, secPerOp)
		if !ok || sec <= 0 {
			continue
		}
		segs := strings.Split(b.Name, "/")
		for j := len(segs) - 1; j > 0; j-- {
			m := paramSegment.FindStringSubmatch(segs[j])
			if m == nil {
				continue
			}
			n, err := strconv.ParseFloat(m[2], 64)
			if err != nil || n <= 0 {
				break
			}
			base := strings.Join(append(append([]string{}, segs[:j]...), segs[j+1:]...), "/")
			key := b.Package + "\x00" + strconv.Itoa(b.Procs) + "\x00" + base + "\x00" + m[1]
			s := groups[key]
			if s == nil {
				s = &series{bench: base, param: m[1], sizes: map[float64]bool{}}
				groups[key] = s
				order = append(order, key)
			}
			s.points = append(s.points, point{n, sec})
			s.sizes[n] = true
			break
		}
	}
	var out []document.Scaling
	for _, k := range order {
		s := groups[k]
		if len(s.sizes) < 3 {
			continue
		}
		b, r2 := fitPower(s.points)
		out = append(out, document.Scaling{
			Benchmark: s.bench, Parameter: s.param,
			Growth: growth(s.points, b), Exponent: b, R2: r2,
		})
	}
	return out
}

// fitPower fits log(sec) = a + b·log(n) by least squares and returns b
// and R² on log-log axes.
func fitPower(ps []point) (b, r2 float64) {
	var sx, sy, sxx, sxy float64
	k := float64(len(ps))
	for _, p := range ps {
		x, y := math.Log(p.n), math.Log(p.sec)
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	den := k*sxx - sx*sx
	if den == 0 {
		return 0, 0
	}
	b = (k*sxy - sx*sy) / den
	a := (sy - b*sx) / k
	my := sy / k
	var ssRes, ssTot float64
	for _, p := range ps {
		x, y := math.Log(p.n), math.Log(p.sec)
		ssRes += (y - a - b*x) * (y - a - b*x)
		ssTot += (y - my) * (y - my)
	}
	if ssTot == 0 {
		return b, 1
	}
	return b, 1 - ssRes/ssTot
}

// orders are the familiar growth orders as g(n).
var orders = map[string]func(n float64) float64{
	"~1":       func(float64) float64 { return 1 },
	"~log n":   func(n float64) float64 { return math.Log(math.Max(n, 2)) },
	"~√n":      math.Sqrt,
	"~n":       func(n float64) float64 { return n },
	"~n log n": func(n float64) float64 { return n * math.Log(math.Max(n, 2)) },
	"~n²":      func(n float64) float64 { return n * n },
	"~n³":      func(n float64) float64 { return n * n * n },
}

// growth names the nearest familiar order for exponent b: the candidates
// of b's band, and among them the one with the smallest log residual.
func growth(ps []point, b float64) string {
	var cands []string
	switch {
	case b < 0.25:
		cands = []string{"~1", "~log n"}
	case b < 0.75:
		cands = []string{"~log n", "~√n"}
	case b < 1.05:
		cands = []string{"~n"}
	case b < 1.25:
		cands = []string{"~n", "~n log n"}
	case b < 1.75:
		cands = []string{"~n log n", "~n²"}
	case b < 2.5:
		cands = []string{"~n²"}
	default:
		cands = []string{"~n³"}
	}
	best, bestRes := cands[0], math.Inf(1)
	for _, c := range cands {
		if r := residual(ps, orders[c]); r < bestRes-1e-12 {
			best, bestRes = c, r
		}
	}
	return best
}

// residual is the sum of squares of log(sec) - log(c·g(n)) for the best c.
func residual(ps []point, g func(float64) float64) float64 {
	ds := make([]float64, len(ps))
	mean := 0.0
	for i, p := range ps {
		ds[i] = math.Log(p.sec) - math.Log(g(p.n))
		mean += ds[i]
	}
	mean /= float64(len(ps))
	ss := 0.0
	for _, d := range ds {
		ss += (d - mean) * (d - mean)
	}
	return ss
}
