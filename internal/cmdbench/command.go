package cmdbench

import (
	"errors"
	"fmt"
	"strings"
)

// Command is one command to time.
type Command struct {
	// Name is what output calls the command; the command line by default.
	Name string
	// Line is the command as the user wrote it, parameters substituted.
	Line string
	// Argv is what runs: sh -c Line, or Line split into words.
	Argv []string
	// Shell says Argv runs Line through a shell, whose spawn time is
	// then measured and subtracted.
	Shell bool
	// Parameters are the values substituted into Line, in flag order.
	Parameters []Parameter
	// Prepare runs through the shell before every run, untimed; Cleanup
	// after the command's last run. Empty means none.
	Prepare, Cleanup string
}

// Parameter is one value substituted for {Name}.
type Parameter struct {
	Name, Value string
}

// ParameterList is a parameter and the values it takes, from
// -parameter-list NAME=v1,v2,….
type ParameterList struct {
	Name   string
	Values []string
}

// ParseParameterList parses "NAME=v1,v2,…". A comma inside a value is
// written "\,"; an empty value is an error (a doubled or trailing comma is
// more likely a typo than a wish to run a command with nothing
// substituted).
func ParseParameterList(s string) (ParameterList, error) {
	name, vals, ok := strings.Cut(s, "=")
	if !ok {
		return ParameterList{}, fmt.Errorf("parameter list %q: want NAME=v1,v2,…", s)
	}
	if !validParamName(name) {
		return ParameterList{}, fmt.Errorf("parameter list %q: name %q must be letters, digits and _", s, name)
	}
	var (
		values []string
		cur    strings.Builder
	)
	for i := 0; i < len(vals); i++ {
		switch c := vals[i]; {
		case c == '\\' && i+1 < len(vals) && vals[i+1] == ',':
			cur.WriteByte(',')
			i++
		case c == ',':
			values = append(values, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	values = append(values, cur.String())
	for i, v := range values {
		if v == "" {
			return ParameterList{}, fmt.Errorf("parameter list %q: value %d of %d is empty", s, i+1, len(values))
		}
	}
	return ParameterList{Name: name, Values: values}, nil
}

func validParamName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// Substitute replaces every {NAME} in s with the value of the parameter
// NAME. Braces that name no parameter are left as they are.
func Substitute(s string, params []Parameter) string {
	if len(params) == 0 || !strings.Contains(s, "{") {
		return s
	}
	pairs := make([]string, 0, 2*len(params))
	for _, p := range params {
		pairs = append(pairs, "{"+p.Name+"}", p.Value)
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

// Spec describes the commands of one exec invocation before parameters
// are expanded.
type Spec struct {
	// Lines are the commands as given; Names their display names (fewer
	// names than lines leaves the rest named by their command line).
	Lines, Names []string
	// Lists are the parameters; every combination of their values is
	// run for every line.
	Lists []ParameterList
	// NoShell runs each line split into words instead of via Shell.
	NoShell bool
	// Shell is the shell that runs lines, prepare and cleanup ("sh").
	Shell string
	// Prepare and Cleanup are shell commands (see Command).
	Prepare, Cleanup string
}

// Commands expands the spec: for each combination of parameter values (the
// last list varying fastest), each line in order, with {NAME} substituted in
// the line, its name and the prepare and cleanup commands.
func (s Spec) Commands() ([]Command, error) {
	if len(s.Lines) == 0 {
		return nil, errors.New("no command given")
	}
	if len(s.Names) > len(s.Lines) {
		return nil, fmt.Errorf("%d names given for %d commands", len(s.Names), len(s.Lines))
	}
	seen := map[string]bool{}
	for _, l := range s.Lists {
		if seen[l.Name] {
			return nil, &parameterError{fmt.Errorf("parameter %q given twice", l.Name)}
		}
		seen[l.Name] = true
		if !s.uses(l.Name) {
			return nil, &parameterError{fmt.Errorf("parameter %q is not used: no command (nor -prepare or -cleanup) contains {%s}, so every value would run the same thing", l.Name, l.Name)}
		}
	}
	shell := s.Shell
	if shell == "" {
		shell = "sh"
	}
	var cmds []Command
	for _, params := range combinations(s.Lists) {
		for i, line := range s.Lines {
			c := Command{
				Line:       Substitute(line, params),
				Shell:      !s.NoShell,
				Parameters: params,
				Prepare:    Substitute(s.Prepare, params),
				Cleanup:    Substitute(s.Cleanup, params),
			}
			c.Name = c.Line
			if i < len(s.Names) {
				c.Name = Substitute(s.Names[i], params)
			}
			if strings.TrimSpace(c.Line) == "" {
				return nil, fmt.Errorf("command %d is empty", i+1)
			}
			if s.NoShell {
				words, err := Split(c.Line)
				if err != nil {
					return nil, fmt.Errorf("split %q: %w", c.Line, err)
				}
				c.Argv = words
			} else {
				c.Argv = []string{shell, "-c", c.Line}
			}
			cmds = append(cmds, c)
		}
	}
	return cmds, nil
}

// parameterError is a Spec's parameter list at fault.
type parameterError struct{ err error }

func (e *parameterError) Error() string { return e.err.Error() }

// uses reports whether {name} appears in a command line or in the prepare
// or cleanup command.
func (s Spec) uses(name string) bool {
	ref := "{" + name + "}"
	for _, l := range append([]string{s.Prepare, s.Cleanup}, s.Lines...) {
		if strings.Contains(l, ref) {
			return true
		}
	}
	return false
}

// combinations returns every combination of the lists' values, the last
// list varying fastest; one empty combination when there are no lists.
func combinations(lists []ParameterList) [][]Parameter {
	combos := [][]Parameter{nil}
	for _, l := range lists {
		var next [][]Parameter
		for _, c := range combos {
			for _, v := range l.Values {
				p := append(append([]Parameter(nil), c...), Parameter{l.Name, v})
				next = append(next, p)
			}
		}
		combos = next
	}
	return combos
}

// Split splits s into words as a POSIX shell does, without expanding
// anything: blanks separate words; a backslash outside quotes takes the
// next character literally (and a backslash-newline disappears); single
// quotes keep everything up to the next single quote; inside double quotes
// a backslash escapes only $ ` " \ and newline. Operators such as | ; > are
// ordinary characters here: use a shell for pipelines and redirections.
func Split(s string) ([]string, error) {
	var (
		words  []string
		cur    strings.Builder
		inWord bool
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t', '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case '\\':
			if i+1 == len(s) {
				return nil, errors.New("trailing backslash")
			}
			i++
			if s[i] != '\n' {
				cur.WriteByte(s[i])
				inWord = true
			}
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated single quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case '"':
			inWord = true
			closed := false
			for i++; i < len(s); i++ {
				d := s[i]
				if d == '"' {
					closed = true
					break
				}
				if d == '\\' && i+1 < len(s) {
					switch s[i+1] {
					case '$', '`', '"', '\\':
						cur.WriteByte(s[i+1])
						i++
						continue
					case '\n':
						i++
						continue
					}
				}
				cur.WriteByte(d)
			}
			if !closed {
				return nil, errors.New("unterminated double quote")
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
