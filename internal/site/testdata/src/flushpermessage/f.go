package flushpermessage

import (
	"compress/flate"
	"io"
)

type flateWriteWrapper struct{ fw *flate.Writer }

func (w *flateWriteWrapper) Write(p []byte) (int, error) { return w.fw.Write(p) }

// Close ends the message: the compressor is flushed per message.
func (w *flateWriteWrapper) Close() error {
	return w.fw.Flush() // want `Close flushes w.fw, a compress/flate writer, when each message is closed`
}

// A flush outside Close (a stream flushed on demand) is not per message.
func (w *flateWriteWrapper) Sync() error { return w.fw.Flush() }

type plain struct{ w io.Writer }

type flusher interface{ Flush() error }

// Another writer's Flush is not a compressor's.
func (p *plain) Close() error {
	if f, ok := p.w.(flusher); ok {
		return f.Flush()
	}
	return nil
}
