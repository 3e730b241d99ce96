package builtperop

type Encoder struct{ buf []byte }

func NewJSONEncoder() *Encoder { return &Encoder{buf: make([]byte, 0, 1024)} }

func (e *Encoder) AddString(k, v string) { e.buf = append(e.buf, k...) }
