package callinputs

import (
	"math/big"
	"math/rand"
	"reflect"
	"strconv"
	"strings"
)

var tenInt = big.NewInt(10)

// pow10 is a stand-in for a module function.
func pow10(n int64) *big.Int { return new(big.Int).Exp(tenInt, big.NewInt(n), nil) } // want `new\(big.Int\).Exp\(tenInt, big.NewInt\(n\), nil\) works on what pow10 is given \(n\)` `big.NewInt\(n\) works on`

// truncDigits truncates its parameter: the division is its work on it.
func truncDigits(m *big.Int, w int64) (int64, bool) {
	drop := int64(m.BitLen()) - w // want `m.BitLen\(\) works on the state of m \(BitLen has a pointer receiver\), which truncDigits is given`
	if drop <= 0 {
		return 0, true
	}
	var r big.Int
	m.QuoRem(m, pow10(drop), &r) // want `m.QuoRem\(m, pow10\(drop\), &r\) works on what truncDigits is given \(m, w\)` `pow10\(drop\) works on what truncDigits is given \(m, w\)`
	return drop, r.Sign() == 0
}

// Decimal is a stand-in for a value type with methods.
type Decimal struct {
	value *big.Int
	exp   int32
}

// quoRem scales its operands: the receiver and the parameter are its inputs.
func (d Decimal) quoRem(d2 Decimal, e int64) *big.Int {
	var aa big.Int
	bb := new(big.Int).Mul(d2.value, pow10(-e))    // want `new\(big.Int\).Mul\(d2.value, pow10\(-e\)\) works on what quoRem is given \(d2, e\)` `pow10\(-e\) works on what quoRem is given \(e\)`
	q := new(big.Int).Quo(aa.Mul(d.value, bb), bb) // want `new\(big.Int\).Quo\(aa.Mul\(d.value, bb\), bb\) works on what quoRem is given \(d, d2, e\)` `aa.Mul\(d.value, bb\) works on what quoRem is given \(d, d2, e\)`
	return q
}

// exp raises a local computed from the receiver.
func (d Decimal) exp2(k int64) Decimal {
	sum := new(big.Int).Set(d.value)                 // want `new\(big.Int\).Set\(d.value\) works on what exp2 is given \(d\)`
	res := new(big.Int).Exp(sum, big.NewInt(k), nil) // want `new\(big.Int\).Exp\(sum, big.NewInt\(k\), nil\) works on what exp2 is given \(d, k\)` `big.NewInt\(k\) works on`
	return Decimal{res, d.exp}
}

// Million is the same number on every call.
func Million() *big.Int {
	return new(big.Int).Exp(tenInt, big.NewInt(6), nil) // want `new\(big.Int\).Exp\(tenInt, big.NewInt\(6\), nil\) is given the same constants and package-level values on every call of Million`
}

// Config holds a tag name that does not change while decoding.
type Config struct{ TagName string }

// Fields splits the same tag name for every field: loop-invariant.
func Fields(c Config, fields []string) int {
	n := 0
	for _, f := range fields {
		names := strings.Split(c.TagName, ",") // want `strings.Split\(c.TagName, ","\)'s inputs do not change in the loop at lines 59–62: every iteration computes the same value`
		n += len(names) + len(f)
	}
	return n
}

// Each converts each element: its input changes every iteration.
func Each(xs []int) int {
	n := 0
	for _, x := range xs {
		n += len(strconv.Itoa(x)) // want `strconv.Itoa\(x\) works on what Each is given \(xs\)`
	}
	return n
}

// Buffered reads through a pointer it changes in the loop: no recurrence.
func Buffered(b *strings.Builder, parts []string) int {
	n := 0
	for range parts {
		n += len(strings.ToUpper(b.String())) // want `strings.ToUpper\(b.String\(\)\) works on what Buffered is given \(b\)` `b.String\(\) works on the state of b`
		b.WriteString("x")                    // want `b.WriteString\("x"\) works on the state of b`
	}
	return n
}

// Effects prints the same constant in a loop: a call for its effect.
func Effects(xs []int) {
	for range xs {
		println(strconv.Itoa(1)) // want `strconv.Itoa\(1\) is given the same constants`
		strings.NewReader("x").Len()
	}
}

// Readers makes a reader per element from the same string: a value with
// state, not one to keep.
func Readers(s string, xs []int) int {
	n := 0
	for range xs {
		r := strings.NewReader(s) // want `strings.NewReader\(s\) works on what Readers is given \(s\)`
		n += r.Len()
	}
	return n
}

// Random is not a function of its constants: a method with state.
func Random(r *rand.Rand) int {
	return r.Intn(10)
}

// Other reads a value the matcher cannot follow: no shape.
func Other() string {
	s := strings.Repeat("a", rand.Int())
	return strings.ToUpper(s)
}

// Decoder decodes with a configuration that does not change while it
// decodes.
type Decoder struct{ config *Config }

// Decode reads every field's tag through helpers given the same tag name.
func (d *Decoder) Decode(fields []string) int {
	n := 0
	for _, f := range fields {
		n += len(tagValue(f, d.config.TagName)) + len(tagParts(f, d.config.TagName)) // want `tagValue\(f, d.config.TagName\) works on what Decode is given \(fields\)` `tagParts\(f, d.config.TagName\) works on`
	}
	return n
}

func tagValue(f, tagName string) string {
	for _, name := range splitNames(tagName) { // want `splitNames\(tagName\) is given the same values on every call of tagValue: tagName is d.config.TagName at every call`
		if name == f {
			return name
		}
	}
	return ""
}

func tagParts(f, tagName string) []string {
	return append(splitNames(tagName), f) // want `splitNames\(tagName\) is given the same values on every call of tagParts`
}

func splitNames(tagName string) []string {
	return strings.Split(tagName, ",") // want `strings.Split\(tagName, ","\) is given the same values on every call of splitNames: tagName is d.config.TagName at every call`
}

// Reset writes the configuration: its reads are not the same values.
func (d *Decoder) Reset(name string) []string {
	d.config = &Config{TagName: name}
	return strings.Split(d.config.TagName, ",") // want `strings.Split\(d.config.TagName, ","\) works on what Reset is given \(d, name\)`
}

// Names reads its receiver's field, which Reset sets again: nothing says
// Names runs more than once per Reset (a pooled value reset per use).
func (d *Decoder) Names() []string {
	return strings.Split(d.config.TagName, ",") // want `strings.Split\(d.config.TagName, ","\) reads fields of its receiver that Reset sets again during the object's life`
}

// Static's configuration is set when it is made, and never again.
type Static struct{ config *Config }

func NewStatic(c *Config) *Static { return &Static{config: c} }

func (s *Static) Names() []string {
	return strings.Split(s.config.TagName, ",") // want `strings.Split\(s.config.TagName, ","\) is given the same values on every call of Names: fields of its receiver it does not write`
}

// varying is called with different values: its parameter varies.
func varying(s string) []string {
	return strings.Fields(s) // want `strings.Fields\(s\) works on what varying is given \(s\)`
}

// Callers of varying.
func Callers(xs []string) int {
	return len(varying("a b")) + len(varying(xs[0])) // want `varying\("a b"\) is given the same constants` `varying\(xs\[0\]\) works on what Callers is given \(xs\)`
}

// tagOf reads a field's tag: type information, the same for every value
// of the type.
func tagOf(field reflect.StructField, tagName string) string {
	for _, name := range splitNames(tagName) { // want `splitNames\(tagName\) is given the same values on every call of tagOf: tagName is d.config.TagName at every call`
		if tag := field.Tag.Get(name); tag != "" { // want `field.Tag.Get\(name\) reads type information \(reflection's description of a type\) and values that recur: the same for every value of the type`
			return tag
		}
	}
	return ""
}

// Tags calls tagOf with the decoder's tag name for every field.
func (d *Decoder) Tags(t reflect.Type) int {
	n := 0
	for i := 0; i < t.NumField(); i++ {
		n += len(tagOf(t.Field(i), d.config.TagName)) // want `tagOf\(t.Field\(i\), d.config.TagName\) reads type information`
	}
	return n
}

// Scanner keeps a position: each Next call moves it.
type Scanner struct{ pos int }

// Next returns the next position.
func (s *Scanner) Next() int { s.pos++; return s.pos }

// Lexer wraps a scanner.
type Lexer struct{ scanner Scanner }

// Token scans: the call is its work on its state, never a value to keep.
func (l *Lexer) Token() int {
	return l.scanner.Next() // want `l.scanner.Next\(\) works on the state of l.scanner \(Next has a pointer receiver\), which Token is given`
}

// Fill makes a new value of a type per call: reflect.New's result is
// new every time, never one to keep per type; the pointer type is.
func Fill(t reflect.Type) (reflect.Value, reflect.Type) {
	v := reflect.New(t).Elem()
	return v, reflect.PointerTo(t) // want `reflect.PointerTo\(t\) reads type information`
}

// newElem makes a container for an element of type et: a new value every
// call, whatever et.
func newElem(et reflect.Type) reflect.Value {
	if et.Kind() == reflect.Interface {
		return reflect.ValueOf(map[string]any{})
	}
	return reflect.New(et).Elem()
}

// Elem makes an element per value: newElem's result is new each time,
// never one to keep per type; the element type is.
func Elem(et reflect.Type) (reflect.Value, reflect.Type) {
	e := newElem(et)
	return e, reflect.PointerTo(et) // want `reflect.PointerTo\(et\) reads type information`
}

// A cache's map operations on the key it is given: its own work.
type itemCache struct {
	items map[string]int
	order []string
}

func (c *itemCache) Set(k string, v int) {
	c.items[k] = v // want `c.items\[k\] stores into c.items, with what Set is given \(c, k\)`
}

func (c *itemCache) Get(k string) (int, bool) {
	v, ok := c.items[k] // want `c.items\[k\] looks a key up in c.items, with what Get is given \(c, k\)`
	return v, ok
}

func (c *itemCache) Delete(k string) {
	delete(c.items, k) // want `delete\(c.items, k\) deletes from c.items, with what Delete is given \(c, k\)`
}

func (c *itemCache) Expire(limit int) {
	for k, v := range c.items { // want `c.items is the map the loop ranges over, with what Expire is given \(c\)`
		if v > limit {
			c.order = append(c.order, k)
		}
	}
}

// The receiver's map in a local first (fastcache's cleanLocked: bm :=
// b.m, counting the live entries): still the map it is given.
func (c *itemCache) Live(limit int) int {
	m := c.items
	n := 0
	for _, v := range m { // want `m is the map the loop ranges over, with what Live is given \(c\)`
		if v > limit {
			n++
		}
	}
	return n
}

// A lookup of a key read from elsewhere (another call's result) is not
// said to be the function's work on its inputs.
func (c *itemCache) First() int {
	k := firstKey()
	return c.items[k]
}

func firstKey() string { return "a" }

// A local map is the function's own doing, not what it was given.
func countWords(words []string) int {
	seen := map[string]bool{}
	for _, w := range words {
		seen[w] = true
	}
	return len(seen)
}

// colorize is called with one constant at its only direct call, and with
// other values inside the formatters' closures: its inputs vary.
func colorize(s string, c int) string {
	return strings.Repeat(s, c) // want `strings.Repeat\(s, c\) works on what colorize is given \(c, s\)`
}

func errorPart(err string) string {
	return colorize("[error]", 31) + err // want `colorize\("\[error\]", 31\) is given the same constants`
}

var formatters = []func(string) string{
	func(s string) string { return colorize(s, 90) },
}

func levelPart(lvl string, c int) func() string {
	return func() string { return colorize(lvl, c) }
}

// shade is passed as a value: its callers are not all here.
func shade(s string, c int) string {
	return strings.Repeat(s, c+1) // want `strings.Repeat\(s, c \+ 1\) works on what shade is given \(c, s\)`
}

func shadeFirst() string { return shade("a", 1) } // want `shade\("a", 1\) is given the same constants`

var shader = shade

// ParseDigits falls back to strconv for long inputs: the call in the
// loop returns, so it runs at most once per call, a fallback, not work
// every iteration repeats.
func ParseDigits(s string) (uint64, error) {
	d := uint64(0)
	for i := 0; i < len(s); i++ {
		d = d*10 + uint64(s[i]-'0')
		if i > 18 {
			v, err := strconv.ParseUint(s, 10, 64) // want `strconv.ParseUint\(s, 10, 64\) works on what ParseDigits is given \(s\)`
			if err != nil {
				return 0, err
			}
			return v, nil
		}
	}
	return d, nil
}

// Width ranges over strip(s): a range expression is evaluated once,
// before the first iteration, so the call is no work the loop repeats.
func Width(s string) int {
	w := 0
	for _, r := range strings.ToUpper(s) { // want `strings.ToUpper\(s\) works on what Width is given \(s\)`
		w += int(r)
	}
	for i, n := 0, len(strings.TrimSpace(s)); i < n; i++ { // want `strings.TrimSpace\(s\) works on what Width is given \(s\)`
		w++
	}
	return w
}

// A binder reading each field's tag by the tag name it is given.
func bindTags(v reflect.Value, tag string) int {
	typ := v.Type() // want `v.Type\(\) works on what bindTags is given \(v\)`
	n := 0
	for i := 0; i < typ.NumField(); i++ {
		typeField := typ.Field(i)
		n += len(typeField.Tag.Get(tag)) // want `typeField.Tag.Get\(tag\) reads type information \(reflection's description of a type\) and tag, which bindTags is given: the same for every value of the type with the same tag`
	}
	return n
}

type bigInt struct{ words []uint }

func (b *bigInt) BitLen() int { return len(b.words) * 64 }

type decimal struct{ Coeff bigInt }

// The precision follows the operands: each one's BitLen is the
// function's work on what it is given.
func precision(decimals ...*decimal) int {
	for _, d := range decimals {
		if d.Coeff.BitLen() > 31 { // want `d.Coeff.BitLen\(\) works on the state of d.Coeff \(BitLen has a pointer receiver\), read from decimals, which precision is given`
			return 39
		}
	}
	return 19
}

var codecByType = map[uintptr]int{}

func typeID(t reflect.Type) uintptr { return uintptr(t.Size()) }

// CodecOf looks the type up by a key it computes: the key's call is the
// cache's lookup, not a value to keep per type.
func CodecOf(x any) int {
	t := reflect.TypeOf(x) // want `reflect.TypeOf\(x\) works on what CodecOf is given`
	return codecByType[typeID(t)]
}

// KeyOf returns the key: a value of the type's it could keep.
func KeyOf(x any) uintptr {
	t := reflect.TypeOf(x) // want `reflect.TypeOf\(x\) works on what KeyOf is given`
	return typeID(t)       // want `typeID\(t\) reads type information`
}
