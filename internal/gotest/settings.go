package gotest

import (
	"context"
	"debug/buildinfo"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
)

// Build settings, as the go command records them in a binary, that change
// the machine code it makes. Settings it records only when they are given
// (flags, GOEXPERIMENT) count whenever they are there; settings it records
// for every build count only when they differ from the go command's
// default on this machine (go env -changed): a plain build without a C
// compiler has CGO_ENABLED=0 and is still plain.
//
// Left out on purpose: -ldflags and CGO_LDFLAGS (link flags, which leave
// the compiled code alone; -X stamps a version that changes with every
// commit), -trimpath, -pgo (the profile is the project's own, a file whose
// path depends on the checkout), DefaultGODEBUG (set by go.mod and
// //go:debug lines, part of the code), GOOS and GOARCH (a fingerprint has
// them apart) and the vcs settings.
var (
	codeWhenGiven = []string{
		"-asan", "-asmflags", "-cover", "-gccgoflags", "-gcflags", "-msan", "-race", "-tags",
		"GOEXPERIMENT", "GOFIPS140",
	}
	codeWhenSet = []string{
		"CGO_CFLAGS", "CGO_CPPFLAGS", "CGO_CXXFLAGS", // recorded empty when unset
	}
	codeWhenChanged = []string{
		"CGO_ENABLED",
		// The architecture's level, GO$GOARCH.
		"GO386", "GOAMD64", "GOARM", "GOARM64", "GOMIPS", "GOMIPS64", "GOPPC64", "GORISCV64", "GOWASM",
	}
	codeDefaults = map[string]string{"-buildmode": "exe", "-compiler": "gc"}
)

// CodeSettings returns how the test binary at path was built, as far as
// that changes the machine code a plain go test -c makes of the same source
// on this machine: "" for a plain build, else settings sorted by name, such
// as "-gcflags=all=-N -race=true CGO_ENABLED=0 GOAMD64=v3". Flags count
// wherever they come from: GOFLAGS, go env -w, or Toolchain.Tags.
//
// When the go command cannot say which of its settings differ from its
// defaults (go env -changed, Go 1.23 and later), only the flags and
// GOEXPERIMENT count.
func (tc *Toolchain) CodeSettings(ctx context.Context, path string) (string, error) {
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read the build settings of %s: %w", path, err)
	}
	changed, err := tc.changedEnv(ctx)
	if err != nil && ctx.Err() != nil {
		return "", ctx.Err()
	}
	return codeSettings(bi.Settings, changed), nil
}

// changedEnv returns the go command's settings that differ from their
// defaults (go env -changed), in the environment it builds with.
func (tc *Toolchain) changedEnv(ctx context.Context) (map[string]string, error) {
	cmd, done, err := tc.command(ctx, "env", "-changed", "-json")
	if err != nil {
		return nil, err
	}
	defer done()
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go env -changed: %w", exitDetail(err))
	}
	changed := map[string]string{}
	if err := json.Unmarshal(out, &changed); err != nil {
		return nil, fmt.Errorf("go env -changed: %w", err)
	}
	return changed, nil
}

// codeSettings picks from a binary's build settings those that change its
// code (see codeWhenGiven), given the settings go env -changed lists.
func codeSettings(settings []debug.BuildSetting, changed map[string]string) string {
	var out []string
	for _, s := range settings {
		k, v := s.Key, s.Value
		_, isChanged := changed[k]
		switch {
		case slices.Contains(codeWhenGiven, k):
		case slices.Contains(codeWhenSet, k) && v != "":
		case slices.Contains(codeWhenChanged, k) && isChanged:
		case codeDefaults[k] != "" && v != codeDefaults[k]:
		default:
			continue
		}
		if k == "-tags" {
			tags := strings.Split(v, ",")
			slices.Sort(tags)
			v = strings.Join(tags, ",")
		}
		if strings.ContainsAny(v, " \t\"'") {
			v = strconv.Quote(v)
		}
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}
