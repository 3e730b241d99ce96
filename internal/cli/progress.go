package cli

import (
	"fmt"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress shows what a long run is doing, with an ETA, on stderr — and only
// when stderr is a terminal, so logs and pipes stay clean.
type progress struct {
	s   Streams
	mu  sync.Mutex // status may be called from several goroutines
	bar *progressbar.ProgressBar
}

func newProgress(s Streams) *progress { return &progress{s: s} }

// status shows a one-line status before counted work starts.
func (p *progress) status(msg string) {
	if !p.s.ErrIsTerminal {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.s.Err, "\r\033[K%s", msg)
}

// start begins counting total steps.
func (p *progress) start(total int, what string) {
	if !p.s.ErrIsTerminal {
		return
	}
	fmt.Fprint(p.s.Err, "\r\033[K")
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(p.s.Err),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetWidth(20),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionShowDescriptionAtLineEnd(),
	)
}

// step advances by one and names what runs next.
func (p *progress) step(next string) {
	if p.bar == nil {
		return
	}
	p.bar.Describe(next)
	_ = p.bar.Add(1)
}

// describe names what is running now.
func (p *progress) describe(what string) {
	if p.bar != nil {
		p.bar.Describe(what)
	}
}

// printf prints a line above the bar (a failure as it happens).
func (p *progress) printf(format string, args ...any) {
	if !p.s.ErrIsTerminal {
		return
	}
	if p.bar != nil {
		_ = p.bar.Clear()
	}
	fmt.Fprintf(p.s.Err, "\r\033[K"+format+"\n", args...)
	if p.bar != nil {
		_ = p.bar.RenderBlank()
	}
}

// done removes the progress line.
func (p *progress) done() {
	if !p.s.ErrIsTerminal {
		return
	}
	if p.bar != nil {
		_ = p.bar.Finish()
		_ = p.bar.Clear()
	}
	fmt.Fprint(p.s.Err, "\r\033[K")
}
