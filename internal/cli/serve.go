package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/perfloop/perfloop/internal/dashboard"
)

const serveUsage = `
usage: perfloop serve [flags]

Serve runs a read-only dashboard of the history perfloop record stored:
every benchmark series, the ones that shifted most recently first; a trend
chart per series with its change points, each point a link to that
commit's report (root causes, flame graphs, the profiles for go tool
pprof); and the CPU profiles of any two points diffed function by function.

It listens on loopback (127.0.0.1:8080) unless -addr says otherwise, loads
nothing from the network (works offline), and never writes the store.
Ctrl-C stops it.

Exit status: 130 when Ctrl-C stops it (its usual end), 2 on bad flags, an
address it cannot listen on or a store it cannot open, 1 when serving
fails.

Examples:

	perfloop serve
	perfloop serve -addr 127.0.0.1:9000 -store postgres://ci@db/perf
`

func runServe(ctx context.Context, args []string, s Streams) error {
	fs := newFlagSet("serve", serveUsage, s)
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `host:port` (loopback by default: the store's reports are yours)")
	dsn := fs.String("store", "", "read `dsn`: a file path (SQLite) or postgres://… (default .perfloop/history.db at the module root)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErrorf("serve takes no arguments (got %q): the store holds the module's runs", pos[0])
	}
	st, shown, root, module, err := moduleStore(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return usageErrorf("-addr %s: %v", *addr, err)
	}
	srv := &http.Server{
		Handler:           dashboard.New(st, dashboard.Options{Module: module, Order: func(ctx context.Context) []string { return ancestry(ctx, root) }}),
		ReadHeaderTimeout: 10 * time.Second,
	}
	fmt.Fprintf(s.Err, "perfloop: serving %s from %s on http://%s/ (Ctrl-C stops)\n", module, shown, ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return ctx.Err()
	}
}
