package cmdbench

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  string
	}{
		{"true", []string{"true"}, ""},
		{"  grep  -r\tTODO \n . ", []string{"grep", "-r", "TODO", "."}, ""},
		{"", nil, ""},
		{"   ", nil, ""},
		{`echo 'a b' "c d"`, []string{"echo", "a b", "c d"}, ""},
		{`echo a'b c'd`, []string{"echo", "ab cd"}, ""},
		{`echo '' ""`, []string{"echo", "", ""}, ""},
		{`echo a\ b`, []string{"echo", "a b"}, ""},
		{`echo \'x\"`, []string{"echo", `'x"`}, ""},
		{`echo 'a\b'`, []string{"echo", `a\b`}, ""},                // no escapes in single quotes
		{`echo "a\"b\\c\$d\e"`, []string{"echo", `a"b\c$d\e`}, ""}, // \e stays
		{`echo "it's"`, []string{"echo", "it's"}, ""},              // ' inside ""
		{"echo a\\\nb", []string{"echo", "ab"}, ""},                // line continuation
		{"echo \"a\\\nb\"", []string{"echo", "ab"}, ""},            // ditto inside ""
		{`grep -E 'a|b' file`, []string{"grep", "-E", "a|b", "file"}, ""},
		{`echo $HOME *.go ~`, []string{"echo", "$HOME", "*.go", "~"}, ""}, // no expansion
		{`echo a | wc`, []string{"echo", "a", "|", "wc"}, ""},             // no operators
		{`echo 'open`, nil, "unterminated single quote"},
		{`echo "open`, nil, "unterminated double quote"},
		{`echo "a\"`, nil, "unterminated double quote"},
		{`echo \`, nil, "trailing backslash"},
	}
	for _, tt := range tests {
		got, err := Split(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Split(%q) error = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Split(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// shellQuote quotes each word for a POSIX shell, the inverse of Split.
func shellQuote(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// FuzzSplit checks that Split never panics and that it undoes shell
// quoting: whatever words it returns survive quoting and splitting again.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{`echo 'a b' "c d"`, `a\ b`, `"a\"b"`, `''`, "a\\\nb", `'`, `"\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := Split(s)
		if err != nil {
			return
		}
		again, err := Split(shellQuote(words))
		if err != nil {
			t.Fatalf("Split(quote(%q)): %v", words, err)
		}
		if len(words) == 0 && len(again) == 0 {
			return
		}
		if !reflect.DeepEqual(again, words) {
			t.Fatalf("Split(%q) = %q, but quoting and splitting again gives %q", s, words, again)
		}
	})
}

func TestParseParameterList(t *testing.T) {
	tests := []struct {
		in   string
		want ParameterList
		err  bool
	}{
		{"n=1,2,4", ParameterList{"n", []string{"1", "2", "4"}}, false},
		{"threads=8", ParameterList{"threads", []string{"8"}}, false},
		{`sep=a\,b,c`, ParameterList{"sep", []string{"a,b", "c"}}, false},
		{"opt=,-O2", ParameterList{}, true},
		{"n=1,,2", ParameterList{}, true},
		{"n=1,", ParameterList{}, true},
		{"n=", ParameterList{}, true},
		{`n=\,`, ParameterList{"n", []string{","}}, false},
		{"x=a=b", ParameterList{"x", []string{"a=b"}}, false},
		{"n", ParameterList{}, true},
		{"=1,2", ParameterList{}, true},
		{"a b=1", ParameterList{}, true},
	}
	for _, tt := range tests {
		got, err := ParseParameterList(tt.in)
		if (err != nil) != tt.err || !tt.err && !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseParameterList(%q) = %+v, %v; want %+v (error %v)", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestSubstitute(t *testing.T) {
	params := []Parameter{{"n", "4"}, {"file", "big.tar"}}
	tests := []struct{ in, want string }{
		{"xz -T{n} {file}", "xz -T4 big.tar"},
		{"{n}{n}", "44"},
		{"awk '{print $1}' {file}", "awk '{print $1}' big.tar"}, // not a parameter: kept
		{"{N}", "{N}"},                                          // names are case-sensitive
		{"no braces", "no braces"},
	}
	for _, tt := range tests {
		if got := Substitute(tt.in, params); got != tt.want {
			t.Errorf("Substitute(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSpecCommands(t *testing.T) {
	spec := Spec{
		Lines:   []string{"gzip -{l} -c {f}", "xz -{l} -c {f}"},
		Names:   []string{"gzip-{l}"},
		Lists:   []ParameterList{{"l", []string{"1", "9"}}, {"f", []string{"a"}}},
		Prepare: "sync {f}",
	}
	cmds, err := spec.Commands()
	if err != nil {
		t.Fatal(err)
	}
	var got [][3]string
	for _, c := range cmds {
		got = append(got, [3]string{c.Name, strings.Join(c.Argv, "|"), c.Prepare})
		if !c.Shell {
			t.Errorf("%s: Shell = false, want true", c.Name)
		}
	}
	want := [][3]string{
		{"gzip-1", "sh|-c|gzip -1 -c a", "sync a"},
		{"xz -1 -c a", "sh|-c|xz -1 -c a", "sync a"},
		{"gzip-9", "sh|-c|gzip -9 -c a", "sync a"},
		{"xz -9 -c a", "sh|-c|xz -9 -c a", "sync a"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Commands() =\n%q\nwant\n%q", got, want)
	}
	if p := cmds[2].Parameters; !reflect.DeepEqual(p, []Parameter{{"l", "9"}, {"f", "a"}}) {
		t.Errorf("Parameters = %v", p)
	}

	// Used only by -prepare: the commands differ in what they find.
	if _, err := (Spec{Lines: []string{"./bin"}, Prepare: "make -j{n}", Lists: []ParameterList{{"n", []string{"1", "2"}}}}).Commands(); err != nil {
		t.Errorf("a parameter used by -prepare: %v", err)
	}

	direct, err := Spec{Lines: []string{`grep -c 'a b' file`}, NoShell: true}.Commands()
	if err != nil {
		t.Fatal(err)
	}
	if c := direct[0]; c.Shell || !reflect.DeepEqual(c.Argv, []string{"grep", "-c", "a b", "file"}) {
		t.Errorf("-no-shell command = %+v", c)
	}

	for _, bad := range []Spec{
		{},
		{Lines: []string{"a"}, Names: []string{"x", "y"}},
		{Lines: []string{"  "}},
		{Lines: []string{"echo 'x"}, NoShell: true},
		{Lines: []string{"a {n}"}, Lists: []ParameterList{{"n", []string{"1"}}, {"n", []string{"2"}}}},
		// A parameter no command uses would run the same thing for
		// every value.
		{Lines: []string{"sleep 1"}, Names: []string{"s{n}"}, Lists: []ParameterList{{"n", []string{"1", "2"}}}},
	} {
		if _, err := bad.Commands(); err == nil {
			t.Errorf("%+v.Commands(): no error", bad)
		}
	}
}
