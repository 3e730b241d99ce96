package mapkeybuilt

import "fmt"

type Region int

func (r Region) String() string { return [...]string{"eu", "us"}[r] }

type Tier int

func (t Tier) String() string { return [...]string{"hot", "cold"}[t] }

type Agg struct{ stats map[string]int }

func (a *Agg) Add(r Region, t Tier) {
	key := r.String() + "/" + t.String()
	a.stats[key]++ // want `the key of a.stats is built on every lookup \(r.String\(\) \+ "/" \+ t.String\(\)\)`
}

func (a *Agg) Get(r Region, n int) int {
	return a.stats[fmt.Sprintf("%s-%d", r, n)] // want `the key of a.stats is built on every lookup`
}

// A key that is already a string: no shape.
func (a *Agg) Lookup(name string) int { return a.stats[name] }

// A constant key: no shape.
func (a *Agg) Total() int { return a.stats["eu"+"/hot"] }
