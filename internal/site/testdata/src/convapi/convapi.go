package convapi

import "convapi/logger"

type Writer struct{ Log *logger.Logger }

func (w *Writer) log(b []byte) {
	if w.Log.Check(1, string(b)) { // want `string\(b\) copies the bytes to call logger.Logger.Check, which takes a string \(its parameter msg\)`
		return
	}
	logger.Log(string(b)) // want `string\(b\) copies the bytes to call logger.Log, which takes a string \(its parameter msg\)`
	logger.Log("x", string(b))
	check(string(b))
}

// A function of the package: conversionkept's own case, not this one.
func check(s string) { _ = s }
