package cli

import (
	"reflect"
	"strings"
	"testing"
)

// TestFixProgram: fix -run takes the program's arguments in -run itself
// ('PKG ARGS', as pgo -run), after --, or from each -args (split as a
// shell would), one of them; the words after the flags are then not
// package patterns.
func TestFixProgram(t *testing.T) {
	for _, tc := range []struct {
		name     string
		opts     fixOptions
		variants [][]string
		err      string
	}{
		{name: "after --", opts: fixOptions{run: "./cmd/wc", runs: 1, benchConfig: benchConfig{patterns: []string{"-n", "5", "big.txt"}, positional: []string{"-n", "5", "big.txt"}}},
			variants: [][]string{{"-n", "5", "big.txt"}}},
		{name: "none", opts: fixOptions{run: "./cmd/wc", runs: 1, benchConfig: benchConfig{patterns: []string{"./..."}}}, variants: [][]string{nil}},
		{name: "args", opts: fixOptions{run: "./cmd/wc", runs: 1, variants: stringList{"-mode lines 'a b.txt'", "-mode bytes"}, benchConfig: benchConfig{patterns: []string{"./..."}}},
			variants: [][]string{{"-mode", "lines", "a b.txt"}, {"-mode", "bytes"}}},
		{name: "both", opts: fixOptions{run: "./cmd/wc", runs: 1, variants: stringList{"-n 1"}, benchConfig: benchConfig{patterns: []string{"-n", "2"}, positional: []string{"-n", "2"}}},
			err: "give the program's arguments in -run, after -- or with -args: one of them"},
		{name: "in -run", opts: fixOptions{run: "./cmd/wc -n 5 'big file.txt'", runs: 1, benchConfig: benchConfig{patterns: []string{"./..."}}},
			variants: [][]string{{"-n", "5", "big file.txt"}}},
		{name: "in -run and --", opts: fixOptions{run: "./cmd/wc -n 5", runs: 1, benchConfig: benchConfig{patterns: []string{"x"}, positional: []string{"x"}}},
			err: "one of them"},
		{name: "empty", opts: fixOptions{run: " ", runs: 1}, err: `-run " ": want 'PKG ARGS'`},
		{name: "runs", opts: fixOptions{run: "./cmd/wc", runs: 0}, err: "-runs must be at least 1"},
		{name: "quote", opts: fixOptions{run: "./cmd/wc", runs: 1, variants: stringList{"'open"}}, err: `-args "'open"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := tc.opts
			prog, err := fixProgram(&opts)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(prog.Variants, tc.variants) || prog.Package != "./cmd/wc" {
				t.Errorf("program %+v, want %s with %q", prog, "./cmd/wc", tc.variants)
			}
			if opts.patterns != nil {
				t.Errorf("patterns %q left: the program's arguments are not packages", opts.patterns)
			}
		})
	}
}
