package escape

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
)

// A construct is an allocating construct the source shows on a line.
type construct struct {
	cause Cause
	expr  string // source text: "make([]byte, n)", "append(out, i)"
	name  string // the variable it is assigned to or acts on, "" if none
}

// sourceFile is one parsed Go file and the constructs on each line.
type sourceFile struct {
	byLine map[int][]construct
	// text holds each line's source.
	text []string
	// results are the functions with named results, by their lines.
	results []namedResults
}

// namedResults are the names of a function's results and the lines its
// body spans.
type namedResults struct {
	start, end int
	names      []string
}

// sourceCache parses files from an fs.FS on demand.
type sourceCache struct {
	fsys   fs.FS
	files  map[string]*sourceFile // nil entry: unreadable or not Go
	consts map[string]map[string]bool
}

// lineText returns the source of a line of a file, or "".
func (c *sourceCache) lineText(file string, line int) string {
	c.constructs(file, line) // parses and caches the file
	sf := c.files[file]
	if sf == nil || line < 1 || line > len(sf.text) {
		return ""
	}
	return sf.text[line-1]
}

// constructs returns the allocating constructs on a line of a file
// (slash-separated, relative to the FS root).
func (c *sourceCache) constructs(file string, line int) []construct {
	if c == nil || c.fsys == nil || file == "" || path.IsAbs(file) || !strings.HasSuffix(file, ".go") {
		return nil
	}
	sf, ok := c.files[file]
	if !ok {
		sf = c.parse(file)
		if c.files == nil {
			c.files = make(map[string]*sourceFile)
		}
		c.files[file] = sf
	}
	if sf == nil {
		return nil
	}
	return sf.byLine[line]
}

func (c *sourceCache) parse(file string) *sourceFile {
	src, err := fs.ReadFile(c.fsys, file)
	if err != nil {
		return nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
	if f == nil {
		return nil
	}
	_ = err // a file with syntax errors still yields what parsed
	consts := c.pkgConsts(path.Dir(file))
	localConsts(f, consts)
	sf := analyze(fset, f, src, consts)
	if sf != nil {
		sf.text = strings.Split(string(src), "\n")
	}
	return sf
}

// pkgConsts returns the names of the package-level constants declared in
// the Go files of a directory.
func (c *sourceCache) pkgConsts(dir string) map[string]bool {
	if m, ok := c.consts[dir]; ok {
		return maps.Clone(m)
	}
	m := map[string]bool{}
	entries, _ := fs.ReadDir(c.fsys, dir)
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		src, err := fs.ReadFile(c.fsys, path.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		f, _ := parser.ParseFile(token.NewFileSet(), e.Name(), src, parser.SkipObjectResolution)
		if f == nil {
			continue
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, s := range g.Specs {
					for _, n := range s.(*ast.ValueSpec).Names {
						m[n.Name] = true
					}
				}
			}
		}
	}
	if c.consts == nil {
		c.consts = make(map[string]map[string]bool)
	}
	c.consts[dir] = m
	return maps.Clone(m)
}

// localConsts adds the file's constants, local ones too, to consts.
func localConsts(f *ast.File, consts map[string]bool) {
	ast.Inspect(f, func(n ast.Node) bool {
		if g, ok := n.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, s := range g.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					consts[n.Name] = true
				}
			}
		}
		return true
	})
}

// analyze finds the allocating constructs of a file by line.
func analyze(fset *token.FileSet, f *ast.File, src []byte, consts map[string]bool) *sourceFile {
	text := func(n ast.Node) string {
		s, e := fset.Position(n.Pos()).Offset, fset.Position(n.End()).Offset
		if s < 0 || e > len(src) || s > e {
			return ""
		}
		return string(src[s:e])
	}
	lineOf := func(n ast.Node) int { return fset.Position(n.Pos()).Line }
	imports := map[string]bool{}
	for _, im := range f.Imports {
		p := strings.Trim(im.Path.Value, `"`)
		name := path.Base(p)
		if im.Name != nil {
			name = im.Name.Name
		}
		imports[name] = true
	}
	mapVars := mapNames(f)
	// assigned maps a right-hand side to the name it is assigned to.
	assigned := map[ast.Expr]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, r := range n.Rhs {
					assigned[r] = text(n.Lhs[i])
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == len(n.Values) {
				for i, r := range n.Values {
					assigned[r] = n.Names[i].Name
				}
			}
		}
		return true
	})
	sf := &sourceFile{byLine: map[int][]construct{}}
	add := func(n ast.Node, c construct) {
		l := lineOf(n)
		sf.byLine[l] = append(sf.byLine[l], c)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			switch fun := ast.Unparen(n.Fun).(type) {
			case *ast.Ident:
				switch {
				case fun.Name == "append" && len(n.Args) > 0:
					add(n, construct{CauseAppend, text(n), text(n.Args[0])})
				case fun.Name == "make" && len(n.Args) > 0:
					switch ast.Unparen(n.Args[0]).(type) {
					case *ast.MapType:
						add(n, construct{CauseMap, text(n), assigned[n]})
					case *ast.ArrayType:
						if len(n.Args) >= 2 && !isConst(n.Args[len(n.Args)-1], consts, imports) {
							add(n, construct{CauseVariableMake, text(n), assigned[n]})
						}
					}
				case fun.Name == "string" && len(n.Args) == 1:
					add(n, construct{CauseConversion, text(n), assigned[n]})
				}
			case *ast.ArrayType:
				if fun.Len == nil && len(n.Args) == 1 && isByteOrRune(fun.Elt) {
					add(n, construct{CauseConversion, text(n), assigned[n]})
				}
			case *ast.SelectorExpr:
				if x, ok := fun.X.(*ast.Ident); ok && x.Name == "fmt" && imports["fmt"] {
					add(n, construct{CauseCallee, text(n), "fmt." + fun.Sel.Name})
				}
			}
		case *ast.BinaryExpr:
			if n.Op == token.ADD && (isStringLit(n.X) || isStringLit(n.Y)) {
				add(n, construct{CauseConcat, text(n), assigned[n]})
				return false // one construct for a chain a + "," + b
			}
		case *ast.AssignStmt:
			if n.Tok == token.ADD_ASSIGN && len(n.Rhs) == 1 && isStringLit(n.Rhs[0]) {
				add(n, construct{CauseConcat, text(n), text(n.Lhs[0])})
			}
			for _, l := range n.Lhs {
				if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok && mapVars[baseName(ix.X)] {
					add(n, construct{CauseMap, text(n), text(ix.X)})
				}
			}
		case *ast.IncDecStmt:
			if ix, ok := ast.Unparen(n.X).(*ast.IndexExpr); ok && mapVars[baseName(ix.X)] {
				add(n, construct{CauseMap, text(n), text(ix.X)})
			}
		case *ast.CompositeLit:
			if _, ok := n.Type.(*ast.MapType); ok {
				add(n, construct{CauseMap, text(n), assigned[n]})
			}
		case *ast.FuncLit:
			add(n, construct{CauseClosure, "func literal", assigned[n]})
		}
		var ft *ast.FuncType
		var body *ast.BlockStmt
		switch n := n.(type) {
		case *ast.FuncDecl:
			ft, body = n.Type, n.Body
		case *ast.FuncLit:
			ft, body = n.Type, n.Body
		}
		if ft != nil && body != nil && ft.Results != nil {
			r := namedResults{start: lineOf(body), end: fset.Position(body.End()).Line}
			for _, f := range ft.Results.List {
				for _, id := range f.Names {
					r.names = append(r.names, id.Name)
				}
			}
			if len(r.names) > 0 {
				sf.results = append(sf.results, r)
			}
		}
		return true
	})
	return sf
}

// namedResult reports whether name is a named result of the innermost
// function whose body holds the line.
func (c *sourceCache) namedResult(file string, line int, name string) bool {
	c.constructs(file, line) // parses and caches the file
	sf := c.files[file]
	if sf == nil {
		return false
	}
	var in *namedResults
	for i := range sf.results {
		r := &sf.results[i]
		if r.start <= line && line <= r.end && (in == nil || r.start >= in.start) {
			in = r
		}
	}
	return in != nil && slices.Contains(in.names, name)
}

// mapNames returns the names the file gives to maps: variables, fields and
// parameters of map type or made from a map.
func mapNames(f *ast.File) map[string]bool {
	m := map[string]bool{}
	isMap := func(e ast.Expr) bool {
		switch e := ast.Unparen(e).(type) {
		case *ast.MapType:
			return true
		case *ast.CompositeLit:
			_, ok := e.Type.(*ast.MapType)
			return ok
		case *ast.CallExpr:
			if id, ok := e.Fun.(*ast.Ident); ok && id.Name == "make" && len(e.Args) > 0 {
				_, ok := ast.Unparen(e.Args[0]).(*ast.MapType)
				return ok
			}
		}
		return false
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			if isMap(n.Type) {
				for _, id := range n.Names {
					m[id.Name] = true
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if n.Type != nil && isMap(n.Type) || i < len(n.Values) && isMap(n.Values[i]) {
					m[id.Name] = true
				}
			}
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, r := range n.Rhs {
					if isMap(r) {
						m[baseName(n.Lhs[i])] = true
					}
				}
			}
		}
		return true
	})
	delete(m, "")
	return m
}

// baseName is the last name of x, x.f or p.x.f.
func baseName(e ast.Expr) string {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.StarExpr:
		return baseName(e.X)
	}
	return ""
}

func isStringLit(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return e.Kind == token.STRING
	case *ast.BinaryExpr:
		return e.Op == token.ADD && (isStringLit(e.X) || isStringLit(e.Y))
	}
	return false
}

func isByteOrRune(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && (id.Name == "byte" || id.Name == "rune" || id.Name == "uint8" || id.Name == "int32")
}

// isConst reports whether a size expression is a constant as far as the
// source shows: literals, known constant names, imported names (pkg.Name,
// which a make size uses for constants), and expressions of those.
func isConst(e ast.Expr, consts, imports map[string]bool) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return consts[e.Name] || e.Name == "iota"
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		return ok && imports[x.Name] && !consts[x.Name]
	case *ast.BinaryExpr:
		return isConst(e.X, consts, imports) && isConst(e.Y, consts, imports)
	case *ast.UnaryExpr:
		return isConst(e.X, consts, imports)
	case *ast.CallExpr:
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "unsafe" {
				return true // unsafe.Sizeof and friends
			}
		}
		if id, ok := e.Fun.(*ast.Ident); ok && (id.Name == "len" || id.Name == "cap") && len(e.Args) == 1 {
			_, lit := ast.Unparen(e.Args[0]).(*ast.BasicLit)
			return lit
		}
	}
	return false
}

// variableMake reports whether an expression as the compiler prints it in
// a diagnostic ("make([]byte, n)", "make([]int, n, m)") is a slice make
// whose size is not a constant: the compiler prints constants folded
// ("make([]byte, 16)"), so any other size is computed at run time.
func variableMake(expr string) bool {
	if !strings.HasPrefix(expr, "make([]") {
		return false
	}
	e, err := parser.ParseExpr(expr)
	if err != nil {
		return false
	}
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) < 2 {
		return false
	}
	return !isConst(call.Args[len(call.Args)-1], nil, nil)
}
