package copiedlarge

type symType struct {
	yys  int
	strs [60]string
}

type small struct{ a, b int }

func parse(in []int) int {
	var val symType
	stack := make([]symType, 16)
	p := 0
	for _, x := range in {
		if x > 0 {
			p++
			stack[p] = val // want `parse copies a symType \(968 bytes\) in its loop at lines 17 and 20: stack\[p\] = val`
		} else {
			p--
			val = stack[p+1] // want `parse copies a symType \(968 bytes\) in its loop at lines 17 and 20: val = stack\[p\+1\]`
		}
	}
	return p
}

func gotoLoop(in []int) int {
	var val symType
	var s [4]symType
	i := 0
top:
	s[i%4] = val // want `gotoLoop copies a symType \(968 bytes\) in its loop at line 31: s\[i%4\] = val`
	i++
	if i < len(in) {
		goto top
	}
	return i
}

// Outside a loop: one copy.
func once(v symType) symType {
	w := v
	return w
}

// Small values copy in a few moves.
func smallCopies(in []small) small {
	var s small
	for i := range in {
		s = in[i]
	}
	return s
}

// A forward goto is no loop.
func forward(v symType) symType {
	var w symType
	if v.yys > 0 {
		goto done
	}
	w = v
done:
	return w
}
