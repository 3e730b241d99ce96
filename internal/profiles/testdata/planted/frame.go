package planted

// Frame returns a frame of n bytes with a header byte: n is not a
// constant, so the buffer is allocated on the heap.
func Frame(n int) []byte {
	buf := make([]byte, n)
	buf[0] = 0x7f
	return buf
}

// frameSize varies the frame length so the compiler cannot know it.
func frameSize(i int) int { return 512 + i%512 }
