package misnamed

func Commaf(v float64) string    { return "x" }
func BigCommaf(v float64) string { return "big" }
func ParseString(s string) int   { return Parse([]byte(s)) }
func Parse(b []byte) int         { return len(b) }

func Throttle(n int) int            { return throttleWithOpts(n, 0) }
func ThrottleBacklog(n, b int) int  { return throttleWithOpts(n, b) }
func throttleWithOpts(n, b int) int { return n + b }

func CompressBlock(src, dst []byte) int { return copy(dst, src) }
func CompressBlockBound(n int) int      { return n + n/255 + 16 }

// Compressor has a method of CompressBlock's name: the same operation,
// on a compressor the caller keeps.
type Compressor struct{}

func (*Compressor) CompressBlock(src, dst []byte) int { return copy(dst, src) }
