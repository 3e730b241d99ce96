package optionsapplied

type glob struct {
	caseInsensitive bool
	filesOnly       bool
}

// GlobOption sets an option of a glob.
type GlobOption func(*glob)

// WithFilesOnly returns files only.
func WithFilesOnly() GlobOption { return func(g *glob) { g.filesOnly = true } }

func newGlob(opts ...GlobOption) *glob {
	g := &glob{} // want `newGlob hands &glob\{\} to each option of opts \(opt\(g\) at line 17\), a call through a func value the compiler cannot see into: the glob is moved to the heap on every call, even when no option is passed`
	for _, opt := range opts {
		opt(g)
	}
	return g
}

// Glob keeps the options for its own walk.
func Glob(pattern string, opts ...GlobOption) bool {
	g := newGlob(opts...)
	return g.filesOnly && pattern != ""
}

// Client is what New returns.
type Client struct{ retries int }

// Option sets an option of a Client.
type Option func(*Client)

// New returns the client it configures: its user keeps it, on the heap by
// design.
func New(opts ...Option) *Client {
	c := &Client{}
	for _, o := range opts {
		o(c)
	}
	return c
}

// count is no options struct: the func values take an int.
func count(fs ...func(int)) {
	n := 0
	for _, f := range fs {
		f(n)
	}
}

type parseOptions struct{ strict bool }

// ParseOption sets an option of Parse.
type ParseOption func(*parseOptions)

// Parse reads its options and returns something else: the struct is its own.
func Parse(s string, opts ...ParseOption) (int, error) {
	o := &parseOptions{} // want `Parse hands &parseOptions\{\} to each option of opts`
	for _, opt := range opts {
		opt(o)
	}
	if o.strict {
		return len(s), nil
	}
	return 0, nil
}
