package cli

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/perfloop/perfloop/internal/store"
)

// syncBuffer is a bytes.Buffer safe for a command writing in one
// goroutine and a test reading in another.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestServeHosts runs perfloop serve on loopback and, with -allow-remote,
// on every interface: the warning says what is exposed, and only the
// names it is served under are answered (a DNS rebinding attack's page
// asks under its own).
func TestServeHosts(t *testing.T) {
	hostname, _ := os.Hostname()
	hostname = strings.ToLower(hostname)
	for _, tc := range []struct {
		name    string
		args    []string
		warning bool
		answer  []string // Host names answered, besides 127.0.0.1:PORT
		refuse  []string // Host names refused with 421
	}{
		{"loopback", []string{"-addr", "127.0.0.1:0"}, false,
			[]string{"localhost:PORT", "[::1]:PORT"},
			[]string{"evil.example:PORT", "localhost:1", hostname + ":PORT", "perf.example.com:PORT"}},
		{"loopback behind a proxy", []string{"-addr", "127.0.0.1:0", "-allow-host", "perf.example.com"}, false,
			[]string{"perf.example.com", "perf.example.com:443"},
			[]string{"evil.example:PORT"}},
		{"every interface", []string{"-addr", "0.0.0.0:0", "-allow-remote", "-allow-host", "perf.example.com:8443"}, true,
			[]string{"localhost:PORT", hostname + ":PORT", "perf.example.com:8443"},
			[]string{"evil.example:PORT", "perf.example.com:PORT"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var stderr syncBuffer
			done := make(chan error, 1)
			// serve reads a store, and never creates one.
			dsn := filepath.Join(t.TempDir(), "h.db")
			st, err := store.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			st.Close()
			args := append(tc.args, "-store", dsn)
			go func() { done <- runServe(ctx, args, Streams{Out: &bytes.Buffer{}, Err: &stderr}) }()
			serving := regexp.MustCompile(`on http://\S*:(\d+)/`)
			var port string
			for deadline := time.Now().Add(30 * time.Second); port == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
				if m := serving.FindStringSubmatch(stderr.String()); m != nil {
					port = m[1]
				}
				select {
				case err := <-done:
					t.Fatalf("serve ended: %v\n%s", err, stderr.String())
				default:
				}
			}
			if port == "" {
				t.Fatalf("serve did not start:\n%s", stderr.String())
			}
			warned := strings.Contains(stderr.String(), "warning: -allow-remote: anyone who can reach")
			if warned != tc.warning {
				t.Errorf("warning printed: %v, want %v:\n%s", warned, tc.warning, stderr.String())
			}
			if !strings.Contains(stderr.String(), "perfloop: serving") {
				t.Errorf("stderr:\n%s", stderr.String())
			}
			get := func(host string) int {
				req, _ := http.NewRequest("GET", "http://127.0.0.1:"+port+"/", nil)
				req.Host = strings.ReplaceAll(host, "PORT", port)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				return resp.StatusCode
			}
			for _, h := range append([]string{"127.0.0.1:PORT"}, tc.answer...) {
				if code := get(h); code != 200 {
					t.Errorf("Host %s: %d, want 200", h, code)
				}
			}
			for _, h := range tc.refuse {
				if code := get(h); code != http.StatusMisdirectedRequest {
					t.Errorf("Host %s: %d, want %d", h, code, http.StatusMisdirectedRequest)
				}
			}
			cancel()
			if err := <-done; ExitCode(err) != ExitInterrupted {
				t.Errorf("serve returned %v, want an interruption", err)
			}
		})
	}
}
