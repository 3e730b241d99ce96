package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestSignedRankPMatchesR(t *testing.T) {
	// R: x <- c(1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30)
	//    y <- c(0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29)
	//    wilcox.test(x, y, paired = TRUE)  # V = 40, p-value = 0.03906
	x := []float64{1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30}
	y := []float64{0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29}
	d := make([]float64, len(x))
	for i := range x {
		d[i] = x[i] - y[i]
	}
	if p := SignedRankP(d); math.Abs(p-0.03906) > 5e-5 {
		t.Errorf("p = %.5f, want 0.03906", p)
	}
	// All of n same-signed: the smallest p, 2/2^n.
	if p := SignedRankP([]float64{1, 2, 3, 4, 5, 6}); math.Abs(p-2.0/64) > 1e-12 {
		t.Errorf("p = %g, want 1/32", p)
	}
	if p := SignedRankP([]float64{0, 0, 0}); p != 1 {
		t.Errorf("all-zero p = %g, want 1", p)
	}
}

// TestSignedRankPIsExact checks the null distribution by simulation: with
// symmetric noise the test rejects at about its level, ties and all.
func TestSignedRankPIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const trials = 4000
	rejects := 0
	for i := 0; i < trials; i++ {
		d := make([]float64, 12)
		for j := range d {
			d[j] = math.Round(r.NormFloat64()*3) / 3 // coarse: many ties
		}
		if SignedRankP(d) <= 0.05 {
			rejects++
		}
	}
	if rate := float64(rejects) / trials; rate > 0.06 {
		t.Errorf("null rejection rate %.3f, want <= 0.05 (+ simulation error)", rate)
	}
}

func TestComparePaired(t *testing.T) {
	a := []float64{100, 102, 98, 101, 99, 100, 103, 97, 100, 101, 99, 100}
	b := make([]float64, len(a))
	for i := range a {
		b[i] = a[i] * 1.10
	}
	p := ComparePaired(a, b, 0.05)
	if !p.Ratio || math.Abs(p.Delta-0.10) > 1e-9 {
		t.Errorf("delta = %g (ratio %v), want 0.10", p.Delta, p.Ratio)
	}
	if p.P > 0.001 {
		t.Errorf("p = %g for a consistent 10%% change, want tiny", p.P)
	}
	if p.Low > p.Delta || p.High < p.Delta {
		t.Errorf("interval [%g, %g] does not contain %g", p.Low, p.High, p.Delta)
	}
	// Zeros (0 allocs/op) fall back to differences.
	z := ComparePaired([]float64{0, 0, 0}, []float64{0, 0, 0}, 0.05)
	if z.Ratio || z.Delta != 0 || z.P != 1 {
		t.Errorf("all-zero paired = %+v", z)
	}
}

func TestSpendSumsToAlpha(t *testing.T) {
	looks := Looks(8, 30)
	if looks[0] != 8 || looks[len(looks)-1] != 30 {
		t.Fatalf("looks = %v", looks)
	}
	sum, prev := 0.0, 0
	for _, n := range looks {
		s := Spend(0.05, prev, n, 30)
		if s <= 0 {
			t.Errorf("look at %d spends %g", n, s)
		}
		sum += s
		prev = n
	}
	if math.Abs(sum-0.05) > 1e-12 {
		t.Errorf("spent %g over %v, want 0.05", sum, looks)
	}
}

func TestMDEAt(t *testing.T) {
	a := []float64{100, 101, 99, 100, 102, 98, 100, 101, 99, 100, 100, 101}
	b := []float64{101, 100, 100, 99, 101, 99, 101, 100, 98, 101, 100, 100}
	p := ComparePaired(a, b, Alpha)
	m1 := p.MDEAt(0.05, 1)
	m4 := p.MDEAt(0.05, 4)
	mLow := p.MDEAt(0.005, 1)
	if !(m1 > 0 && m4 > m1 && mLow > m1) {
		t.Errorf("MDEAt: 1 row at 0.05 %.4f, 4 rows %.4f, 1 row at 0.005 %.4f: want more rows and a lower level to need a larger change", m1, m4, mLow)
	}
	// Three pairs: the exact test's smallest p is 2/2³ = 0.25, which can
	// never reach 0.05: no change of any size is detectable.
	if got := ComparePaired(a[:3], b[:3], Alpha).MDEAt(0.05, 1); !math.IsInf(got, 1) {
		t.Errorf("MDEAt with 3 pairs = %g, want +Inf", got)
	}
}

func TestSpendFraction(t *testing.T) {
	total := 0.0
	prev := 0.0
	for _, f := range []float64{0.1, 0.35, 0.35, 0.8, 1} {
		total += SpendFraction(0.05, prev, f)
		prev = f
	}
	if math.Abs(total-0.05) > 1e-12 {
		t.Errorf("levels over the looks sum to %g, want 0.05", total)
	}
}
