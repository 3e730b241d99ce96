package document

import "strings"

// The names of functions as profiles, the runtime and the testing package
// write them: the import path, a dot, then the function ("F"), the method
// ("T.M" or "(*T).M"), or the closure ("F.func1", "F.func1.2"), with a
// generic function's type arguments in brackets ("F[...]",
// "(*T[go.shape.int]).M"). Type arguments may hold dots and slashes of
// their own, and the last element of an import path may hold dots
// ("gopkg.in/yaml.v3"), so none of these functions looks for a dot or a
// slash past the first bracket or parenthesis.

// PlainFunc drops a generic function's type arguments from its name as
// profiles write it: "m.(*Tree[...]).Get" → "m.(*Tree).Get",
// "m.Map[go.shape.int]" → "m.Map". Instantiations of one function, and the
// same function in two revisions, then share a name.
func PlainFunc(fn string) string {
	if !strings.Contains(fn, "[") {
		return fn
	}
	var b strings.Builder
	depth := 0
	for _, r := range fn {
		switch {
		case r == '[':
			depth++
		case r == ']':
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ShortFunc drops the directories of a function's import path and keeps
// its package's last element, as pprof shows names:
// "example.com/m/codec.(*W).Write" → "codec.(*W).Write",
// "gopkg.in/yaml.v3.(*T).M" → "yaml.v3.(*T).M". Type arguments are kept
// as they are.
func ShortFunc(fn string) string {
	head := fn
	if i := strings.IndexAny(fn, "(["); i >= 0 {
		head = fn[:i]
	}
	return fn[strings.LastIndexByte(head, '/')+1:]
}

// SplitFunc splits a function's name into its package's import path and
// the rest: "example.com/m.(*T).Add" → "example.com/m", "(*T).Add". A
// name without a package ("main" alone) is "", fn.
//
// The last element of an import path may hold dots, and a name cannot
// always tell where it ends: a method with a pointer receiver ends the
// path before ".(*T)", and a ".vN" element (gopkg.in's version suffix) is
// taken as part of the path; otherwise the path ends at the first dot
// after its last slash.
func SplitFunc(fn string) (pkg, rest string) {
	head := fn
	if i := strings.IndexAny(fn, "(["); i >= 0 {
		head = fn[:i]
		if fn[i] == '(' && strings.HasSuffix(head, ".") && strings.LastIndexByte(head, '/') < len(head)-1 {
			return head[:len(head)-1], fn[i:]
		}
	}
	start := strings.LastIndexByte(head, '/') + 1
	end := -1
	for i := start; i < len(head); i++ {
		if head[i] != '.' {
			continue
		}
		if version(head[i+1:]) {
			continue
		}
		end = i
		break
	}
	if end < 0 {
		return "", fn
	}
	return fn[:end], fn[end+1:]
}

// version reports whether s starts with an import path's version element
// followed by more of the name: "v3.Marshal".
func version(s string) bool {
	if len(s) < 2 || s[0] != 'v' {
		return false
	}
	i := 1
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i > 1 && i < len(s) && s[i] == '.'
}

// FuncPackage returns the import path of a function's package:
// "strings.(*Builder).Grow" → "strings" (see SplitFunc).
func FuncPackage(fn string) string {
	pkg, _ := SplitFunc(fn)
	return pkg
}

// SourceFunc names a closure as its source does when the compiler named
// it through the functions it was inlined into:
// "m.BenchmarkDecompress.BenchmarkDecompress.Decompress.DecompressWithConfig.func2.func3"
// is the closure of DecompressWithConfig ("m.DecompressWithConfig.func2.func3")
// that the benchmark inlined through Decompress. Other names are
// unchanged, a closure of the benchmark's own (m.BenchmarkX.func1) too.
func SourceFunc(fn string) string {
	pkg, rest := "", fn
	for i := strings.LastIndex(fn, "/") + 1; i < len(fn); i++ {
		if fn[i] == '.' && !version(fn[i+1:]) {
			// The package ends at its first dot that does not start
			// a version element ("yaml.v3.(*T).F").
			pkg, rest = fn[:i+1], fn[i+1:]
			break
		}
	}
	parts := splitFunc(rest)
	closure := func(p string) bool {
		n, ok := strings.CutPrefix(p, "func")
		return ok && n != "" && strings.Trim(n, "0123456789") == ""
	}
	if len(parts) < 3 || !closure(parts[len(parts)-1]) {
		return fn
	}
	last := -1 // the last element that is not a closure's
	for i, p := range parts {
		if !closure(p) {
			last = i
		}
	}
	if last < 1 || closure(parts[last]) || strings.HasPrefix(parts[last], "Benchmark") || parts[0] == "init" || strings.Trim(parts[last], "0123456789") == "" {
		return fn // m.init.0.func1: the second init function's literal
	}
	start := last
	if strings.HasPrefix(parts[last-1], "(") {
		start = last - 1 // a method: (*T).M
	}
	if start == 0 {
		return fn
	}
	return pkg + strings.Join(parts[start:], ".")
}

// splitFunc splits a function name at the dots outside parentheses:
// "(*T).M.func1" → "(*T)", "M", "func1".
func splitFunc(s string) []string {
	var parts []string
	depth, from := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case '.':
			if depth == 0 {
				parts, from = append(parts, s[from:i]), i+1
			}
		}
	}
	return append(parts, s[from:])
}
