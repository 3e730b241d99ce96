package cli

import (
	"flag"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
)

// printFlags prints fs's flags as flag.PrintDefaults does, except that a
// usage which states its default itself ("(default 10: why)") is not
// followed by a second "(default 10)", and that aliases are listed apart,
// after the flags, each with the flag it stands for.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	shown := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	shown.SetOutput(w)
	var aliases []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		if _, ok := f.Value.(*aliasValue); ok {
			aliases = append(aliases, f)
			return
		}
		shown.Var(f.Value, f.Name, f.Usage)
		g := shown.Lookup(f.Name)
		g.DefValue = f.DefValue
		if strings.Contains(f.Usage, "(default ") {
			g.DefValue = zeroString(f.Value)
		}
	})
	shown.PrintDefaults()
	if len(aliases) == 0 {
		return
	}
	fmt.Fprintln(w, "\nAliases (other spellings of the flags above):")
	for _, f := range aliases {
		a := f.Value.(*aliasValue)
		note := ""
		if a.warn != nil {
			note = " (deprecated: " + a.why + ")"
		}
		fmt.Fprintf(w, "  -%s\tfor -%s%s\n", f.Name, a.of, note)
	}
}

// zeroString is what the zero value of v's type prints: flag.PrintDefaults
// leaves a default out when it is that.
func zeroString(v flag.Value) (s string) {
	defer func() {
		if recover() != nil {
			s = ""
		}
	}()
	t := reflect.TypeOf(v)
	if t.Kind() == reflect.Pointer {
		return reflect.New(t.Elem()).Interface().(flag.Value).String()
	}
	return reflect.Zero(t).Interface().(flag.Value).String()
}

// aliasValue is the value of a flag that is another spelling of the flag
// named of: setting it sets that flag's value. A deprecated alias says so
// on warn when it is used.
type aliasValue struct {
	flag.Value
	name, of string
	warn     io.Writer // nil unless deprecated
	why      string    // why it is deprecated
}

func (a *aliasValue) Set(v string) error {
	if a.warn != nil {
		fmt.Fprintf(a.warn, "perfloop: -%s is deprecated: use -%s (%s)\n", a.name, a.of, a.why)
	}
	return a.Value.Set(v)
}

// IsBoolFlag lets a boolean flag's alias be given without a value, as the
// flag itself is.
func (a *aliasValue) IsBoolFlag() bool {
	b, ok := a.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// alias defines -name as another spelling of fs's flag -of (defined
// before it), for scripts written with that spelling. Help lists it under
// "Aliases", not among the flags.
func alias(fs *flag.FlagSet, name, of string) {
	fs.Var(&aliasValue{Value: fs.Lookup(of).Value, name: name, of: of}, name, "alias of -"+of)
}

// deprecatedAlias is alias for a spelling that is going away: each use
// prints "-name is deprecated: use -of (why)" on warn.
func deprecatedAlias(fs *flag.FlagSet, name, of, why string, warn io.Writer) {
	fs.Var(&aliasValue{Value: fs.Lookup(of).Value, name: name, of: of, warn: warn, why: why}, name, "deprecated alias of -"+of+" ("+why+")")
}

// helpShown is flag.ErrHelp from a command that printed its help, with the
// command's flags, so that its flags can be inspected (the conventions
// test walks every command's).
type helpShown struct{ fs *flag.FlagSet }

func (h helpShown) Error() string { return flag.ErrHelp.Error() }
func (h helpShown) Unwrap() error { return flag.ErrHelp }

// shareValue is a flag that holds a share, 0 to 1, given as a fraction
// (0.05) or a percentage (5%). A bare number of 1 or more is refused: 5
// could mean 5% or 500%.
type shareValue float64

func (v *shareValue) String() string {
	return strconv.FormatFloat(100*float64(*v), 'g', 6, 64) + "%"
}

func (v *shareValue) Set(s string) error {
	t := strings.TrimSpace(s)
	pct := strings.HasSuffix(t, "%")
	f, err := strconv.ParseFloat(strings.TrimSuffix(t, "%"), 64)
	if pct {
		f /= 100
	}
	if err != nil || !(f >= 0 && f <= 1) || !pct && f >= 1 {
		return fmt.Errorf("want a fraction below 1 or a percentage, such as 0.05 or 5%%")
	}
	*v = shareValue(f)
	return nil
}
