package cli

import "github.com/perfloop/perfloop/internal/progress"

// bar returns the progress bar for s: drawn on s.Err when it is a terminal.
func bar(s Streams) *progress.Bar { return progress.New(s.Err, s.ErrIsTerminal) }
