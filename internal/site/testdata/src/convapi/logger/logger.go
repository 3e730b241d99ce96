// Package logger is another package's API taking a string.
package logger

type Logger struct{ last string }

func (l *Logger) Check(level int, msg string) bool { l.last = msg; return level > 0 }

func Log(msg string, args ...string) { _ = msg }
