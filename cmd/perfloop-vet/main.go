// Command perfloop-vet runs perfloop's benchmark analyzers as a vet tool:
//
//	go install github.com/perfloop/perfloop/cmd/perfloop-vet@latest
//	go vet -vettool=$(which perfloop-vet) ./...
//
// It reports benchmarks that measure the wrong thing (see perfloop lint
// and docs/lint.md).
package main

import (
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/perfloop/perfloop/internal/lint"
)

func main() { unitchecker.Main(lint.Analyzers...) }
