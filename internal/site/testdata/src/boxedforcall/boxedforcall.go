package boxedforcall

import "io"

type Render interface {
	Render(w io.Writer) error
	ContentType() string
}

type String struct {
	Format string
	Data   []any
}

func (s String) Render(w io.Writer) error { _, err := io.WriteString(w, s.Format); return err }
func (s String) ContentType() string      { return "text/plain" }

type Context struct {
	w      io.Writer
	status int
	errs   []error
	header map[string]string
}

// Render is too large to inline.
func (c *Context) Render(code int, r Render) {
	c.status = code
	if code == 204 || code == 304 {
		c.header["Content-Type"] = r.ContentType()
		return
	}
	if c.header == nil {
		c.header = map[string]string{}
	}
	c.header["Content-Type"] = r.ContentType()
	if err := r.Render(c.w); err != nil {
		c.errs = append(c.errs, err)
		c.status = 500
		c.header["X-Error"] = err.Error()
	}
	for k := range c.header {
		if k == "" {
			delete(c.header, k)
		}
	}
}

func (c *Context) String(code int, format string, values ...any) {
	c.Render(code, String{Format: format, Data: values}) // want `String passes a String literal to Render's Render parameter r, an interface: Render is too large to inline`
}

// A small callee inlines: the value can stay on the stack.
func (c *Context) small(r Render) string { return r.ContentType() }

func (c *Context) Type() string {
	return c.small(String{Format: "x"})
}
