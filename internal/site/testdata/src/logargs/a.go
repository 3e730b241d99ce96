package logargs

type Logger struct{ level int }

func (l *Logger) Debugf(format string, args ...any) {}
func (l *Logger) Debug(args ...interface{})         {}
func (l *Logger) Infof(format string, args ...any)  {}
func (l *Logger) Enabled() bool                     { return l.level > 0 }
func (l *Logger) DebugCtx(msg string, kv ...string) {}

type Table struct {
	logger *Logger
	debug  bool
}

type padding struct{ Left, Right string }

func (t *Table) widths(cells []string, pad padding) {
	for i, c := range cells {
		t.logger.Debugf("col %d: %s L:'%s'", i, c, pad.Left) // want `widths passes i, c, pad.Left to t.logger.Debugf, which boxes each into an interface`
		if t.debug {
			t.logger.Debugf("cell %s", c) // tested: a branch when off
		}
		if t.logger.Enabled() {
			t.logger.Debug("cell", c)
		}
		t.logger.Debugf("done")         // nothing to box
		t.logger.Debugf("ptr %p", t)    // a pointer: no allocation
		t.logger.Infof("cell %s", c)    // info level: not this shape
		t.logger.DebugCtx("cell", c)    // ...string: nothing boxed
		t.logger.Debug("cell ", c, pad) // want `widths passes c, pad to t.logger.Debug`
	}
}
