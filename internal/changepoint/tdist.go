package changepoint

import "math"

// commitTest is Student's two-sample t-test on the commit medians either
// side of a split, with the variance pooled over both sides: when one side
// has a single commit, it asks whether that commit lies outside the
// scatter of the other side's commits (a prediction interval). Its degrees
// of freedom count commits, not runs, so it holds when something that
// changes per commit adds noise and there are few commits to estimate it
// from. It returns 0 (no objection) when there is no scatter to estimate:
// one commit a side.
func commitTest(left, right []float64) float64 {
	nl, nr := len(left), len(right)
	df := nl + nr - 2
	if df < 1 {
		return 0
	}
	ml, vl := meanVar(left)
	mr, vr := meanVar(right)
	pooled := (vl*float64(nl-1) + vr*float64(nr-1)) / float64(df)
	se := math.Sqrt(pooled * (1/float64(nl) + 1/float64(nr)))
	diff := mr - ml
	if se == 0 {
		if diff == 0 {
			return 1
		}
		return 0
	}
	return tTwoSided(diff/se, float64(df))
}

// meanVar returns the mean and the sample variance (0 for one value) of xs.
func meanVar(xs []float64) (mean, variance float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	for _, x := range xs {
		variance += (x - mean) * (x - mean)
	}
	return mean, variance / float64(len(xs)-1)
}

// tTwoSided returns the two-sided p-value of Student's t distribution with
// df degrees of freedom at t: P(|T| ≥ |t|) = I_{df/(df+t²)}(df/2, 1/2).
func tTwoSided(t, df float64) float64 {
	if math.IsNaN(t) || !(df > 0) {
		return 1
	}
	if math.IsInf(t, 0) {
		return 0
	}
	return regIncBeta(df/2, 0.5, df/(df+t*t))
}

// regIncBeta is the regularized incomplete beta function I_x(a, b),
// evaluated with its continued fraction (Numerical Recipes §6.4) by the
// modified Lentz method.
func regIncBeta(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log1p(-x))
	if x < (a+1)/(a+b+2) {
		return front * betaFraction(a, b, x) / a
	}
	return 1 - front*betaFraction(b, a, 1-x)/b
}

func betaFraction(a, b, x float64) float64 {
	const tiny, eps = 1e-300, 1e-15
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		num := fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm))
		for range 2 {
			d = 1 + num*d
			if math.Abs(d) < tiny {
				d = tiny
			}
			c = 1 + num/c
			if math.Abs(c) < tiny {
				c = tiny
			}
			d = 1 / d
			h *= d * c
			num = -(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1))
		}
		if math.Abs(d*c-1) < eps {
			break
		}
	}
	return h
}
