package consumed

import "testing"

type Tree struct{ m map[int]bool }

func (t *Tree) Put(k int)      { t.m[k] = true }
func (t *Tree) Remove(k int)   { delete(t.m, k) }
func (t *Tree) Get(k int) bool { return t.m[k] }

func fill(size int) *Tree {
	t := &Tree{m: map[int]bool{}}
	for n := 0; n < size; n++ {
		t.Put(n)
	}
	return t
}

// A helper the benchmarks fill the tree for: every iteration removes.
func benchmarkRemove(b *testing.B, tree *Tree, size int) {
	for i := 0; i < b.N; i++ {
		for n := 0; n < size; n++ {
			tree.Remove(n) // want `every iteration removes from tree \(Remove\), and nothing in the loop puts anything back`
		}
	}
}

func BenchmarkRemove100(b *testing.B) {
	tree := fill(100)
	b.ResetTimer()
	benchmarkRemove(b, tree, 100)
}

// Removes and puts back: a steady state.
func BenchmarkRemovePut(b *testing.B) {
	tree := fill(100)
	for i := 0; i < b.N; i++ {
		tree.Remove(i % 100)
		tree.Put(i % 100)
	}
}

// Refilled in each iteration.
func BenchmarkRefilled(b *testing.B) {
	tree := fill(100)
	for b.Loop() {
		for n := 0; n < 100; n++ {
			tree.Remove(n)
		}
		b.StopTimer()
		tree = fill(100)
		b.StartTimer()
	}
}

// Made in the loop.
func BenchmarkFresh(b *testing.B) {
	for b.Loop() {
		tree := fill(10)
		tree.Remove(1)
	}
}

// Reads only.
func BenchmarkGet(b *testing.B) {
	tree := fill(100)
	for b.Loop() {
		tree.Get(1)
	}
}

// ReplaceOrInsert puts back what Remove took: a steady state.
func (t *Tree) ReplaceOrInsert(k int) { t.m[k] = true }

func BenchmarkDeleteInsert(b *testing.B) {
	tree := fill(100)
	for i := 0; i < b.N; i++ {
		tree.Remove(i % 100)
		tree.ReplaceOrInsert(i % 100)
	}
}

// Clear empties the whole tree on the first iteration.
func (t *Tree) Clear() { clear(t.m) }

func BenchmarkClear(b *testing.B) {
	tree := fill(100)
	for i := 0; i < b.N; i++ {
		tree.Clear() // want `every iteration removes from tree \(Clear\), and nothing in the loop puts anything back`
	}
}
