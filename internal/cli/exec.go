package cli

import (
	"context"
	"errors"
)

func runExec(ctx context.Context, args []string, s Streams) error {
	return errors.New("exec: not implemented yet")
}
