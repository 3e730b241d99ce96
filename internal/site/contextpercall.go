package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ContextPerCall finds a call of an interface method that passes a
// struct of many words by value when most of the package's
// implementations of the method ignore it: gobwas/glob's matchers walk
// their tree with Match(x matchContext, s string), an 8-word context
// copied into every call, and 11 of its 15 Match methods (the leaves:
// Match(_ matchContext, s string)) never read it. Every step down the
// tree copies the context, and with a slice receiver and the string it
// is more arguments than the register ABI passes in registers, so part
// of each call goes through memory. Both fixes measured by hand: calling
// the leaves without the context (−26 to −45% of Match's CPU), or a
// context small enough for the registers (−14%). A pointer to it would
// not do: passed to an interface method, the pointed-to context escapes
// to the heap at every call.
var ContextPerCall = &analysis.Analyzer{
	Name: "contextpercall",
	Doc:  "a large struct passed by value to an interface method most implementations ignore",
	Run:  runContextPerCall,
}

// contextWordsMin is the size, in words, from which a struct passed by
// value is a copy worth a shape: six words fill two thirds of amd64's
// nine integer argument registers.
const contextWordsMin = 6

// argRegisters is the number of integer registers amd64's register ABI
// passes a call's arguments in.
const argRegisters = 9

func runContextPerCall(pass *analysis.Pass) (any, error) {
	if pass.TypesSizes == nil {
		return nil, nil
	}
	decls := declsByFunc(pass)
	type key struct {
		fd *ast.FuncDecl
		m  *types.Func
	}
	seen := map[key]bool{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return
			}
			s := pass.TypesInfo.Selections[sel]
			if s == nil || s.Kind() != types.MethodVal || !types.IsInterface(s.Recv()) {
				return
			}
			m, _ := s.Obj().(*types.Func)
			if m == nil || m.Pkg() != pass.Pkg || seen[key{fd, m}] {
				return
			}
			sig := m.Type().(*types.Signature)
			for i := range sig.Params().Len() {
				p := sig.Params().At(i)
				st, ok := p.Type().Underlying().(*types.Struct)
				if !ok || st.NumFields() == 0 || i >= len(call.Args) {
					continue
				}
				words := int(pass.TypesSizes.Sizeof(p.Type()) / pass.TypesSizes.Sizeof(types.Typ[types.Uintptr]))
				if words < contextWordsMin {
					continue
				}
				impls, ignore, recvWords, widest := implementations(pass, decls, s.Recv(), m, i)
				if len(impls) < 3 || 2*len(ignore) < len(impls) {
					continue
				}
				seen[key{fd, m}] = true
				reportContext(pass, fd, call, sel, m, p, i, words, impls, ignore, recvWords, widest)
				return
			}
		})
	})
	return nil, nil
}

// implementations returns the package's types that implement iface with
// their method m, those whose m ignores its parameter i (named _, or
// never read), and the widest receiver among them: its size in words
// and its type's name.
func implementations(pass *analysis.Pass, decls map[*types.Func]*ast.FuncDecl, iface types.Type, m *types.Func, i int) (impls, ignore []string, recvWords int, widest string) {
	it, _ := iface.Underlying().(*types.Interface)
	if it == nil {
		return
	}
	word := pass.TypesSizes.Sizeof(types.Typ[types.Uintptr])
	scope := pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		t := tn.Type()
		if !types.Implements(t, it) {
			if !types.Implements(types.NewPointer(t), it) {
				continue
			}
		}
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), false, pass.Pkg, m.Name())
		fn, _ := obj.(*types.Func)
		fd := decls[fn]
		if fd == nil {
			continue
		}
		impls = append(impls, name)
		recv := fn.Type().(*types.Signature).Recv().Type()
		if w := int(pass.TypesSizes.Sizeof(recv) / word); w > recvWords {
			recvWords, widest = w, name
		}
		if !paramRead(pass, fd, i) {
			ignore = append(ignore, name)
		}
	}
	return
}

// paramRead reports whether fd's parameter i has a name its body reads.
func paramRead(pass *analysis.Pass, fd *ast.FuncDecl, i int) bool {
	p := paramAt(pass, fd, i)
	return p != nil && p.Name() != "_" && usesVar(pass, fd.Body, p)
}

func reportContext(pass *analysis.Pass, fd *ast.FuncDecl, call *ast.CallExpr, sel *ast.SelectorExpr, m *types.Func, p *types.Var, i, words int, impls, ignore []string, recvWords int, widest string) {
	word := pass.TypesSizes.Sizeof(types.Typ[types.Uintptr])
	sig := m.Type().(*types.Signature)
	total := recvWords
	for k := range sig.Params().Len() {
		total += int((pass.TypesSizes.Sizeof(sig.Params().At(k).Type()) + word - 1) / word)
	}
	typ := types.TypeString(p.Type(), types.RelativeTo(pass.Pkg))
	slices.Sort(ignore)
	names := strings.Join(ignore[:min(3, len(ignore))], ", ")
	if len(ignore) > 3 {
		names += ", …"
	}
	regs := ""
	if total > argRegisters {
		regs = fmt.Sprintf("; with %s's receiver (%d words) and the other arguments, a call's arguments take %d words, more than the %d integer registers amd64's register ABI passes them in: part of every call goes through memory", widest, recvWords, total, argRegisters)
	}
	// Where the context passed is made, a copy too (child :=
	// x.next(n) before ms[i].Match(child, …)).
	var related []analysis.RelatedInformation
	if v := identVar(pass, call.Args[i]); v != nil && v.Pos() > fd.Body.Pos() && v.Pos() < call.Pos() {
		related = append(related, analysis.RelatedInformation{Pos: v.Pos(), Message: "the context made for the call"})
	}
	pass.Report(analysis.Diagnostic{
		Category: "context-per-call",
		Pos:      call.Pos(),
		Related:  related,
		Message: fmt.Sprintf("%s passes %s, a %s of %d words, by value to %s, an interface method %d of whose %d implementations ignore it (%s): every call copies it, a leaf's too%s",
			oneLine(types.ExprString(call)), oneLine(types.ExprString(call.Args[i])), typ, words, sel.Sel.Name, len(ignore), len(impls), names, regs),
		SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
			"call the implementations that ignore it without it (a method of their own, or the concrete type's call where the child is one of them, known when the tree is built), and shrink %s to what the others need (a field another one gives: an offset from a length) until a call's arguments fit in the registers; not a pointer to it: passed to an interface method, the %s it points to would escape to the heap at every call", typ, typ)}},
	})
}
