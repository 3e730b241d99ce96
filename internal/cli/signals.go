package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// interrupt is the cause of a context a signal cancelled: the signal
// perfloop got, which a command passes on to a program it runs.
type interrupt struct{ sig os.Signal }

func (i interrupt) Error() string { return "interrupted by " + i.sig.String() }

// Signal returns the signal perfloop got.
func (i interrupt) Signal() os.Signal { return i.sig }

// Is makes an interrupt a context.Canceled.
func (i interrupt) Is(target error) bool { return target == context.Canceled }

// againKey keys the channel notifySignals closes at the second signal.
type againKey struct{}

// notifySignals returns a context that the first SIGINT or SIGTERM
// cancels, with an interrupt naming the signal as its cause; the next
// one closes the channel interruptedAgain returns (a second Ctrl-C: stop
// at once). stop stops watching the signals.
func notifySignals(parent context.Context) (ctx context.Context, stop func()) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	again := make(chan struct{})
	ctx, cancel := context.WithCancelCause(context.WithValue(parent, againKey{}, (<-chan struct{})(again)))
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-sigs:
			cancel(interrupt{sig})
		case <-done:
			return
		}
		select {
		case <-sigs:
			close(again)
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}

// interruptedAgain returns the channel closed when perfloop gets a
// second signal (nil, never closed, when ctx does not come from
// notifySignals).
func interruptedAgain(ctx context.Context) <-chan struct{} {
	ch, _ := ctx.Value(againKey{}).(<-chan struct{})
	return ch
}
