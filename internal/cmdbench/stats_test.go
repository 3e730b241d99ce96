package cmdbench

import (
	"math"
	"slices"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestSummarize(t *testing.T) {
	tests := []struct {
		name string
		xs   []float64
		want document.ExecSummary
	}{
		// mean 20/5 = 4; squared deviations 9+4+1+0+36 = 50; 50/4 = 12.5.
		{"odd", []float64{3, 1, 10, 2, 4}, document.ExecSummary{Mean: 4, Stddev: math.Sqrt(12.5), Median: 3, Min: 1, Max: 10}},
		// mean 2.5; squared deviations 2.25+0.25+0.25+2.25 = 5; 5/3.
		{"even", []float64{4, 1, 3, 2}, document.ExecSummary{Mean: 2.5, Stddev: math.Sqrt(5.0 / 3), Median: 2.5, Min: 1, Max: 4}},
		{"one", []float64{0.05}, document.ExecSummary{Mean: 0.05, Stddev: 0, Median: 0.05, Min: 0.05, Max: 0.05}},
		{"empty", nil, document.ExecSummary{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := slices.Clone(tt.xs)
			got := Summarize(tt.xs)
			if !near(got.Mean, tt.want.Mean) || !near(got.Stddev, tt.want.Stddev) || !near(got.Median, tt.want.Median) ||
				got.Min != tt.want.Min || got.Max != tt.want.Max {
				t.Errorf("Summarize(%v) = %+v, want %+v", tt.xs, got, tt.want)
			}
			if !slices.Equal(in, tt.xs) {
				t.Errorf("Summarize reordered its input: %v, was %v", tt.xs, in)
			}
		})
	}
}

func TestModifiedZScores(t *testing.T) {
	// median 3, absolute deviations 2 1 0 1 7 → MAD 1.
	got := ModifiedZScores([]float64{1, 2, 3, 4, 10})
	want := []float64{-2, -1, 0, 1, 7}
	if !slices.Equal(got, want) {
		t.Errorf("ModifiedZScores = %v, want %v", got, want)
	}
}

func TestModifiedZScoresFloor(t *testing.T) {
	// median 11.57, MAD 0.002 < 1% of the median: the floor 0.1157
	// scores the 11.90 run (11.90−11.57)/0.1157 ≈ 2.85, not 165.
	z := ModifiedZScores([]float64{11.90, 11.57, 11.572})
	if want := (11.90 - 11.572) / 0.11572; !near(z[0], want) {
		t.Errorf("z = %v, want %v first", z, want)
	}
	if o := Outliers([]float64{11.90, 11.57, 11.572}); o != nil {
		t.Errorf("a run 3%% slow is flagged: %v", o)
	}
	// 20% slow is.
	if o := Outliers([]float64{14.0, 11.57, 11.572, 11.6}); !slices.Equal(o, []int{0}) {
		t.Errorf("a run 20%% slow is not flagged: %v", o)
	}
}

// TestOutliers uses hyperfine's own test vectors (src/outlier_detection.rs)
// so the two tools flag the same runs.
func TestOutliers(t *testing.T) {
	normal := []float64{2.33269488, 1.42195907, -0.57527698, -0.31293437, 2.2948158,
		0.75813273, -1.0712388, -0.96394741, -1.15897446, 1.10976285}
	tests := []struct {
		xs   []float64
		want []int
	}{
		{nil, nil},
		{[]float64{50}, nil},
		{[]float64{1000, 0}, nil},
		{[]float64{-0.2, 0, 0.2}, nil},
		{[]float64{-0.2, 0, 0.2, 4}, []int{3}},
		{[]float64{0.5, 0.30, 0.29, 0.31, 0.30}, []int{0}},
		{normal, nil},
		{append(slices.Clone(normal), 20, -500), []int{10, 11}},
		// MAD 0: every value off the median is an outlier.
		{[]float64{10, 10, 10, 10, 10, 10, 10, 100}, []int{7}},
		{[]float64{10, 10, 10, 10, 10, 10, 10, 100, 100}, []int{7, 8}},
	}
	for _, tt := range tests {
		if got := Outliers(tt.xs); !slices.Equal(got, tt.want) {
			t.Errorf("Outliers(%v) = %v, want %v", tt.xs, got, tt.want)
		}
	}
}

func TestCompareMeans(t *testing.T) {
	// mean(a) 2, sd 1; mean(b) 4, sd 2: ratio 0.5, relative errors 0.5
	// and 0.5, so the delta-method sd is 0.5·√0.5.
	a := []float64{1, 2, 3}
	b := []float64{2, 4, 6}
	r, ok := CompareMeans(a, b, false)
	if !ok {
		t.Fatal("CompareMeans: not ok")
	}
	if !near(r.Value, 0.5) || !near(r.Stddev, 0.5*math.Sqrt(0.5)) {
		t.Errorf("ratio %v ± %v, want 0.5 ± %v", r.Value, r.Stddev, 0.5*math.Sqrt(0.5))
	}
	if r.Paired || !(r.Low < 0.5 && r.High > 0.5) {
		t.Errorf("unpaired interval [%v, %v] (paired %v), want one around 0.5", r.Low, r.High, r.Paired)
	}

	// b is exactly 2a round by round: drift common to both sides. The
	// paired bootstrap sees a ratio of exactly 0.5 in every resample.
	p, _ := CompareMeans(a, b, true)
	if !p.Paired || !near(p.Low, 0.5) || !near(p.High, 0.5) {
		t.Errorf("paired interval [%v, %v] (paired %v), want [0.5, 0.5]", p.Low, p.High, p.Paired)
	}

	// Unequal lengths cannot be paired.
	if u, _ := CompareMeans(a, []float64{2, 4}, true); u.Paired {
		t.Error("samples of different lengths were paired")
	}

	// Identical constant samples: no spread at all.
	c, _ := CompareMeans([]float64{2, 2, 2}, []float64{1, 1, 1}, false)
	if c.Value != 2 || c.Stddev != 0 || c.Low != 2 || c.High != 2 {
		t.Errorf("constant samples: %+v, want ratio 2 with no spread", c)
	}

	// The resampling is seeded: same input, same interval.
	again, _ := CompareMeans(a, b, false)
	if again != r {
		t.Errorf("CompareMeans is not deterministic: %+v then %+v", r, again)
	}

	for _, z := range [][2][]float64{{nil, b}, {a, nil}, {a, {0, 0}}, {{0}, b}} {
		if _, ok := CompareMeans(z[0], z[1], false); ok {
			t.Errorf("CompareMeans(%v, %v) ok, want not ok", z[0], z[1])
		}
	}
}

func TestQuantile(t *testing.T) {
	s := []float64{10, 20, 30, 40, 50}
	for _, tt := range []struct{ q, want float64 }{
		{0, 10}, {0.25, 20}, {0.5, 30}, {0.1, 14}, {0.975, 49}, {1, 50},
	} {
		if got := quantile(s, tt.q); !near(got, tt.want) {
			t.Errorf("quantile(%v) = %v, want %v", tt.q, got, tt.want)
		}
	}
}

func TestSignificant(t *testing.T) {
	for _, tt := range []struct {
		low, high float64
		want      bool
	}{{1.1, 1.3, true}, {0.7, 0.9, true}, {0.9, 1.1, false}, {1, 1.2, false}} {
		if got := (document.ExecComparison{Low: tt.low, High: tt.high}).Significant(); got != tt.want {
			t.Errorf("[%v, %v] significant = %v, want %v", tt.low, tt.high, got, tt.want)
		}
	}
}
