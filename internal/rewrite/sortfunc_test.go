package rewrite

import (
	"cmp"
	"slices"
	"sort"
	"testing"
)

// FuzzSortFuncOrder: the rewrite's claim — sort.Slice with a less of
// field comparisons and slices.SortFunc with cmp.Compare of the same
// fields (cmp.Or for the tie-breaks) leave the slice in the same order,
// elements with equal keys included (both are the same pdqsort), and
// SliceStable and SortStableFunc too.
func FuzzSortFuncOrder(f *testing.F) {
	f.Add([]byte{3, 1, 2, 1, 3, 0, 0, 9, 1, 1})
	f.Add([]byte("the quick brown fox jumps over the lazy dog, again and again and again"))
	f.Fuzz(func(t *testing.T, data []byte) {
		type entry struct {
			size int
			name string
			id   int
		}
		var es []entry
		for i := 0; i+1 < len(data); i += 2 {
			es = append(es, entry{size: int(data[i] % 4), name: string(rune('a' + data[i+1]%3)), id: i})
		}
		for _, stable := range []bool{false, true} {
			a, b := slices.Clone(es), slices.Clone(es)
			less := func(i, j int) bool {
				if a[i].size != a[j].size {
					return a[i].size > a[j].size
				}
				return a[i].name < a[j].name
			}
			fn := func(x, y entry) int {
				return cmp.Or(cmp.Compare(y.size, x.size), cmp.Compare(x.name, y.name))
			}
			if stable {
				sort.SliceStable(a, less)
				slices.SortStableFunc(b, fn)
			} else {
				sort.Slice(a, less)
				slices.SortFunc(b, fn)
			}
			if !slices.Equal(a, b) {
				t.Fatalf("stable %v: sort.Slice gave\n%v\nslices.SortFunc\n%v", stable, a, b)
			}
		}
	})
}
