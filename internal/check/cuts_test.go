package check

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/findings"
)

// cutCases are check's decisions at the edge of each of its cuts
// (findings.CheckThresholds): the measured value at 1.3× the cut and at
// 0.7×, so that moving a cut ×2 or ×0.5 changes one of them. A case is
// named after the field it pins.
var cutCases = []struct {
	name   string
	decide func() bool
}{
	{"AllocsPerOp/0.65 allocs/op more is a regression", func() bool {
		return regressed(row{unit: "allocs/op", old: 1, new: 1.65, better: -1}, 0.05)
	}},
	{"AllocsPerOp/0.35 is not", func() bool {
		return regressed(row{unit: "allocs/op", old: 1, new: 1.35, better: -1}, 0.05)
	}},
	{"BytesPerOp/10.4 B/op more on 0 is a regression", func() bool {
		return regressed(row{unit: "B/op", old: 0, new: 10.4, better: -1}, 0.05)
	}},
	{"BytesPerOp/5.6 B/op is not", func() bool {
		return regressed(row{unit: "B/op", old: 0, new: 5.6, better: -1}, 0.05)
	}},
	{"AllocsPerOp/the counters moved by 0.65 allocs/op", func() bool {
		return allocsMoved(map[RowKey]row{rowKey("p", "B", "allocs/op"): {old: 1, new: 1.65}}, "p", "B")
	}},
	{"AllocsPerOp/not by 0.35", func() bool {
		return allocsMoved(map[RowKey]row{rowKey("p", "B", "allocs/op"): {old: 1, new: 1.35}}, "p", "B")
	}},
	{"BytesPerOp/the counters moved by 10.4 B/op", func() bool {
		return allocsMoved(map[RowKey]row{rowKey("p", "B", "B/op"): {old: 100, new: 110.4}}, "p", "B")
	}},
	{"BytesPerOp/not by 5.6", func() bool {
		return allocsMoved(map[RowKey]row{rowKey("p", "B", "B/op"): {old: 100, new: 105.6}}, "p", "B")
	}},
	{"SiteObjects/a site 0.26 objects per op larger grew", func() bool { return siteGrew(false, 1.26, 0.26, 0) }},
	{"SiteObjects/0.14 did not", func() bool { return siteGrew(false, 1.14, 0.14, 0) }},
	{"BytesPerOp/a site 10.4 B per op larger grew", func() bool { return siteGrew(false, 1, 0, 10.4) }},
	{"BytesPerOp/5.6 B did not", func() bool { return siteGrew(false, 1, 0, 5.6) }},
	{"NewSiteObjects/a new site at 0.065 objects per op is new", func() bool { return siteGrew(true, 0.065, 0.065, 0) }},
	{"NewSiteObjects/at 0.035 it is not", func() bool { return siteGrew(true, 0.035, 0.035, 0) }},
	{"CPUGrowth/lines 6.5% of the time per op slower grew", func() bool { return cpuGrew(0.065, 0.001, 1) }},
	{"CPUGrowth/3.5% did not", func() bool { return cpuGrew(0.035, 0.001, 1) }},
	{"CPUSigmas/a growth of 3.9σ is a cause", func() bool { return cpuGrew(0.39, 0.1, 1) }},
	{"CPUSigmas/2.1σ is not", func() bool { return cpuGrew(0.21, 0.1, 1) }},
}

// TestCheckThresholdsMatter: each case decides as its name says at the
// default cuts, and moving any cut ×2 or ×0.5 changes a case named after
// it.
func TestCheckThresholdsMatter(t *testing.T) {
	decide := func(th findings.CheckThresholds) []bool {
		defer func(old findings.CheckThresholds) { cuts = old }(cuts)
		cuts = th
		var out []bool
		for _, c := range cutCases {
			out = append(out, c.decide())
		}
		return out
	}
	base := decide(findings.DefaultCheck)
	for i, c := range cutCases {
		if want := i%2 == 0; base[i] != want {
			t.Errorf("%s: decided %v at the default cuts", c.name, base[i])
		}
	}
	typ := reflect.TypeOf(findings.CheckThresholds{})
	for i := range typ.NumField() {
		name := typ.Field(i).Name
		for _, factor := range []float64{2, 0.5} {
			th := findings.DefaultCheck
			v := reflect.ValueOf(&th).Elem().Field(i)
			v.SetFloat(v.Float() * factor)
			got := decide(th)
			changed := false
			for j, c := range cutCases {
				if got[j] != base[j] && pinsCut(c.name, name) {
					changed = true
				}
			}
			if !changed {
				t.Errorf("CheckThresholds.%s ×%g changes no case named after it", name, factor)
			}
		}
	}
	if got := decide(findings.DefaultCheck); !slices.Equal(got, base) {
		t.Errorf("the cuts were not restored: %v, want %v", got, base)
	}
}

// pinsCut reports whether a case is named after the field.
func pinsCut(caseName, field string) bool {
	name, _, _ := strings.Cut(caseName, "/")
	return name == field
}
