package profiles

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestFlameAgreesWithTop checks the call tree against the hotspot
// analysis on the checked-in profiles: the root holds the whole profile,
// every node's value is its self plus its children's, a function's flat is
// the sum of its nodes' self, and its cum the sum of its outermost nodes
// (recursion counts once, as in pprof -top).
func TestFlameAgreesWithTop(t *testing.T) {
	for _, bench := range []string{"BenchmarkCount", "BenchmarkFrame", "BenchmarkLabels", "BenchmarkSum"} {
		t.Run(bench, func(t *testing.T) {
			p, err := ReadFile(filepath.Join("testdata", bench+".cpu.pprof"))
			if err != nil {
				t.Fatal(err)
			}
			opts := plantedOpts
			opts.Benchmark = bench
			c, err := AnalyzeCPU(p, opts)
			if err != nil {
				t.Fatal(err)
			}
			root := Flame(p)
			if root.Name != "root" || root.Value != c.Total {
				t.Fatalf("root %s = %d, want root = %d", root.Name, root.Value, c.Total)
			}
			flat := map[string]int64{}
			cum := map[string]int64{}
			var walk func(n *FlameNode, onStack map[string]bool)
			walk = func(n *FlameNode, onStack map[string]bool) {
				sum := n.Self
				for _, ch := range n.Children {
					sum += ch.Value
				}
				if sum != n.Value {
					t.Errorf("%s: value %d, self+children %d", n.Name, n.Value, sum)
				}
				if !slices.IsSortedFunc(n.Children, func(a, b *FlameNode) int { return int(b.Value - a.Value) }) {
					t.Errorf("%s: children not sorted by value", n.Name)
				}
				flat[n.Name] += n.Self
				if !onStack[n.Name] {
					cum[n.Name] += n.Value
				}
				was := onStack[n.Name]
				onStack[n.Name] = true
				for _, ch := range n.Children {
					walk(ch, onStack)
				}
				onStack[n.Name] = was
			}
			for _, ch := range root.Children {
				walk(ch, map[string]bool{})
			}
			for _, f := range c.Functions {
				if flat[f.Name] != f.Flat || cum[f.Name] != f.Cum {
					t.Errorf("%s: flame flat/cum %d/%d, top says %d/%d", f.Name, flat[f.Name], cum[f.Name], f.Flat, f.Cum)
				}
			}
			if d := root.Depth(); d < 5 {
				t.Errorf("depth %d: the tree is too shallow to be a call tree", d)
			}
		})
	}
}

// TestFlamePath checks that the planted map-bound benchmark's dominant
// path is a chain of nodes in the tree, caller above callee.
func TestFlamePath(t *testing.T) {
	p, err := ReadFile(filepath.Join("testdata", "BenchmarkCount.cpu.pprof"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"example.com/planted.BenchmarkCount", "example.com/planted.(*Index).Count", "runtime.mapaccess2_faststr"}
	var find func(n *FlameNode, name string) *FlameNode
	find = func(n *FlameNode, name string) *FlameNode {
		if n.Name == name {
			return n
		}
		for _, c := range n.Children {
			if f := find(c, name); f != nil {
				return f
			}
		}
		return nil
	}
	n := Flame(p)
	for _, name := range want {
		next := find(n, name)
		if next == nil {
			t.Fatalf("no %s below %s", name, n.Name)
		}
		n = next
	}
	if share := float64(n.Value) / float64(Flame(p).Value); share < 0.5 {
		t.Errorf("mapaccess2_faststr under Count has %.2f of the samples, want most", share)
	}
}
