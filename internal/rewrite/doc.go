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
//     %s of a string and %d of an integer of a basic type (%v of either,
//     which fmt prints the same; never of a float, whose shortest form fmt
//     and strconv write differently), `fmt.Fprintf` and `fmt.Fprint` of
//     the same into a bytes.Buffer or strings.Builder (`&buf`, or a
//     pointer to one) in a statement of its own → one WriteString per
//     part (those writes never fail, so the count and error Fprintf
//     returns carry nothing; a file or an io.Writer is left alone), and
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
//   - grow: a bytes.Buffer or strings.Builder written in a loop whose
//     writes have a lower bound known before it → `buf.Grow(n)` just
//     before the loop. The loop ranges over a slice, array or map (n is
//     len(xs) × the bytes every iteration writes for sure: WriteByte and
//     WriteRune count 1, WriteString of a constant its length, a string
//     of unknown length 0), or `for i := 0; i < len(x); i++` with i and x
//     written nowhere else, or ranges over a string with its rune (n is
//     len(s) when every iteration writes the rune, or a constant of at
//     least one byte in a case of `switch r` whose values are ASCII). An
//     if or switch counts the least of its branches (nothing without an
//     else or default), and nothing after a statement that may end the
//     iteration (continue, break, return, panic) counts: Grow never asks
//     for more than the loop writes. The body may mention the buffer only
//     as the receiver of its writes and Len (a Reset, a Bytes kept past
//     the iteration, a buffer passed on are refused), with no function
//     literal, go or defer; the buffer is a local, a parameter's or the
//     receiver's field (never a package variable), and a pointer only
//     when the function made it (`new`, `&T{}`, bytes.NewBuffer) or it is
//     the receiver's field: Grow on a nil pointer panics even when the
//     loop runs no iteration. A range over an integer (which may be
//     negative) and a function that already calls Grow on it are left
//     alone.
//
//   - sortfunc: `sort.Slice(s, func(i, j int) bool { return s[i].K <
//     s[j].K })` (or >, or tie-breaks `if s[i].A != s[j].A { return
//     s[i].A < s[j].A }` before the last return) → `slices.SortFunc(s,
//     func(a, b T) int { return cmp.Compare(a.K, b.K) })` (cmp.Or of the
//     keys, Go 1.22 and later), SliceStable → SortStableFunc. Both sort
//     with one pdqsort, so the order is the same, of equal elements too;
//     the rewrite saves the swapper reflection makes and the closure's
//     indexing. s is an identifier or field of an unnamed slice type; i
//     and j appear only as s[i] and s[j]; each key is a chain of fields of
//     an integer or string type (floats are refused: cmp.Compare orders
//     NaN, < does not); the element is at most 32 bytes (SortFunc's
//     comparison takes both by value). `s[i] < s[j]` itself is left to
//     modernize's slicessort (slices.Sort).
//
//   - regexp-once: `if re.MatchString(s) { …; m :=
//     re.FindStringSubmatch(s); … }` → `if m := re.FindStringSubmatch(s);
//     m != nil { …; … }`, and `if !re.MatchString(s) { … }` followed in
//     the same block by `m := re.Find…(s)` → the Find before the if and
//     `if m == nil`. The Find is one whose nil result means no match
//     (FindStringSubmatch, FindStringSubmatchIndex, FindStringIndex,
//     FindAllString… with a constant n other than 0, and the []byte
//     forms after Match); FindString is refused, since "" is also an
//     empty match. The regexp is the same expression (an identifier or
//     fields), the input the same local or parameter, never address-taken
//     nor assigned in a function literal; nothing between the two calls
//     assigns either, writes the input's bytes, or — when the regexp is a
//     field or the input a []byte — calls anything. The moved declaration
//     must hide no other identifier of its name. This is the mechanical
//     case of site's regexptwice; regexpacross (two functions) is left to
//     the report.
//
//   - outside-lock: in a critical section (`mu.Lock()` or `mu.RLock()` of
//     a sync.Mutex or RWMutex, to `mu.Unlock()` in the same block or the
//     block's end after `defer mu.Unlock()`), `v := e` or `var v = e`
//     where e calls something and reads only the function's own values →
//     the statement just before the Lock. e may combine constants,
//     literals, operators, indexing, slicing, len, cap, conversions to
//     basic types and []byte, and calls of standard functions that
//     compute from their arguments alone (sha256.Sum256, strconv.Itoa,
//     strings.ToLower, …); its variables are locals or parameters (never
//     the receiver, a field or a package variable) declared before the
//     Lock, of a basic type, or parameters of a slice or array of one (a
//     local slice may hold the locked state's bytes), that no function
//     literal mentions and whose address is never taken. Nothing between
//     the Lock and the statement may end the section early (return,
//     break, continue, panic: the value would then be computed on a path
//     that never did), assign those variables or write their elements,
//     or name something else as the moved declaration does.
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
