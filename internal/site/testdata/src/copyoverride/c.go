package copyoverride

type mode struct {
	sort      int
	strings   int
	bytesFmt  int
	bytesTag  uint64
	indefLen  bool
	tags      []string
	timeFmt   string
	nilFormat int
}

type tag struct {
	Number  uint64
	Content any
}

func encode(dst []byte, m *mode, v any) []byte { return dst }

// The copy is made for every tag; only tags 0, 2 and 3 change it.
func encodeTag(dst []byte, m *mode, t tag) []byte {
	vm := *m // want `encodeTag copies \*m \(mode, \d+ bytes\) into vm on every call so that branches can change strings, bytesFmt, bytesTag \(lines 26–29\), and hands &vm to encode: once its address leaves encodeTag the copy is on the heap`
	switch t.Number {
	case 0:
		vm.strings = 1
	case 2, 3:
		vm.bytesFmt = 0
		vm.bytesTag = 0
	}
	return encode(dst, &vm, t.Content)
}

// Every call changes a field: the copy is the function's work.
func withSort(dst []byte, m *mode, v any) []byte {
	vm := *m
	vm.sort = 1
	if v == nil {
		vm.strings = 2
	}
	return encode(dst, &vm, v)
}

// Not handed on by its address: the copy may stay on the stack.
func byValue(m *mode, n uint64) int {
	vm := *m
	if n == 0 {
		vm.strings = 1
	}
	return vm.strings + vm.sort
}

// Returned by its address: a new value the caller keeps.
func derived(m *mode, n uint64) *mode {
	vm := *m
	if n == 0 {
		vm.strings = 1
	}
	return &vm
}
