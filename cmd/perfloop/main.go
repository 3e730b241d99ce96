// Command perfloop automates the Go performance loop: benchmark, profile,
// explain, fix, verify. Run "perfloop help" for the commands.
package main

import (
	"os"

	"github.com/perfloop/perfloop/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:]))
}
