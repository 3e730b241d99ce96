package argignored

type Iterator struct {
	buf  []byte
	head int
}

func (it *Iterator) ReadString() string { return string(it.buf[it.head:]) }

func (it *Iterator) next() byte { it.head++; return ',' }

// ReadObjectCB reads each key for its callback.
func (it *Iterator) ReadObjectCB(callback func(*Iterator, string) bool) bool {
	var field string
	field = it.ReadString() // want `ReadObjectCB makes field with it.ReadString\(\) only to pass it to callback, and the callbacks skipObject \(a.go:30\) pass never read it`
	if !callback(it, field) {
		return false
	}
	for it.next() == ',' {
		field = it.ReadString() // want `ReadObjectCB makes field with it.ReadString\(\) only to pass it to callback`
		if !callback(it, field) {
			return false
		}
	}
	return true
}

// skipObject skips the values and ignores the keys.
func (it *Iterator) skipObject() {
	it.ReadObjectCB(func(it *Iterator, field string) bool {
		return true
	})
}

// keys keeps them: no report comes from it alone.
func (it *Iterator) keys() []string {
	var out []string
	it.ReadObjectCB(func(it *Iterator, field string) bool {
		out = append(out, field)
		return true
	})
	return out
}

// A key also used for the function's own work is not made only for the
// callback.
func (it *Iterator) ReadLogged(callback func(string), log func(string)) {
	k := it.ReadString()
	log(k)
	callback(k)
}

func (it *Iterator) quiet() {
	it.ReadLogged(func(string) {}, func(string) {})
}
