// Package rewrite makes the mechanical source rewrites that `perfloop
// fix` tries at the lines a profile says are hot. Each kind is a
// go/analysis analyzer (Analyzers) over the types of the build the
// caller loaded: a diagnostic at the site, with the rewrite as a
// suggested fix whose edits are each change where it is made. Apply
// makes a fix's changes in a file, imports what the new code names and
// drops what it no longer uses, and gofmts it; Merge puts the changes of
// several fixes of one file together, so that they apply as one.
//
// This package is opinionated: it proposes a rewrite only when the
// preconditions that make it equivalent can be read from the code, and
// otherwise proposes nothing. The engine builds, vets, tests and measures
// every candidate, but tests rarely notice a buffer shared between
// iterations or a nil slice become empty, so the checks here are the
// guard against a faster program that is wrong. What each rule accepts,
// and why no more:
//
//   - presize: a slice or map that is empty when a range loop starts and
//     gains exactly one element per iteration (`t = append(t, e)` or
//     `t[k] = v`, in a statement of its own): a local declared `var out
//     []T`, `out := []T{}`, `make([]T, 0)`, `map[K]V{}` or `make(map[K]V)`
//     anywhere before the loop (an outer block too), a named result, or a
//     slice field of a local struct made without it (`x := &T{A: a}`,
//     `var x T`), whose other fields alone are touched before the loop.
//     The range is over an identifier or field (a slice, array, map,
//     string or integer) or over a call, which moves into a local just
//     before the loop (the range evaluates it once either way). The body
//     mentions the target nowhere else; no break, continue or goto
//     precedes the append; a return anywhere in the body must discard the
//     target (`return nil, err`), never hand out the partly built value
//     (`return out, err`, a bare return of a named result). No outer loop
//     or function literal between the declaration and the loop runs it
//     again. → `make([]T, 0, len(xs))` (or `make(map[K]V, len(xs))`) at
//     the declaration when it is just before the loop, or assigned just
//     before the loop. Where nil and empty differ — the slice starts nil
//     and is returned, stored, compared, passed or captured — the room is
//     made only `if len(xs) > 0`, so the result stays nil when nothing is
//     added. Also `m := make(map[K]V)` then `maps.Copy(m, src)` →
//     `make(map[K]V, len(src))`. Ranges over channels and functions have
//     no length to take; a conditional append would allocate for elements
//     never added.
//
//   - builder: a string (a local, parameter or named result, not a
//     field) extended in a for or range loop whose only mentions of it are
//     `s += x` or `s = s + x` statements (x of type string, s not in it),
//     never in a function literal nor by its address anywhere in the
//     function, with no labeled branch or goto leaving the loop and no bare
//     return of it as a named result inside it, and read after the loop
//     (or a named result) → `var sb strings.Builder` before the loop
//     (with `sb.WriteString(s)` first when s may hold something),
//     `sb.WriteString(x)` per operand, `s = sb.String()` after it (`s :=`
//     when s was declared empty just before). Of nested loops, the
//     outermost that extends s is rewritten. A loop that reads s (its
//     length, a comparison) would see the builder's contents only through
//     String, which copies: such loops are left alone. Named string types
//     are left alone (WriteString would need a conversion).
//
//   - strconv: `fmt.Sprintf` with a constant format of literal text, %%,
//     %s of a string and %d of an integer of a basic type, and
//     `fmt.Sprint` of one such value → concatenation with strconv.Itoa,
//     FormatInt or FormatUint; fmt's import is removed when no longer
//     used. Named types are refused because fmt calls their Format,
//     String or Error method; %v, flags, widths and precisions because
//     their output is not a plain conversion.
//
//   - hoist-const: `regexp.MustCompile(c)` (and MustCompilePOSIX) and
//     `template.Must(template.New(c).Parse(c))` (text/template or
//     html/template) inside a function, with constant arguments that name
//     nothing local to the function → a package-level `var fnRe = …`
//     (`fnTmpl`, a name no identifier of the package uses). The result
//     must be used only as the receiver of methods that do not change it
//     (any method of a Regexp but Longest; Execute and ExecuteTemplate of
//     a template), directly or through a local variable. The pattern and
//     the template are compiled here first: one that fails would panic at
//     start-up instead of at the call.
//
//   - hoist-alloc: `buf := make([]T, n)` or `make([]T, 0, n)` at the top
//     level of a loop body, n a constant or a local variable declared
//     before the loop that the loop never assigns (no address taken, no
//     function literal mentions it) → made once before the loop, with
//     `clear(buf)` (Go 1.21 modules and later) or `buf = buf[:0]` where
//     the make was, so every iteration still starts from zeroes or an
//     empty slice. The buffer must not outlive its iteration: every use
//     indexes it (not &buf[i]), ranges over it, takes len or cap, copies,
//     converts it to a string, passes it (or a slice of it) to a function
//     known not to keep it (io.ReadFull, the Read and Write methods of
//     io.Reader and io.Writer, whose contracts forbid retaining p, bytes
//     comparisons and searches, utf8, hex, encoding/binary's byte orders,
//     crypto/rand.Read), or, for the empty form, appends to it and assigns
//     back (append, strconv.Append*). Anything else (stored, returned,
//     appended to another slice, sent, captured by a function literal,
//     passed to go or defer or to an unknown function) keeps the
//     allocation, since one shared buffer would then alias the values of
//     every iteration. The name must be the only one of its spelling in
//     the function, so the hoisted declaration shadows nothing.
//
//   - field (review only): `var hdr [N]T` in a method with a pointer
//     receiver of a struct type declared in the same file, whose slice
//     (hdr[:]) is passed to a method of an interface value (w.Write): the
//     compiler cannot see through the dynamic call and moves hdr to the
//     heap on every call → a field `hdrBuf [N]T` in the struct, zeroed
//     where hdr was declared (`r.hdrBuf = [N]T{}`), and every use of hdr
//     written r.hdrBuf. Marked Review: it changes a type, and a method
//     called concurrently or re-entrantly on one receiver would share the
//     buffer, which nothing in one function can rule out. Function
//     literals that mention hdr, value receivers and generic types are
//     left alone.
//
//   - bufio: a loop that writes to os.Stdout as statements of their own
//     (fmt.Print, Printf, Println; fmt.Fprint, Fprintf, Fprintln with
//     os.Stdout; os.Stdout.Write, WriteString), each write one system
//     call → `stdout := bufio.NewWriter(os.Stdout)` before the loop, the
//     writes through it, and `stdout.Flush()` after the loop and before
//     every return and os.Exit (log.Fatal*) inside it, so every byte is
//     out, in order, wherever the function leaves the loop. The same for
//     a loop's writes to a local *os.File the function creates (every
//     assignment to it from os.Create or os.OpenFile, its address never
//     taken: never a parameter or a variable that may hold os.Stdout or
//     os.Stderr), `fBuf := bufio.NewWriter(f)`, when the loop uses the
//     file for nothing else but in a return (`return f.Close()`, after
//     the Flush). Refused when
//     a write's result is used (its error would come from a Flush, later),
//     when the loop also writes to os.Stderr (fmt.Fprint*(os.Stderr),
//     log's printing, print, println: the two streams would interleave
//     differently), hands os.Stdout to anything else, runs os/exec or
//     defer, calls a function of the package that writes to stdout or
//     exits, leaves by a path that cannot be flushed (panic, log.Panic*,
//     goto, a labeled break or continue out of it, a return or os.Exit
//     that is not a statement of its own), when a function literal in it
//     touches stdout, or when the function starts a goroutine. A write
//     to stdout by another package's function called in the loop cannot
//     be seen here: perfloop fix -run keeps the rewrite only when the
//     program's stdout and exit status are byte-identical on every run.
//
// Types come from the pass (go/packages, with the run's build tags); a
// rule that needs a type it cannot see proposes nothing there. The rules
// of every kind run once per package, so that the names two rewrites of
// one package introduce never collide and their fixes go together.
package rewrite
