package cli

import (
	"context"
	"errors"
)

func runCompare(ctx context.Context, args []string, s Streams) error {
	return errors.New("compare: not implemented yet")
}
