package store

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
)

// Fingerprint identifies where and how a run was measured; points are
// compared only within one. Two runs with equal fingerprints ran on the same
// kind of machine with the same toolchain, built the same way, so their
// numbers may be put side by side.
type Fingerprint struct {
	CPU        string // model name, as benchfmt's "cpu:" line
	GOMAXPROCS int
	GoVersion  string // "go1.26.8"
	GOOS       string // runtime.GOOS of the benchmark binary
	GOARCH     string // runtime.GOARCH of the benchmark binary
	Kernel     string // uname -r, "" where unknown
	// Build is how the benchmarks were built, as far as it changes their
	// machine code ("-race=true", "-gcflags=all=-N", "CGO_ENABLED=0",
	// "GOAMD64=v3": see gotest.Toolchain.CodeSettings); "" for a plain
	// build, or where unknown (imported results).
	Build string
}

// keyVersion prefixes the hashed form of a fingerprint. It must never change:
// keys are stored and compared across perfloop versions.
const keyVersion = "perfloop-fingerprint-v1"

// Key returns a stable, human-readable-ish key unique to f's fields, of the
// form GOOS-GOARCH-GOVERSION-pGOMAXPROCS-HASH, for example
// "linux-amd64-go1.26.8-p8-5d2e0c61a9f4". HASH is the first 12 hex digits of
// the SHA-256 of every field (CPU, Kernel and Build included), so two
// fingerprints share a key only if all their fields are equal. The same
// fields give the same key forever; a plain build (Build "") has the key
// it had before Build was a field, so existing histories go on.
func (f Fingerprint) Key() string {
	var b strings.Builder
	b.WriteString(keyVersion)
	fields := []string{
		f.CPU,
		strconv.Itoa(f.GOMAXPROCS),
		f.GoVersion,
		f.GOOS,
		f.GOARCH,
		f.Kernel,
	}
	if f.Build != "" {
		fields = append(fields, f.Build)
	}
	for _, field := range fields {
		b.WriteByte('\n')
		b.WriteString(strconv.Quote(field))
	}
	sum := sha256.Sum256([]byte(b.String()))
	return strings.Join([]string{
		slug(f.GOOS),
		slug(f.GOARCH),
		slug(f.GoVersion),
		"p" + strconv.Itoa(f.GOMAXPROCS),
		hex.EncodeToString(sum[:6]),
	}, "-")
}

// slug makes s safe and readable inside a key: it keeps ASCII letters,
// digits, '.' and '_', turns anything else into '_', and spells "" as
// "unknown". The hash in a key, not the slugs, makes it unique.
func slug(s string) string {
	if s == "" {
		return "unknown"
	}
	b := []byte(s)
	for i, c := range b {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '_':
		default:
			b[i] = '_'
		}
	}
	return string(b)
}
