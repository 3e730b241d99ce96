package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/perfloop/perfloop/internal/dashboard"
)

const serveUsage = `
usage: perfloop serve [flags]

Serve runs a read-only dashboard of the history perfloop record stored:
the benchmark series, the ones that shifted most recently first, a page
at a time, searchable by benchmark, package and unit, each with a
sparkline; a trend chart per series with its change points, each point a
link to that commit's report (root causes, flame graphs, the profiles for
go tool pprof); and the CPU profiles of any two points diffed function by
function. It shows what perfloop record computed and stored (the change
points, in the git order of the commits recorded): nothing is computed
for the list, so it opens at once on thousands of series.

It listens on loopback (127.0.0.1:8080) unless -addr says otherwise, loads
nothing from the network (works offline), and never writes the store.
Ctrl-C stops it.

The dashboard has no login. An -addr that other machines reach (every
interface, as 0.0.0.0:8080, :8080 or [::]:8080, or an address that is not
loopback) is refused unless -allow-remote says so: then anyone who can
reach it reads the store's benchmark results, reports and profiles
(function names, source lines, commit subjects), and serve says so on
stderr.

It answers only requests addressed to the names it is served under, so a
web page on another domain cannot read it by pointing its own name at this
machine (DNS rebinding): localhost, 127.0.0.1 and [::1] with the port
served, the address it listens on, with -allow-remote this machine's host
name and its interfaces' addresses, and every -allow-host (a name, with a
port or for any port: the name a reverse proxy or a DNS entry gives it).
Other requests get 421 Misdirected Request. Every page carries a
Content-Security-Policy that allows no inline script or style and no
framing.

Exit status: 130 when Ctrl-C stops it (its usual end), 2 on bad flags, an
address it cannot listen on or a store it cannot open, 1 when serving
fails.

Examples:

	perfloop serve
	perfloop serve -addr 127.0.0.1:9000 -store postgres://ci@db/perf
	perfloop serve -addr 0.0.0.0:8080 -allow-remote -allow-host perf.example.com
`

func runServe(ctx context.Context, args []string, s Streams) error {
	fs := newFlagSet("serve", serveUsage, s)
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `host:port` (loopback by default: the store's reports are yours)")
	dsn := fs.String("store", "", "read `dsn`: a file path (SQLite) or postgres://… (default .perfloop/history.db at the module root)")
	remote := fs.Bool("allow-remote", false, "allow an -addr that other machines reach: they read the store's results, reports and profiles, with no login")
	var names stringList
	fs.Var(&names, "allow-host", "also answer requests for `name` or name:port (a reverse proxy's or a DNS name); repeat for more")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErrorf("serve takes no arguments (got %q): the store holds the module's runs", pos[0])
	}
	for _, n := range names {
		if n == "" || strings.ContainsAny(n, "/ \t@?#") {
			return usageErrorf("-allow-host %q: want a host name or address, with a port or without (perf.example.com, perf.example.com:8443)", n)
		}
	}
	reaches, err := reachesOthers(ctx, *addr)
	if err != nil {
		return err
	}
	if reaches && !*remote {
		return usageErrorf("-addr %s is reachable from other machines: add -allow-remote to serve them this store's benchmark results, reports and profiles with no login, or listen on 127.0.0.1", *addr)
	}
	st, shown, _, module, err := moduleStore(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return usageErrorf("-addr %s: %v", *addr, err)
	}
	hosts := servedHosts(ln.Addr().(*net.TCPAddr), reaches, names)
	srv := &http.Server{
		Handler:           dashboard.New(st, dashboard.Options{Module: module, Hosts: hosts}),
		ReadHeaderTimeout: 10 * time.Second,
	}
	if reaches {
		fmt.Fprintf(s.Err, "perfloop: warning: -allow-remote: anyone who can reach %s reads this store's benchmark results, reports and profiles (function names, source lines, commit subjects); there is no login\n", ln.Addr())
	}
	fmt.Fprintf(s.Err, "perfloop: serving %s from %s on http://%s/ (Ctrl-C stops); answering Host %s\n", module, shown, ln.Addr(), strings.Join(hosts, ", "))
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

// reachesOthers reports whether listening on addr lets other machines
// connect: every interface (no host, 0.0.0.0, [::]), an address that is
// not loopback, or a name that resolves to one.
func reachesOthers(ctx context.Context, addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, usageErrorf("-addr %q: want host:port, such as 127.0.0.1:8080", addr)
	}
	if host == "" {
		return true, nil
	}
	if ip := net.ParseIP(host); ip != nil {
		return !ip.IsLoopback(), nil
	}
	ips, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil {
		return false, usageErrorf("-addr %s: %v", addr, err)
	}
	for _, ip := range ips {
		if !ip.IP.IsLoopback() {
			return true, nil
		}
	}
	return false, nil
}

// servedHosts are the Host headers the dashboard answers when it listens
// on at: the loopback names and the address listened on, with the port
// served; when other machines reach it, also this machine's host name and
// its interfaces' addresses; and the names the user allowed, as given.
func servedHosts(at *net.TCPAddr, remote bool, allowed []string) []string {
	port := strconv.Itoa(at.Port)
	seen := map[string]bool{}
	var hosts []string
	add := func(h string) {
		if h = strings.ToLower(h); !seen[h] {
			seen[h] = true
			hosts = append(hosts, h)
		}
	}
	for _, h := range []string{"localhost", "127.0.0.1", "::1"} {
		add(net.JoinHostPort(h, port))
	}
	if !at.IP.IsUnspecified() {
		add(net.JoinHostPort(at.IP.String(), port))
	}
	if remote {
		if name, err := os.Hostname(); err == nil && name != "" {
			add(net.JoinHostPort(name, port))
		}
		if at.IP.IsUnspecified() {
			if addrs, err := net.InterfaceAddrs(); err == nil {
				for _, a := range addrs {
					if ipnet, ok := a.(*net.IPNet); ok && !ipnet.IP.IsLinkLocalUnicast() {
						add(net.JoinHostPort(ipnet.IP.String(), port))
					}
				}
			}
		}
	}
	for _, h := range allowed {
		add(h)
	}
	return hosts
}
