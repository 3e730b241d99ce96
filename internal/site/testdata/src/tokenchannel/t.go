package tokenchannel

import (
	"context"
	"errors"
)

type token struct{}

type throttler struct {
	tokens        chan token
	backlogTokens chan token
}

// A backlog taken in a select and returned by a deferred send.
func (t *throttler) serve(ctx context.Context, next func()) error {
	select { // want `serve takes an empty token from t.backlogTokens by a select's case \(line 20\) and a deferred send puts it back \(line 22\): t.backlogTokens is a semaphore`
	case <-ctx.Done():
		return ctx.Err()
	case btok := <-t.backlogTokens:
		defer func() {
			t.backlogTokens <- btok
		}()
		tok := <-t.tokens // want `serve takes an empty token from t.tokens by a receive`
		defer func() { t.tokens <- tok }()
		next()
		return nil
	}
}

// A queue of values: not tokens.
type queue struct{ items chan int }

func (q *queue) take() int {
	v := <-q.items
	defer func() { q.items <- v }()
	return v
}

// Taken and never put back here: a one-way signal.
func (t *throttler) drain() error {
	select {
	case <-t.tokens:
		return nil
	default:
		return errors.New("none")
	}
}

// A middleware's handler, a literal the constructor returns.
func Limit(n int) func(next func()) func() {
	sem := make(chan struct{}, n)
	for range n {
		sem <- struct{}{}
	}
	return func(next func()) func() {
		return func() {
			select { // want `Limit takes an empty token from sem by a select's case`
			case tok := <-sem:
				defer func() { sem <- tok }()
				next()
			default:
			}
		}
	}
}

// A lock made of a channel of one token, taken plainly here and with a
// timer elsewhere.
type Conn struct{ mu chan struct{} }

func newConn() *Conn {
	mu := make(chan struct{}, 1)
	mu <- struct{}{}
	return &Conn{mu: mu}
}

func (c *Conn) write(p []byte) {
	<-c.mu // want `write takes the one token of c.mu by a receive \(line \d+\) and a deferred send puts it back \(line \d+\): c.mu, made with room for one, is a lock`
	defer func() { c.mu <- struct{}{} }()
	_ = p
}
