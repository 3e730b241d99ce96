package gotest

import (
	"context"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"testing"
)

func TestCodeSettings(t *testing.T) {
	plain := []debug.BuildSetting{
		{Key: "-buildmode", Value: "exe"},
		{Key: "-compiler", Value: "gc"},
		{Key: "DefaultGODEBUG", Value: "tlssha1=1"},
		{Key: "CGO_ENABLED", Value: "1"},
		{Key: "CGO_CFLAGS", Value: ""},
		{Key: "CGO_CPPFLAGS", Value: ""},
		{Key: "CGO_CXXFLAGS", Value: ""},
		{Key: "CGO_LDFLAGS", Value: ""},
		{Key: "GOARCH", Value: "amd64"},
		{Key: "GOOS", Value: "linux"},
		{Key: "GOAMD64", Value: "v1"},
	}
	with := func(extra ...debug.BuildSetting) []debug.BuildSetting {
		out := slices.Clone(plain)
		for _, e := range extra {
			i := slices.IndexFunc(out, func(s debug.BuildSetting) bool { return s.Key == e.Key })
			if i >= 0 {
				out[i] = e
			} else {
				out = append(out, e)
			}
		}
		return out
	}
	tests := []struct {
		name     string
		settings []debug.BuildSetting
		changed  map[string]string // go env -changed
		want     string
	}{
		{"plain", plain, map[string]string{"GOFLAGS": "-buildvcs=false"}, ""},
		{"flags that leave the code alone", with(
			debug.BuildSetting{Key: "-trimpath", Value: "true"},
			debug.BuildSetting{Key: "-ldflags", Value: "-s -w -X main.version=abc"},
			debug.BuildSetting{Key: "CGO_LDFLAGS", Value: "-L/opt/lib"},
			debug.BuildSetting{Key: "-pgo", Value: "/home/ci/src/default.pgo"},
			debug.BuildSetting{Key: "vcs.revision", Value: "1ae5dc2"},
			debug.BuildSetting{Key: "DefaultGODEBUG", Value: "panicnil=1"},
		), map[string]string{"GOFLAGS": "-trimpath"}, ""},
		{"race", with(debug.BuildSetting{Key: "-race", Value: "true"}), map[string]string{"GOFLAGS": "-race"}, "-race=true"},
		{"gcflags and tags", with(
			debug.BuildSetting{Key: "-gcflags", Value: "all=-N -l"},
			debug.BuildSetting{Key: "-tags", Value: "purego,bench"},
		), nil, `-gcflags="all=-N -l" -tags=bench,purego`},
		{"asan, msan, cover, asmflags, buildmode, compiler", with(
			debug.BuildSetting{Key: "-asan", Value: "true"},
			debug.BuildSetting{Key: "-msan", Value: "true"},
			debug.BuildSetting{Key: "-cover", Value: "true"},
			debug.BuildSetting{Key: "-asmflags", Value: "-spectre=all"},
			debug.BuildSetting{Key: "-buildmode", Value: "pie"},
			debug.BuildSetting{Key: "-compiler", Value: "gccgo"},
			debug.BuildSetting{Key: "-gccgoflags", Value: "-O3"},
		), nil, "-asan=true -asmflags=-spectre=all -buildmode=pie -compiler=gccgo -cover=true -gccgoflags=-O3 -msan=true"},
		{"environment set away from its defaults", with(
			debug.BuildSetting{Key: "CGO_ENABLED", Value: "0"},
			debug.BuildSetting{Key: "GOAMD64", Value: "v3"},
			debug.BuildSetting{Key: "GOEXPERIMENT", Value: "arenas"},
			debug.BuildSetting{Key: "GOFIPS140", Value: "v1.0.0"},
			debug.BuildSetting{Key: "CGO_CFLAGS", Value: "-O3"},
		), map[string]string{"CGO_ENABLED": "0", "GOAMD64": "v3", "GOEXPERIMENT": "arenas", "GOFIPS140": "latest", "CGO_CFLAGS": "-O3"},
			"CGO_CFLAGS=-O3 CGO_ENABLED=0 GOAMD64=v3 GOEXPERIMENT=arenas GOFIPS140=v1.0.0"},
		// Without a C compiler cgo is off by default: a plain build.
		{"cgo off by default", with(debug.BuildSetting{Key: "CGO_ENABLED", Value: "0"}), nil, ""},
		{"arm", []debug.BuildSetting{{Key: "GOARCH", Value: "arm"}, {Key: "GOARM", Value: "6"}, {Key: "CGO_ENABLED", Value: "1"}},
			map[string]string{"GOARM": "6"}, "GOARM=6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := codeSettings(tt.settings, tt.changed); got != tt.want {
				t.Errorf("codeSettings = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestCodeSettingsOfBinaries builds a test binary plainly and with flags
// that change its code, and reads how each was built.
func TestCodeSettingsOfBinaries(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	mod := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":    "module example.com/settings\n\ngo 1.24\n",
		"a_test.go": "package settings\n\nimport \"testing\"\n\nfunc BenchmarkA(b *testing.B) {}\n",
	} {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	for _, tt := range []struct {
		env  []string
		tags string
		want string
	}{
		{nil, "", ""},
		{[]string{"GOFLAGS=-trimpath -ldflags=-s"}, "", ""},
		{[]string{"GOFLAGS=-gcflags=-N"}, "", "-gcflags=-N"},
		{nil, "bench", "-tags=bench"},
	} {
		tc := &Toolchain{Dir: mod, Env: tt.env, Tags: tt.tags}
		bin, err := tc.Build(ctx, Package{ImportPath: "example.com/settings", Dir: mod}, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		got, err := tc.CodeSettings(ctx, bin)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("env %q, tags %q: CodeSettings = %q, want %q", tt.env, tt.tags, got, tt.want)
		}
	}
}
