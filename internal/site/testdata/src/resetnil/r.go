package resetnil

type Diff struct {
	Op   int
	Text string
}

func prefix(a, b []rune) int { return 0 }

func merge(diffs []Diff) []Diff {
	var ins, del []rune
	for i := 0; i < len(diffs); i++ {
		switch diffs[i].Op {
		case 1:
			ins = append(ins, []rune(diffs[i].Text)...) // want `ins = append\(ins, \[\]rune\(diffs\[i\].Text\)...\) appends to ins, which line 21 sets to nil in the same loop`
		case -1:
			del = append(del, []rune(diffs[i].Text)...) // want `del = append\(del, \[\]rune\(diffs\[i\].Text\)...\) appends to del, which line 22 sets to nil`
		default:
			n := prefix(ins, del)
			diffs[i].Text = string(ins[n:]) + string(del)
			ins = nil
			del = nil
		}
	}
	return diffs
}

// kept stores the slice before resetting: its array is someone else's.
func kept(words []string) [][]byte {
	var out [][]byte
	var cur []byte
	for _, w := range words {
		cur = append(cur, w...)
		if len(cur) > 8 {
			out = append(out, cur)
			cur = nil
		}
	}
	return out
}
