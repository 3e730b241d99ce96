package cli

import (
	"context"
	"errors"
)

func runBench(ctx context.Context, args []string, s Streams) error {
	return errors.New("bench: not implemented yet")
}
