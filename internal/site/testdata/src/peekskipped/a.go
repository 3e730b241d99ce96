package peekskipped

import "errors"

// buffered is a reader over a buffer, as philhofer/fwd's.
type buffered struct {
	data []byte
	n    int
}

func (r *buffered) Peek(n int) ([]byte, error) {
	if len(r.data)-r.n < n {
		return nil, errors.New("short")
	}
	return r.data[r.n : r.n+n], nil
}

func (r *buffered) PeekByte() (byte, error) {
	if r.n >= len(r.data) {
		return 0, errors.New("short")
	}
	return r.data[r.n], nil
}

func (r *buffered) Skip(n int) (int, error) {
	r.n += n
	return n, nil
}

func (r *buffered) Next(n int) ([]byte, error) {
	if len(r.data)-r.n < n {
		return nil, errors.New("short")
	}
	b := r.data[r.n : r.n+n]
	r.n += n
	return b, nil
}

type Reader struct{ R *buffered }

// ReadInt consumes what it peeked with Next.
func (m *Reader) ReadInt() (int64, error) {
	lead, err := m.R.PeekByte()
	if err != nil {
		return 0, err
	}
	if lead < 0x80 {
		_, err = m.R.Next(1)
		return int64(lead), err
	}
	p, err := m.R.Next(9)
	if err != nil {
		return 0, err
	}
	return int64(p[1]), nil
}

// ReadUint consumes the peeked byte with Skip.
func (m *Reader) ReadUint() (uint64, error) {
	lead, err := m.R.PeekByte()
	if err != nil {
		return 0, err
	}
	if lead < 0x80 {
		_, err = m.R.Skip(1) // want `m.R.Skip\(1\) consumes the byte that m.R.PeekByte\(\) \(line 60\) already buffered, through Skip; m.R.Next returns buffered bytes and moves past them in one call, as ReadInt does after its peek \(line 42\)$`
		return uint64(lead), err
	}
	return 0, nil
}

// ReadFloat peeks at 9 bytes and skips them.
func (m *Reader) ReadFloat() (float64, error) {
	p, err := m.R.Peek(9)
	if err != nil {
		return 0, err
	}
	f := float64(p[1])
	_, err = m.R.Skip(9) // want `m.R.Skip\(9\) consumes the bytes that m.R.Peek\(9\) \(line 73\) already buffered`
	return f, err
}

// SkipMore skips past what it peeked: not the same bytes.
func (m *Reader) SkipMore() error {
	if _, err := m.R.PeekByte(); err != nil {
		return err
	}
	_, err := m.R.Skip(4)
	return err
}
