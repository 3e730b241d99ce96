package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// bufWriter finds loops that write to os.Stdout on every iteration
// without a buffer — fmt.Println, fmt.Printf, fmt.Fprintln(os.Stdout, …),
// os.Stdout.Write — or to a local *os.File the function creates (see
// loopFile), each write one system call, and puts a bufio.Writer around
// them: made before the loop, the writes through it, flushed
// after the loop and before every return and os.Exit (log.Fatal) in it,
// so that every byte the loop wrote is out before the function returns
// or the program exits, in the order it was written.
//
// Not when the order, the bytes or the errors could change: a write's
// result is used (an error checked on the write would come from a Flush
// instead, later: the error path would change), the loop also writes to
// os.Stderr (fmt.Fprint*(os.Stderr, …), log.Print*, print), hands
// os.Stdout to anything else (an encoder, a subprocess's Stdout), starts
// a subprocess (os/exec) or a goroutine, calls a function of the package
// that writes to stdout or exits, leaves by a path that cannot be flushed
// (panic, log.Panic, goto, a labeled break or continue to outside the
// loop, a return or os.Exit that is not a statement of its own), or a
// function literal in it writes to stdout.
func (u *unit) bufWriter(fn *ast.FuncDecl) []candidate {
	if hasGoto(fn.Body) || hasGo(fn.Body) {
		return nil
	}
	var out []candidate
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			if c, ok := u.bufLoop(n.(ast.Stmt), nil); ok {
				out = append(out, c)
				return false
			}
			if v := u.loopFile(fn, n); v != nil {
				if c, ok := u.bufLoop(n.(ast.Stmt), v); ok {
					out = append(out, c)
					return false
				}
			}
		}
		return true
	})
	return out
}

// stdoutWrite is a write to os.Stdout the rewrite sends through the
// buffer.
type stdoutWrite struct {
	call *ast.CallExpr
	// print is a fmt.Print, Printf or Println (stdout implied); else
	// target is the os.Stdout expression to replace.
	print  bool
	target ast.Expr
}

// bufLoop is the rewrite of one loop's writes to os.Stdout (file nil) or
// to file, a local *os.File the function creates.
func (u *unit) bufLoop(loop ast.Stmt, file *types.Var) (candidate, bool) {
	stmt := ast.Stmt(loop)
	if l, ok := u.parents[loop].(*ast.LabeledStmt); ok {
		stmt = l
	}
	if !u.inList(stmt) {
		return candidate{}, false
	}
	var writes []stdoutWrite
	var flushBefore []ast.Stmt
	handled := map[ast.Node]bool{} // the file expressions of the writes
	ok := true
	stdout := file == nil
	ast.Inspect(loop, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			// It may run later, or never: it must not touch the file.
			if (stdout && u.touchesStdout(n)) || (!stdout && u.mentions(n, file)) {
				ok = false
			}
			return false
		case *ast.DeferStmt, *ast.GoStmt:
			ok = false
		case *ast.BranchStmt:
			if n.Tok == token.GOTO || (n.Label != nil && u.labelOutside(n.Label, stmt)) {
				ok = false
			}
		case *ast.ReturnStmt:
			if !u.inList(n) {
				ok = false
			}
			flushBefore = append(flushBefore, n)
			if !stdout {
				// What the return does with the file (return
				// f.Close()) comes after the Flush put before it.
				for _, id := range u.idents(n, file) {
					handled[id] = true
				}
			}
		case *ast.SelectorExpr:
			if stdout && u.isStdFile(n, "Stdout") && !handled[n] {
				ok = false // os.Stdout handed to something else
			}
		case *ast.Ident:
			if !stdout && u.info.Uses[n] == file && !handled[n] {
				ok = false // the file handed to something else, or used
			}
		case *ast.CallExpr:
			w, isWrite := u.stdoutWrite(n)
			if !stdout {
				w, isWrite = u.fileWrite(n, file)
			}
			if isWrite {
				if _, stmt := u.parents[n].(*ast.ExprStmt); !stmt {
					// Its error is looked at: buffered, the write
					// would not fail where it fails now, and the
					// error would come from a Flush.
					ok = false
				}
				writes = append(writes, w)
				if w.target != nil {
					handled[ast.Unparen(w.target)] = true
				}
				return true
			}
			switch u.callKind(n, stdout) {
			case "exit":
				es, isStmt := u.parents[n].(*ast.ExprStmt)
				if !isStmt || !u.inList(es) {
					ok = false
				}
				flushBefore = append(flushBefore, es)
			case "bad":
				ok = false
			}
		}
		return true
	})
	if !ok || len(writes) == 0 {
		return candidate{}, false
	}
	bq, ok1 := u.qualifier("bufio")
	oq, ok2 := u.qualifier("os")
	if !ok1 || !ok2 {
		return candidate{}, false
	}
	var name, target, shown string
	imports := []string{"bufio", "os"}
	if stdout {
		name, target, shown = u.fresh("stdout"), oq+".Stdout", "os.Stdout"
	} else {
		name, target, shown = u.fresh(file.Name()+"Buf"), file.Name(), file.Name()
		imports = imports[:1]
	}
	c := candidate{
		kind:    "bufio",
		line:    u.line(writes[0].call.Pos()),
		more:    []int{u.line(loop.Pos())},
		shape:   "unbuffered-write",
		imports: imports,
	}
	c.desc = fmt.Sprintf("bufio: %s := %s.NewWriter(%s) before the loop at line %d, flushed after it", name, bq, target, u.line(loop.Pos()))
	c.says = fmt.Sprintf("the loop writes to %s without a buffer (%s): a write system call each time", shown, u.text(writes[0].call.Fun))
	c.advice = fmt.Sprintf("write through %s := bufio.NewWriter(%s) made before the loop, and %s.Flush() after it and before every return and os.Exit", name, shown, name)
	c.edits = append(c.edits, insertBefore(stmt, fmt.Sprintf("%s := %s.NewWriter(%s)", name, bq, target)))
	for _, w := range writes {
		if l := u.line(w.call.Pos()); l != c.line {
			c.more = append(c.more, l)
		}
		if !w.print {
			c.edits = append(c.edits, replace(w.target, name))
			continue
		}
		sel := ast.Unparen(w.call.Fun).(*ast.SelectorExpr)
		c.edits = append(c.edits, replace(sel.Sel, "F"+strings.ToLower(sel.Sel.Name[:1])+sel.Sel.Name[1:]))
		sep := ", "
		if len(w.call.Args) == 0 {
			sep = ""
		}
		at := w.call.Lparen + 1
		c.edits = append(c.edits, edit{pos: at, end: at, text: name + sep})
	}
	for _, s := range flushBefore {
		c.edits = append(c.edits, insertBefore(s, name+".Flush()"))
		c.more = append(c.more, u.line(s.Pos()))
	}
	c.edits = append(c.edits, insertAfter(stmt, name+".Flush()"))
	return c, true
}

// stdoutWrite reports whether call writes to os.Stdout in a way the
// buffer takes: fmt.Print, Printf, Println, fmt.Fprint, Fprintf,
// Fprintln with os.Stdout, os.Stdout.Write and WriteString.
func (u *unit) stdoutWrite(call *ast.CallExpr) (stdoutWrite, bool) {
	switch path, name := u.pkgFunc(call); {
	case path == "fmt" && (name == "Print" || name == "Printf" || name == "Println"):
		return stdoutWrite{call: call, print: true}, true
	case path == "fmt" && (name == "Fprint" || name == "Fprintf" || name == "Fprintln"):
		if len(call.Args) > 0 && u.isStdFile(call.Args[0], "Stdout") {
			return stdoutWrite{call: call, target: call.Args[0]}, true
		}
		return stdoutWrite{}, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if ok && (sel.Sel.Name == "Write" || sel.Sel.Name == "WriteString") && u.isStdFile(sel.X, "Stdout") {
		return stdoutWrite{call: call, target: sel.X}, true
	}
	return stdoutWrite{}, false
}

// callKind sorts a call the loop makes that is not a write it buffers:
// "exit" for os.Exit and log.Fatal* (flushed before), "bad" for what
// the buffer would reorder or lose — a write to os.Stderr, log's
// printing, print and println, panic, log.Panic*, os/exec, a function of
// the package that touches stdout or exits — and "" for the rest.
func (u *unit) callKind(call *ast.CallExpr, stdout bool) string {
	if u.isBuiltin(call, "panic") || (stdout && (u.isBuiltin(call, "print") || u.isBuiltin(call, "println"))) {
		return "bad"
	}
	path, name := u.pkgFunc(call)
	switch {
	case path == "os" && name == "Exit", path == "log" && strings.HasPrefix(name, "Fatal"):
		return "exit"
	case path == "log" && strings.HasPrefix(name, "Panic"), path == "os/exec":
		return "bad"
	case !stdout:
	case path == "log":
		return "bad"
	case path == "fmt" && strings.HasPrefix(name, "Fprint") && len(call.Args) > 0 && u.isStdFile(call.Args[0], "Stderr"):
		return "bad"
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if stdout && u.isStdFile(sel.X, "Stderr") {
			return "bad"
		}
		if t := u.typeOf(sel.X); t != nil && strings.Contains(t.String(), "os/exec.") {
			return "bad" // a method of exec.Cmd: a subprocess
		}
	}
	if f := u.calledFunc(call); f != nil && f.Pkg() == u.types {
		if d := u.funcDecl(f); d != nil && ((stdout && u.touchesStdout(d)) || u.leavesProgram(d)) {
			return "bad"
		}
	}
	return ""
}

// fileWrite reports whether call writes to the file v in a way the
// buffer takes: fmt.Fprint, Fprintf, Fprintln with v, v.Write and
// v.WriteString.
func (u *unit) fileWrite(call *ast.CallExpr, v *types.Var) (stdoutWrite, bool) {
	if path, name := u.pkgFunc(call); path == "fmt" && (name == "Fprint" || name == "Fprintf" || name == "Fprintln") {
		if len(call.Args) > 0 && u.obj(call.Args[0]) == v {
			return stdoutWrite{call: call, target: call.Args[0]}, true
		}
		return stdoutWrite{}, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if ok && (sel.Sel.Name == "Write" || sel.Sel.Name == "WriteString") && u.obj(sel.X) == v {
		return stdoutWrite{call: call, target: sel.X}, true
	}
	return stdoutWrite{}, false
}

// loopFile is the file a loop writes to when it is one local *os.File
// the function creates (every assignment to it is from os.Create or
// os.OpenFile, its address never taken), nil otherwise: a parameter or
// a variable that may hold os.Stdout or os.Stderr is not one.
func (u *unit) loopFile(fn *ast.FuncDecl, loop ast.Node) *types.Var {
	var file *types.Var
	many := false
	ast.Inspect(loop, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		var x ast.Expr
		if path, name := u.pkgFunc(call); path == "fmt" && strings.HasPrefix(name, "Fprint") && len(call.Args) > 0 {
			x = call.Args[0]
		} else if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && (sel.Sel.Name == "Write" || sel.Sel.Name == "WriteString") {
			x = sel.X
		}
		if v, ok := u.obj(x).(*types.Var); ok && x != nil {
			if file != nil && file != v {
				many = true
			}
			file = v
		}
		return true
	})
	if file == nil || many || !isOSFile(file.Type()) || !u.created(fn, file) {
		return nil
	}
	return file
}

// isOSFile reports whether t is *os.File.
func isOSFile(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && n.Obj().Name() == "File" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "os"
}

// created reports whether v is a local variable of fn that only ever
// holds what os.Create or os.OpenFile return, its address never taken.
func (u *unit) created(fn *ast.FuncDecl, v *types.Var) bool {
	if v.Pos() < fn.Body.Pos() || v.Pos() >= fn.Body.End() {
		return false // a parameter, a package variable
	}
	ok, assigned := true, false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.UnaryExpr:
			if n.Op == token.AND && u.obj(n.X) == v {
				ok = false
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if u.obj(l) != v {
					continue
				}
				assigned = true
				call, isCall := ast.Unparen(n.Rhs[0]).(*ast.CallExpr)
				if len(n.Rhs) != 1 || !isCall {
					ok = false
					continue
				}
				if path, name := u.pkgFunc(call); path != "os" || (name != "Create" && name != "OpenFile") {
					ok = false
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				if u.info.Defs[id] == v && len(n.Values) > 0 {
					ok = false
				}
			}
		}
		return ok
	})
	return ok && assigned
}

// isStdFile reports whether e is os.Stdout (name "Stdout") or os.Stderr.
func (u *unit) isStdFile(e ast.Expr, name string) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	v, ok := u.info.Uses[sel.Sel].(*types.Var)
	return ok && v.Pkg() != nil && v.Pkg().Path() == "os"
}

// touchesStdout reports whether n writes to stdout or mentions os.Stdout.
func (u *unit) touchesStdout(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			found = found || u.isStdFile(n, "Stdout")
		case *ast.CallExpr:
			if _, ok := u.stdoutWrite(n); ok {
				found = true
			}
		}
		return !found
	})
	return found
}

// leavesProgram reports whether n calls os.Exit, log.Fatal* or panic.
func (u *unit) leavesProgram(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			found = found || u.endsProgram(call)
		}
		return !found
	})
	return found
}

// endsProgram reports whether call ends the program or panics.
func (u *unit) endsProgram(call *ast.CallExpr) bool {
	path, name := u.pkgFunc(call)
	return u.isBuiltin(call, "panic") || (path == "os" && name == "Exit") || (path == "log" && (strings.HasPrefix(name, "Fatal") || strings.HasPrefix(name, "Panic")))
}

// calledFunc is the function or method a call calls, nil when it is not
// a declared one (a function value, a builtin, a conversion).
func (u *unit) calledFunc(call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return nil
	}
	fn, _ := u.info.Uses[id].(*types.Func)
	return fn
}

// funcDecl is the declaration of a function of the package, nil when it
// is not in the files read.
func (u *unit) funcDecl(f *types.Func) *ast.FuncDecl {
	for _, file := range u.files {
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && u.info.Defs[fd.Name] == f {
				return fd
			}
		}
	}
	return nil
}

// hasGo reports whether body starts a goroutine.
func hasGo(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		_, ok := n.(*ast.GoStmt)
		found = found || ok
		return !found
	})
	return found
}
