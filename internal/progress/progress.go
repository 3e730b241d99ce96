// Package progress shows what a long run is doing, with an ETA, on a
// terminal: a status line before counted work starts, then a bar with the
// count, the elapsed time and the predicted time left. It writes nothing
// when its writer is not a terminal, so logs and pipes stay clean; a nil
// *Bar is valid and silent, so engines take one without caring who shows it.
package progress

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Bar is a progress display on one terminal line.
type Bar struct {
	w        io.Writer
	terminal bool
	mu       sync.Mutex // Status may be called from several goroutines
	bar      *progressbar.ProgressBar
}

// New returns a Bar writing to w, which shows anything only when terminal
// is true.
func New(w io.Writer, terminal bool) *Bar { return &Bar{w: w, terminal: terminal} }

func (p *Bar) on() bool { return p != nil && p.terminal }

// Status shows a one-line status before counted work starts.
func (p *Bar) Status(msg string) {
	if !p.on() {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "\r\033[K%s", msg)
}

// Start begins counting total steps.
func (p *Bar) Start(total int, what string) {
	if !p.on() {
		return
	}
	fmt.Fprint(p.w, "\r\033[K")
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(p.w),
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

// Step advances by one and names what runs next.
func (p *Bar) Step(next string) {
	if !p.on() || p.bar == nil {
		return
	}
	p.bar.Describe(next)
	_ = p.bar.Add(1)
}

// Describe names what is running now.
func (p *Bar) Describe(what string) {
	if p.on() && p.bar != nil {
		p.bar.Describe(what)
	}
}

// Printf prints a line above the bar (a failure as it happens).
func (p *Bar) Printf(format string, args ...any) {
	if !p.on() {
		return
	}
	if p.bar != nil {
		_ = p.bar.Clear()
	}
	fmt.Fprintf(p.w, "\r\033[K"+format+"\n", args...)
	if p.bar != nil {
		_ = p.bar.RenderBlank()
	}
}

// Done removes the progress line.
func (p *Bar) Done() {
	if !p.on() {
		return
	}
	if p.bar != nil {
		_ = p.bar.Finish()
		_ = p.bar.Clear()
		p.bar = nil
	}
	fmt.Fprint(p.w, "\r\033[K")
}
