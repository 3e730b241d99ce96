package loop

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
)

// section is a critical section in the source: the lines from a Lock or
// RLock call to the Unlock that ends it (or the end of the function, for
// a deferred Unlock).
type section struct {
	// Op is "Lock" or "RLock"; Recv the locked expression as written
	// ("r.mu").
	Op, Recv string
	// Lock is the line of the Lock call, End the last line held: the
	// Unlock call's line, or the function's closing brace.
	Lock, End int64
	// Unlock is the Unlock call's line, 0 for a deferred Unlock.
	Unlock int64
}

// held reports whether line is inside the section, strictly between the
// Lock and the Unlock (or the closing brace a deferred Unlock runs at).
func (s section) held(line int64) bool {
	return line > s.Lock && line < s.End
}

// lockSections finds the critical sections of a Go file: in every function
// and function literal, each X.Lock() or X.RLock() statement paired with
// the first X.Unlock() or X.RUnlock() after it, or a deferred one. Locks
// whose Unlock is not in the same function are left out.
func lockSections(path string) []section {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out []section
	line := func(p token.Pos) int64 { return int64(fset.Position(p).Line) }
	var visit func(body *ast.BlockStmt)
	visit = func(body *ast.BlockStmt) {
		type call struct {
			recv, name string
			pos        token.Pos
			deferred   bool
		}
		var calls []call
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				if n.Body != body {
					visit(n.Body)
					return false
				}
			case *ast.DeferStmt:
				if recv, name, ok := lockCall(n.Call); ok {
					calls = append(calls, call{recv, name, n.Pos(), true})
				}
				return false
			case *ast.CallExpr:
				if recv, name, ok := lockCall(n); ok {
					calls = append(calls, call{recv, name, n.Pos(), false})
				}
			}
			return true
		})
		for i, c := range calls {
			if c.deferred || (c.name != "Lock" && c.name != "RLock") {
				continue
			}
			unlock := "Unlock"
			if c.name == "RLock" {
				unlock = "RUnlock"
			}
			s := section{Op: c.name, Recv: c.recv, Lock: line(c.pos)}
			for _, u := range calls[i+1:] {
				if u.recv != c.recv || u.name != unlock {
					continue
				}
				if u.deferred {
					s.End = line(body.Rbrace)
				} else {
					s.End, s.Unlock = line(u.pos), line(u.pos)
				}
				break
			}
			if s.End == 0 {
				// A deferred Unlock may come before its Lock in
				// the source order only in odd code; look again.
				for _, u := range calls[:i] {
					if u.deferred && u.recv == c.recv && u.name == unlock {
						s.End = line(body.Rbrace)
					}
				}
			}
			if s.End > s.Lock {
				out = append(out, s)
			}
		}
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			visit(fd.Body)
		}
	}
	slices.SortFunc(out, func(a, b section) int { return int(a.Lock - b.Lock) })
	return out
}

// lockCall reports a call X.Lock(), X.RLock(), X.Unlock() or X.RUnlock()
// with the receiver's text.
func lockCall(c *ast.CallExpr) (recv, name string, ok bool) {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || len(c.Args) != 0 {
		return "", "", false
	}
	switch sel.Sel.Name {
	case "Lock", "RLock", "Unlock", "RUnlock":
	default:
		return "", "", false
	}
	var b strings.Builder
	if !exprText(&b, sel.X) {
		return "", "", false
	}
	return b.String(), sel.Sel.Name, true
}

// exprText writes a selector chain ("r.mu", "s.shards[i].mu") and reports
// whether the expression was one.
func exprText(b *strings.Builder, e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		b.WriteString(e.Name)
		return true
	case *ast.SelectorExpr:
		if !exprText(b, e.X) {
			return false
		}
		b.WriteString("." + e.Sel.Name)
		return true
	case *ast.IndexExpr:
		if !exprText(b, e.X) {
			return false
		}
		b.WriteString("[")
		ok := exprText(b, e.Index)
		b.WriteString("]")
		return ok
	case *ast.ParenExpr:
		return exprText(b, e.X)
	case *ast.StarExpr:
		return exprText(b, e.X)
	case *ast.BasicLit:
		b.WriteString(e.Value)
		return true
	}
	return false
}

// sectionIndex caches each file's critical sections.
type sectionIndex struct {
	root  string
	files map[string][]section
}

func newSectionIndex(root string) *sectionIndex {
	return &sectionIndex{root: root, files: map[string][]section{}}
}

// of returns the sections of file (relative to the module root).
func (x *sectionIndex) of(file string) []section {
	if x == nil || x.root == "" || file == "" || filepath.IsAbs(file) || !strings.HasSuffix(file, ".go") {
		return nil
	}
	s, ok := x.files[file]
	if !ok {
		s = lockSections(filepath.Join(x.root, filepath.FromSlash(file)))
		x.files[file] = s
	}
	return s
}

// at returns the section whose Lock call is on line, or whose Unlock is
// (a mutex profile names the Unlock; a deferred one runs at the closing
// brace).
func (x *sectionIndex) at(file string, line int64) (section, bool) {
	for _, s := range x.of(file) {
		if s.Lock == line || (s.Unlock != 0 && s.Unlock == line) || (s.Unlock == 0 && s.End == line) {
			return s, true
		}
	}
	return section{}, false
}
