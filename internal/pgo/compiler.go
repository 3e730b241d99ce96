package pgo

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/perfloop/perfloop/internal/escape"
)

// Decision kinds: what the compiler did differently at a call site with
// the profile.
const (
	// KindInline is a call the compiler inlined with the profile only:
	// the callee is hot, so its inlining budget was raised.
	KindInline = "inline"
	// KindDevirtualize is an interface or function-value call the
	// compiler turned into a direct call (guarded by a type check) to the
	// callee the profile says it mostly reaches.
	KindDevirtualize = "devirtualize"
	// KindNotInlined is a call inlined without the profile but not with
	// it: budgets moved to hotter sites, or the caller grew.
	KindNotInlined = "not-inlined"
)

// Decision is one call site the compiler treated differently with the
// profile than without it.
type Decision struct {
	// File is relative to the module root, slash-separated.
	File      string
	Line, Col int
	Kind      string
	// Callee is the function called, as the compiler names it.
	Callee string
	// Message is the compiler's words with the profile (or without it,
	// for KindNotInlined).
	Message string
}

// CompileOptions say how to compile the packages.
type CompileOptions struct {
	// Dir is where the go command runs (inside the module).
	Dir  string
	Tags string
}

// Decisions compiles the packages patterns match twice, with -pgo=off and
// with -pgo=profile, with the compiler's -m=2 diagnostics, and returns the
// call sites whose inlining or devirtualization differ, by file and line.
// The compiles are cached by the go command, which replays their
// diagnostics, so a second call costs little.
func Decisions(ctx context.Context, opts CompileOptions, patterns []string, profile string) ([]Decision, error) {
	abs, err := filepath.Abs(profile)
	if err != nil {
		return nil, err
	}
	var sites [2]map[string]escape.Diagnostic
	for i, flag := range []string{"-pgo=off", "-pgo=" + abs} {
		ix, err := escape.Run(ctx, escape.Options{Dir: opts.Dir, Tags: opts.Tags, BuildFlags: []string{flag}}, patterns...)
		if err != nil {
			return nil, fmt.Errorf("compile with %s: %w", flag, err)
		}
		sites[i] = callSites(ix.Diagnostics())
	}
	var out []Decision
	for key, d := range sites[1] {
		if _, ok := sites[0][key]; ok {
			continue
		}
		dec := Decision{File: d.File, Line: d.Line, Col: d.Col, Message: d.Message}
		if d.Kind == escape.KindDevirtualize {
			dec.Kind, dec.Callee = KindDevirtualize, d.Name
		} else {
			dec.Kind, dec.Callee = KindInline, d.Name
		}
		out = append(out, dec)
	}
	for key, d := range sites[0] {
		if _, ok := sites[1][key]; ok || d.Kind != escape.KindInlineCall {
			continue
		}
		out = append(out, Decision{File: d.File, Line: d.Line, Col: d.Col, Kind: KindNotInlined, Callee: d.Name, Message: d.Message})
	}
	slices.SortFunc(out, func(a, b Decision) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col),
			cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Message, b.Message))
	})
	return out, nil
}

// callSites keys the diagnostics about call sites: "inlining call to F" and
// "PGO devirtualizing interface call x.M to (*T).M", by position and
// message. The package variant is left out of the key: a file compiled
// for two variants says the same twice.
func callSites(diags []escape.Diagnostic) map[string]escape.Diagnostic {
	out := map[string]escape.Diagnostic{}
	for _, d := range diags {
		if !(d.Kind == escape.KindDevirtualize && d.PGO) && d.Kind != escape.KindInlineCall {
			continue
		}
		out[fmt.Sprintf("%s:%d:%d %s", d.File, d.Line, d.Col, d.Message)] = d
	}
	return out
}
