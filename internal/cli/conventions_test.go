package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// commandHelp is one command's help as -h prints it, and its flags.
type commandHelp struct {
	name string
	help string
	fs   *flag.FlagSet
}

// allHelp runs every command with -h and returns what each printed, with
// the FlagSet that printed it.
func allHelp(t *testing.T) []commandHelp {
	t.Helper()
	var all []commandHelp
	for _, c := range commands() {
		var errOut strings.Builder
		err := c.run(context.Background(), []string{"-h"}, Streams{In: strings.NewReader(""), Out: io.Discard, Err: &errOut})
		var h helpShown
		if !errors.As(err, &h) {
			t.Fatalf("perfloop %s -h: %v, want the help and its flags", c.name, err)
		}
		all = append(all, commandHelp{c.name, errOut.String(), h.fs})
	}
	return all
}

// conventions pins what the flags that several commands share mean: the
// placeholder of the value (the back-quoted word of the usage). A new
// command that gives one of these names another meaning fails here.
var conventions = map[string]string{
	"o":           "file",   // -o FILE: one output file (bench, pgo)
	"out":         "dir",    // -out DIR: an output directory
	"cpu":         "list",   // -cpu LIST: GOMAXPROCS values, as go test -cpu
	"bench":       "regexp", // -bench REGEXP, as go test -bench
	"benchtime":   "d",      // a duration or Nx, as go test -benchtime
	"count":       "n",
	"timeout":     "d",
	"tags":        "tags",
	"store":       "dsn",
	"json":        "",
	"profiletime": "d",
	"min-share":   "share",
	"rev":         "rev",
}

// TestFlagConventions walks every command's flags and help: a flag name
// means one thing, with one type, in every command that has it; every help
// has an "Exit status:" paragraph; every alias is listed, for a flag of its
// own command; a -count default says why it is what it is.
func TestFlagConventions(t *testing.T) {
	type use struct {
		cmd         string
		typ         reflect.Type
		placeholder string
	}
	uses := map[string][]use{}
	for _, c := range allHelp(t) {
		if !regexp.MustCompile(`(?m)^Exit status: `).MatchString(c.help) {
			t.Errorf("perfloop help %s has no \"Exit status:\" paragraph", c.name)
		}
		c.fs.VisitAll(func(f *flag.Flag) {
			if a, ok := f.Value.(*aliasValue); ok {
				target := c.fs.Lookup(a.of)
				if target == nil {
					t.Errorf("%s -%s: alias of -%s, which %s does not have", c.name, f.Name, a.of, c.name)
					return
				}
				if _, ok := target.Value.(*aliasValue); ok {
					t.Errorf("%s -%s: alias of -%s, itself an alias", c.name, f.Name, a.of)
				}
				if !regexp.MustCompile(`(?m)^  -` + regexp.QuoteMeta(f.Name) + `\tfor -` + regexp.QuoteMeta(a.of) + `\b`).MatchString(c.help) {
					t.Errorf("perfloop help %s does not list the alias -%s for -%s", c.name, f.Name, a.of)
				}
				if a.warn != nil && a.why == "" {
					t.Errorf("%s -%s: deprecated without saying why", c.name, f.Name)
				}
				return
			}
			placeholder, _ := flag.UnquoteUsage(f)
			uses[f.Name] = append(uses[f.Name], use{c.name, reflect.TypeOf(f.Value), placeholder})
			if !regexp.MustCompile(`(?m)^  -` + regexp.QuoteMeta(f.Name) + `\b`).MatchString(c.help) {
				t.Errorf("perfloop help %s does not list -%s", c.name, f.Name)
			}
			if f.Name == "count" && !strings.Contains(f.Usage, "(default "+f.DefValue+": ") {
				t.Errorf("%s -count: the usage %q does not say why the default is %s: \"(default %s: why)\"", c.name, f.Usage, f.DefValue, f.DefValue)
			}
		})
	}
	names := make([]string, 0, len(uses))
	for name := range uses {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		us := uses[name]
		want, pinned := conventions[name]
		for _, u := range us {
			if pinned && u.placeholder != want {
				t.Errorf("%s -%s takes %q; -%s takes %q in every command", u.cmd, name, u.placeholder, name, want)
			}
			if u.typ != us[0].typ || u.placeholder != us[0].placeholder {
				t.Errorf("-%s means two things: %s", name, describeUses(us, func(u use) string { return fmt.Sprintf("%s: %s %q", u.cmd, u.typ, u.placeholder) }))
				break
			}
		}
	}
}

func describeUses[U any](us []U, f func(U) string) string {
	var parts []string
	for _, u := range us {
		parts = append(parts, f(u))
	}
	return strings.Join(parts, "; ")
}

// TestAliasSetsItsFlag: an alias sets the flag it stands for; a deprecated
// one says so on stderr.
func TestAliasSetsItsFlag(t *testing.T) {
	var warn strings.Builder
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	out := fs.String("out", "", "write into `dir`")
	on := fs.Bool("on", false, "turn it on")
	alias(fs, "o", "out")
	deprecatedAlias(fs, "enable", "on", "-enable is going away", &warn)
	if _, err := parseFlags(fs, []string{"-o", "d", "-enable"}); err != nil {
		t.Fatal(err)
	}
	if *out != "d" || !*on {
		t.Errorf("-o d -enable: out = %q, on = %v", *out, *on)
	}
	if got := warn.String(); got != "perfloop: -enable is deprecated: use -on (-enable is going away)\n" {
		t.Errorf("deprecation note %q", got)
	}
}

// TestRunCPUIsDeprecated: run's -cpu (perfloop's CPU profile) is now
// -cpuprofile, since -cpu is GOMAXPROCS values everywhere else; the old
// spelling still works and says so, and GOMAXPROCS values given to it
// are told where they go.
func TestRunCPUIsDeprecated(t *testing.T) {
	t.Chdir(t.TempDir())
	var out, errOut strings.Builder
	code := Run(context.Background(), []string{"run", "-cpu", "1,4", "./cmd/x"}, Streams{Out: &out, Err: &errOut})
	want := "perfloop: -cpu is deprecated: use -cpuprofile (-cpu is GOMAXPROCS values in the other commands)\n" +
		"perfloop: -cpuprofile must be auto, on or off, got \"1,4\"; to run the program with GOMAXPROCS=N, set it in the environment\n"
	if code != ExitUsage || errOut.String() != want {
		t.Errorf("perfloop run -cpu 1,4: exit %d, stderr\n%s\nwant exit %d, stderr\n%s", code, errOut.String(), ExitUsage, want)
	}
}
