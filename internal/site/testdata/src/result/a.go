package result

import (
	"errors"
	"math/big"
	"net/url"
	"strconv"
)

// Decimal is an immutable number: every operation returns a new one.
type Decimal struct {
	value *big.Int
	exp   int32
}

// Sub's big.Int arithmetic computes the value it returns.
func (d Decimal) Sub(d2 Decimal) Decimal {
	if d.exp < d2.exp {
		r := d2.rescale(d.exp)        // want `Sub returns rescale's result` `d2.rescale\(d.exp\) computes r, which Sub returns`
		r.value.Sub(d.value, r.value) // want `r.value.Sub\(d.value, r.value\) computes into r, which Sub returns`
		return r
	}
	v := new(big.Int).Sub(d.value, d2.value) // want `new\(big.Int\).Sub\(d.value, d2.value\) computes v, which Sub returns`
	return Decimal{value: v, exp: d.exp}
}

func (d Decimal) rescale(exp int32) Decimal { // want `rescale's result is what the exported Decimal.Sub returns`
	value := new(big.Int)                            // want `new\(big.Int\) computes value, which rescale returns`
	value.Mul(d.value, big.NewInt(int64(d.exp-exp))) // want `value.Mul\(d.value, big.NewInt\(int64\(d.exp - exp\)\)\) computes into value, which rescale returns`
	return Decimal{value: value, exp: exp}
}

// A method that does not return its receiver's type reads it: no shape.
func (d Decimal) Sign() int {
	n := d.value.Sign()
	return n * 1
}

// A value computed and not returned: no shape.
func (d Decimal) IsBig() bool {
	t := new(big.Int).Abs(d.value)
	return t.BitLen() > 64
}

// Decoder decodes values.
type Decoder struct{ buf []byte }

// DecodeString returns the string stringWithLen makes, through string.
func (d *Decoder) DecodeString() (string, error) {
	return d.string(len(d.buf)) // want `DecodeString returns string's result`
}

func (d *Decoder) string(n int) (string, error) { // want `string's result is what the exported \(\*Decoder\).DecodeString returns`
	return d.stringWithLen(n) // want `string returns stringWithLen's result`
}

func (d *Decoder) stringWithLen(n int) (string, error) { // want `stringWithLen's result is what the exported \(\*Decoder\).DecodeString returns \(through \(\*Decoder\).string\)`
	if n <= 0 {
		return "", nil
	}
	return string(d.buf[:n]), nil // want `string\(d.buf\[:n\]\) makes the string stringWithLen returns`
}

// DecodeMap returns a map made with the count the input declares.
func (d *Decoder) DecodeMap() (map[string]any, error) {
	n := len(d.buf)
	m := make(map[string]any, n) // want `make\(map\[string\]any, n\) computes m, which DecodeMap returns`
	for i := 0; i < n; i++ {
		k, err := d.DecodeString() // the key is stored, not returned: no result-passed
		if err != nil {
			return nil, err
		}
		m[k] = i // want `m\[k\] stores into the map DecodeMap returns, made with its size \(make\(map\[string\]any, n\)\): its storage is the result`
	}
	return m, nil
}

// decodeMapPtr stores DecodeMap's result through its pointer parameter.
func (d *Decoder) decodeMapPtr(ptr *map[string]any) error {
	m, err := d.DecodeMap() // want `decodeMapPtr stores through its pointer parameter DecodeMap's result`
	if err != nil {
		return err
	}
	*ptr = m
	return nil
}

// A map made without a size and returned: its growth is not the result's
// size, a hint is the fix; no shape at the store.
func Counts(words []string) map[string]int {
	m := map[string]int{}
	for _, w := range words {
		m[w]++
	}
	return m
}

// An unexported function no exported one returns: no result-forwarded.
func helper() *big.Int {
	return big.NewInt(1) // want `big.NewInt\(1\) computes the value helper returns`
}

// Use keeps helper's result for itself.
func Use() error {
	if helper().Sign() == 0 {
		return errors.New("zero") // an error: no result-computed
	}
	return nil
}

// Pow returns the power it computes in the returned literal.
func (d Decimal) Pow(n *big.Int) Decimal {
	return Decimal{new(big.Int).Exp(d.value, n, nil), d.exp} // want `new\(big.Int\).Exp\(d.value, n, nil\) computes the value Pow returns`
}

// pow10 computes what it returns: a library call in the return.
func pow10(n int64) *big.Int { // want `pow10's result is what the exported Scaled returns`
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(n), nil) // want `new\(big.Int\).Exp\(big.NewInt\(10\), big.NewInt\(n\), nil\) computes the value pow10 returns`
}

// Scaled returns pow10's result through its own call: result-passed, not
// a computation of its own.
func Scaled() *big.Int {
	return pow10(3) // want `Scaled returns pow10's result`
}

// NewFromFloat converts its parameter once: the conversion is its work.
func NewFromFloat(val float64) Decimal {
	var buf [32]byte
	b := strconv.AppendFloat(buf[:0], val, 'e', -1, 64)      // want `strconv.AppendFloat\(buf\[:0\], val, 'e', -1, 64\) converts NewFromFloat's parameter val, once per call`
	return Decimal{value: big.NewInt(int64(len(b))), exp: 0} // want `big.NewInt\(int64\(len\(b\)\)\) computes the value NewFromFloat returns`
}

// Digits converts the value it holds, not its parameter base (an
// option of the conversion): no input-converted shape.
func Digits(d *Decimal, buf []byte, base int) []byte {
	v := uint64(d.exp)
	return strconv.AppendUint(buf, v, base) // want `strconv.AppendUint\(buf, v, base\) computes the value Digits returns$`
}

// Join converts in a loop: the same conversion per element, no shape.
func Join(xs []int) int {
	n := 0
	for _, x := range xs {
		n += len(strconv.Itoa(x))
	}
	return n
}

// Double converts a parameter it has changed: not its input any more.
func Double(x int) string {
	x *= 2
	return strconv.Itoa(x) // want `strconv.Itoa\(x\) computes the value Double returns`
}

// QuoRem returns the quotient and remainder it computes into locals whose
// addresses the returned values hold.
func (d Decimal) QuoRem(d2 Decimal) (Decimal, Decimal) {
	var q, r big.Int
	q.QuoRem(d.value, d2.value, &r) // want `q.QuoRem\(d.value, d2.value, &r\) computes into q, which QuoRem returns`
	dq := Decimal{value: &q, exp: d.exp}
	dr := Decimal{value: &r, exp: d.exp}
	return dq, dr
}

// decodeMapPtrFill fills the caller's map, made here with its size when
// the caller has none.
func (d *Decoder) decodeMapPtrFill(ptr *map[string]string) error {
	n := len(d.buf)
	m := *ptr
	if m == nil {
		*ptr = make(map[string]string, n)
		m = *ptr
	}
	for i := 0; i < n; i++ {
		m["k"] = "v" // want `m\["k"\] stores into the map decodeMapPtrFill fills for its caller through ptr, made with its size \(make\(map\[string\]string, n\)\)`
	}
	return nil
}

// DecodeInto returns only decodeMapPtr's error: no value is handed on.
func (d *Decoder) DecodeInto(ptr *map[string]any) error {
	return d.decodeMapPtr(ptr)
}

// String formats the number: the digits are the text it returns.
func (d Decimal) String() string {
	return d.format() // want `String returns format's result`
}

func (d Decimal) format() string { // want `format's result is what the exported Decimal.String returns`
	str := d.value.String() // want `d.value.String\(\) computes str, which format returns`
	sign := ""
	if str[0] == '-' {
		sign, str = "-", str[1:]
	}
	intPart := str[:len(str)-1]
	return sign + intPart + "." + str[len(str)-1:] // want `sign \+ intPart \+ "." \+ str\[len\(str\) - 1:\] concatenates the string format returns`
}

type decoder struct{ m map[string]any }

func (d *decoder) Decode(v *map[string]any) error { *v = d.m; return nil }

// Write returns the decoder's error: the map it decodes into is not its
// result.
func Write(d *decoder, p []byte) (n int, err error) {
	var evt map[string]any
	err = d.Decode(&evt)
	if err != nil {
		return 0, err
	}
	return len(evt), nil
}

// ToE dispatches on its type parameter and returns the helper's value
// through an any: result-passed all the same.
func ToE[T string | int](i any) (T, error) {
	var v any
	var err error
	switch any(*new(T)).(type) {
	case string:
		v, err = toStringE(i) // want `ToE returns toStringE's result`
	}
	return v.(T), err
}

func toStringE(i any) (string, error) { // want `toStringE's result is what the exported ToE returns`
	return i.(string), nil
}

// Filter's Add returns its receiver for chaining: the bits it sets are
// the container it changed, not a value computed for the caller.
type Filter struct{ bits big.Int }

func (f *Filter) Add(data []byte) *Filter {
	f.bits.SetBit(&f.bits, int(data[0]), 1)
	return f
}

// Acc's Plus takes an operand of its own type: the receiver is the sum.
type Acc struct{ v big.Int }

func (z *Acc) Plus(x *Acc) *Acc {
	z.v.Add(&z.v, &x.v) // want `z.v.Add\(&z.v, &x.v\) computes into z, which Plus returns`
	return z
}

// A context parsing its request's query once and keeping it.
type reqContext struct {
	u     *url.URL
	query url.Values
}

func (c *reqContext) QueryParams() url.Values {
	if c.query == nil {
		c.query = c.u.Query() // want `c.u.Query\(\) computes c.query, which QueryParams keeps and returns`
	}
	return c.query
}

// A context made with the response its constructor makes.
type response struct{ w any }

func newResponse(w any) *response { return &response{w: w} } // want `newResponse.s result is what the exported NewContext returns`

type echoContext struct {
	resp  *response
	store map[string]any
}

func NewContext(w any) *echoContext {
	return &echoContext{
		resp:  newResponse(w), // want `NewContext returns, inside the value it makes, newResponse's result`
		store: map[string]any{},
	}
}

// A decimal arithmetic library that writes its result through its first
// argument (apd's ctx.Add(&result, x, y)).
type Dec struct{ coeff, exp int64 }

type Context struct{ prec int }

func (c *Context) Add(d, x, y *Dec) (int, error) { d.coeff = x.coeff + y.coeff; return 0, nil }

func (c *Context) Set(d *Dec, n int64) { d.coeff = n }

type Amount struct {
	number Dec
	code   string
}

var ctx19 = &Context{prec: 19}

func (a Amount) Add(b Amount) (Amount, error) {
	result := Dec{}
	ctx19.Add(&result, &a.number, &b.number) // want `ctx19.Add\(&result, &a.number, &b.number\) computes into result, which Add returns`
	return Amount{result, a.code}, nil
}

// No operand of the destination's type: a setter, not arithmetic.
func (a Amount) Reset(n int64) Amount {
	result := Dec{}
	ctx19.Set(&result, n)
	return Amount{result, a.code}
}

// Token is a parsed token; its Signature is the decoded third segment.
type Token struct {
	Raw       string
	Signature []byte
}

// DecodeSegment returns the bytes it decodes.
func DecodeSegment(s string) ([]byte, error) { return []byte(s), nil }

// ParseToken stores DecodeSegment's result in a field of the token it
// returns: result-passed; the header's bytes are only read.
func ParseToken(s string) (token *Token, err error) {
	token = &Token{Raw: s}
	header, err := DecodeSegment(s) // a temporary: no result-passed
	if err != nil || len(header) == 0 {
		return token, err
	}
	token.Signature, err = DecodeSegment(s) // want `ParseToken stores, into a field of the value it returns, DecodeSegment's result`
	return token, err
}
