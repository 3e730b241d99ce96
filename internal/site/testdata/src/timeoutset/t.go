package timeoutset

import (
	"context"
	"time"
)

// Differ stops when its timeout runs out.
type Differ struct {
	DiffTimeout time.Duration
	Width       time.Duration
}

// Diff works until ctx is done.
func Diff(ctx context.Context, a, b string) int { return len(a) + len(b) }
