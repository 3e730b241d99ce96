package presize

// Squares ranges over an integer.
func Squares(n int) []int {
	sq := make([]int, 0)
	for i := range n {
		sq = append(sq, i*i) // want `grows by one element per element of`
	}
	return sq
}
