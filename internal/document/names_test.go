package document

import "testing"

func TestFuncNames(t *testing.T) {
	tests := []struct {
		fn        string
		plain     string
		short     string
		pkg, rest string
	}{
		{"runtime.mallocgc", "runtime.mallocgc", "runtime.mallocgc", "runtime", "mallocgc"},
		{"main.main", "main.main", "main.main", "main", "main"},
		{"example.com/m/codec.Encode", "example.com/m/codec.Encode", "codec.Encode", "example.com/m/codec", "Encode"},
		// Methods.
		{"example.com/m/codec.(*W).Write", "example.com/m/codec.(*W).Write", "codec.(*W).Write", "example.com/m/codec", "(*W).Write"},
		{"strings.Builder.String", "strings.Builder.String", "strings.Builder.String", "strings", "Builder.String"},
		// Closures.
		{"example.com/m.F.func1", "example.com/m.F.func1", "m.F.func1", "example.com/m", "F.func1"},
		{"example.com/m.(*T).M.func2.1", "example.com/m.(*T).M.func2.1", "m.(*T).M.func2.1", "example.com/m", "(*T).M.func2.1"},
		// Generics, as profiles write them and with the type arguments
		// spelled out (dots and slashes inside the brackets).
		{"pkg.F[...]", "pkg.F", "pkg.F[...]", "pkg", "F[...]"},
		{"pkg.(*T[...]).M", "pkg.(*T).M", "pkg.(*T[...]).M", "pkg", "(*T[...]).M"},
		{"example.com/m.Map[go.shape.int]", "example.com/m.Map", "m.Map[go.shape.int]", "example.com/m", "Map[go.shape.int]"},
		{"example.com/m.F[example.com/x.T].func1", "example.com/m.F.func1", "m.F[example.com/x.T].func1", "example.com/m", "F[example.com/x.T].func1"},
		{"example.com/m.(*Tree[example.com/x/y.K,go.shape.int]).Get", "example.com/m.(*Tree).Get", "m.(*Tree[example.com/x/y.K,go.shape.int]).Get", "example.com/m", "(*Tree[example.com/x/y.K,go.shape.int]).Get"},
		{"example.com/m.Set[...].Add", "example.com/m.Set.Add", "m.Set[...].Add", "example.com/m", "Set[...].Add"},
		// Import paths with dots in their last element.
		{"gopkg.in/yaml.v3.(*T).M", "gopkg.in/yaml.v3.(*T).M", "yaml.v3.(*T).M", "gopkg.in/yaml.v3", "(*T).M"},
		{"gopkg.in/yaml.v3.Marshal", "gopkg.in/yaml.v3.Marshal", "yaml.v3.Marshal", "gopkg.in/yaml.v3", "Marshal"},
		{"gopkg.in/yaml.v3.(*decoder[...]).unmarshal.func1", "gopkg.in/yaml.v3.(*decoder).unmarshal.func1", "yaml.v3.(*decoder[...]).unmarshal.func1", "gopkg.in/yaml.v3", "(*decoder[...]).unmarshal.func1"},
		{"github.com/x/y.v2.Decode", "github.com/x/y.v2.Decode", "y.v2.Decode", "github.com/x/y.v2", "Decode"},
		// The linker's escaped form of such a path.
		{"gopkg.in/yaml%2ev3.Marshal", "gopkg.in/yaml%2ev3.Marshal", "yaml%2ev3.Marshal", "gopkg.in/yaml%2ev3", "Marshal"},
		// A dotted host with no package path below it is still a path.
		{"example.com/m.value", "example.com/m.value", "m.value", "example.com/m", "value"},
		// No package.
		{"main", "main", "main", "", "main"},
		{"", "", "", "", ""},
	}
	for _, tt := range tests {
		if got := PlainFunc(tt.fn); got != tt.plain {
			t.Errorf("PlainFunc(%q) = %q, want %q", tt.fn, got, tt.plain)
		}
		if got := ShortFunc(tt.fn); got != tt.short {
			t.Errorf("ShortFunc(%q) = %q, want %q", tt.fn, got, tt.short)
		}
		pkg, rest := SplitFunc(tt.fn)
		if pkg != tt.pkg || rest != tt.rest {
			t.Errorf("SplitFunc(%q) = %q, %q; want %q, %q", tt.fn, pkg, rest, tt.pkg, tt.rest)
		}
		if got := FuncPackage(tt.fn); got != tt.pkg {
			t.Errorf("FuncPackage(%q) = %q, want %q", tt.fn, got, tt.pkg)
		}
	}
}

func TestSourceFunc(t *testing.T) {
	for in, want := range map[string]string{
		"github.com/labstack/echo/v4/middleware.BenchmarkDecompress.BenchmarkDecompress.Decompress.DecompressWithConfig.func2.func3": "github.com/labstack/echo/v4/middleware.DecompressWithConfig.func2.func3",
		"m.BenchmarkX.(*T).Handler.func1":           "m.(*T).Handler.func1",
		"m.Serve.(*T).Handler.func1":                "m.(*T).Handler.func1",
		"gopkg.in/yaml.v3.Serve.(*T).Handler.func1": "gopkg.in/yaml.v3.(*T).Handler.func1",
		"m.BenchmarkX.func1":                        "m.BenchmarkX.func1",
		"m.BenchmarkX.func1.func2":                  "m.BenchmarkX.func1.func2",
		"m.Parse.func1":                             "m.Parse.func1",
		"m.(*T).Parse.func1":                        "m.(*T).Parse.func1",
		"m.Parse":                                   "m.Parse",
		"example.com/m.init.0.func1":                "example.com/m.init.0.func1",
		"example.com/a/b.Outer.Inner":               "example.com/a/b.Outer.Inner",
		"":                                          "",
	} {
		if got := SourceFunc(in); got != want {
			t.Errorf("SourceFunc(%q) = %q, want %q", in, got, want)
		}
	}
}
