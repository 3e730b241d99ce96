package tablefallback

import "math/big"

const tableSize = 128

var pow10 [tableSize + 1]big.Int

func setPow(res *big.Int, n int64) {
	res.Exp(big.NewInt(10), big.NewInt(n), nil)
}

// exp10 looks 10^x up when it can, and computes it otherwise.
func exp10(x int64, tmp *big.Int) *big.Int {
	if x <= tableSize {
		return &pow10[x]
	}
	setPow(tmp, x) // want `exp10 returns pow10\[x\] when x <= tableSize and computes the value again at every call beyond it \(setPow\(tmp, x\) at line 18\), from x alone`
	return tmp
}

// Digits calls it: the shape is at the call too.
func Digits(b *big.Int) int64 {
	n := int64(b.BitLen()) * 3 / 10
	var tmp big.Int
	if b.Cmp(exp10(n, &tmp)) >= 0 { // want `Digits calls exp10\(n, &tmp\), which returns pow10\[x\] when x <= tableSize`
		n++
	}
	return n
}

var names = []string{"zero", "one", "two"}

// Name changes x before it computes: not the shape.
func Name(x int) string {
	if x < len(names) {
		return names[x]
	}
	x -= len(names)
	return big.NewInt(int64(x)).String()
}

// Local looks up a table of its own: not a package's table.
func Local(x int) int {
	t := []int{1, 2, 3}
	if x < len(t) {
		return t[x]
	}
	return square(x)
}

func square(x int) int { return x * x }
