package cli

import pbar "github.com/perfloop/perfloop/internal/progress"

// progress adapts progress.Bar for exec's status line.
type progress struct{ *pbar.Bar }

func newProgress(s Streams) *progress { return &progress{bar(s)} }

func (p *progress) status(msg string) { p.Status(msg) }
func (p *progress) done()             { p.Done() }

// bar returns the progress bar for s: drawn on s.Err when it is a terminal.
func bar(s Streams) *pbar.Bar { return pbar.New(s.Err, s.ErrIsTerminal) }
