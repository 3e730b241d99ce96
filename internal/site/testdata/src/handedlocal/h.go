package handedlocal

import "io"

type messageWriter struct {
	c   *Conn
	pos int
}

func (w *messageWriter) Write(p []byte) (int, error) { w.pos += len(p); return len(p), nil }
func (w *messageWriter) Close() error                { return nil }

type Conn struct{ writer io.WriteCloser }

// NextWriter hands out a writer per message, kept in the Conn.
func (c *Conn) NextWriter() (io.WriteCloser, error) {
	var mw messageWriter // want `NextWriter makes messageWriter per call and keeps its address in its receiver to hand it out, so it moves to the heap: one per call, which the API's callers each need; WriteMessage \(line 31\) calls NextWriter only to call the methods of what it returns and drop it`
	mw.c = c
	c.writer = &mw
	return c.writer, nil
}

// WriteMessage writes with the writer it is handed and drops it.
func (c *Conn) WriteMessage(fast bool, data []byte) error {
	if fast {
		var mw messageWriter
		mw.c = c
		_, err := mw.Write(data)
		return err
	}
	w, err := c.NextWriter()
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		return err
	}
	return w.Close()
}

// Keep keeps what it is handed: nothing said of it.
func (c *Conn) Keep() io.WriteCloser {
	w, _ := c.NextWriter()
	return w
}
