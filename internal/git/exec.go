package git

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// exitDetail adds the stderr of an *exec.ExitError to the error text.
func exitDetail(err error) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(ee.Stderr) > 0 {
		return fmt.Errorf("%w: %s", err, firstLines(strings.TrimSpace(string(ee.Stderr)), 2))
	}
	return err
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return strings.Join(lines, "; ")
}
