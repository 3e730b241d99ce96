package writebatched

import "os"

type DB struct {
	file *os.File
	buf  []byte
}

type item struct{ key, val string }

func (i item) writeTo(b []byte) []byte { return append(b, i.key...) }

func (db *DB) Commit(items []item) error {
	db.buf = db.buf[:0]
	db.buf = append(db.buf, '*')
	for _, it := range items {
		db.buf = it.writeTo(db.buf)
	}
	_, err := db.file.Write(db.buf) // want `Commit writes db.buf, which it builds by appending first \(from line 16\), to db.file in one call`
	return err
}

// A write per item is another shape.
func (db *DB) Each(items []item) {
	for _, it := range items {
		db.buf = it.writeTo(db.buf[:0])
		db.file.Write(db.buf)
	}
}

// A buffer the function did not build: nothing to say.
func (db *DB) Raw(b []byte) { db.file.Write(b) }
