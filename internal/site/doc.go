// Package site reads the code at the lines a profile says are hot, so
// that what the report says there is true of that code. It loads a
// module's packages once (go/packages, with the run's build tags, tests
// included) and runs matchers over them: go/analysis analyzers that
// recognise shapes of code — an append that grows a slice whose final
// length is known, a constant regexp compiled on every call, the same
// compiled regexp run twice on one input, an RWMutex read lock around a
// cheap read, writes to an unbuffered file in a loop, the same call with
// the same arguments on two lines, a sort.Slice, a method its package
// calls only through an interface (no static call site: no inlining
// advice fits it), a local whose address the function returns (the value
// is its result, whatever the compiler names first), a concrete value
// boxed into a map of interface values the function returns or was given
// (what the map's type asks for), fmt.Sprintf of one verb on an interface
// value, reflect's MethodByName, MapIndex with a key boxed by
// reflect.ValueOf, and Value.Call, locals of one type each moved to the
// heap, a sort.Search whose predicate calls a comparator func value, a map
// copied entry by entry, fmt.Sprintf("%q") of a string, a slice grown by
// append whose elements are handed out by address, a field built with its
// struct but read only under one condition, the work a function does to
// build the value it returns and the functions that hand another's result
// on (what the API hands its caller: the arithmetic of a Sub, the entries
// of a sized map it returns), a call of a math function with constant
// arguments (the compiler does not fold it: math.Log2(10) is computed on
// every call), v.Slice(i, j).Bytes() on a reflect.Value (a slice header
// allocated only to read a byte array's bytes), v.Interface().(T) on a
// reflect.Value (a copy boxed only to be asserted back), whether a call's
// inputs can recur (constants, values its loop does not change) or are
// what the function was given (its work on its inputs: nothing to
// cache), what each loop iterates over and does per iteration (the words
// for a function's own code where its time goes), a string(b) passed to
// a function whose error messages keep its parameter (the copy escapes on
// every call) or that keeps it for good (the copy is its input: a []byte
// variant avoids it), v.Interface().(I) boxing a value only to ask whether
// its type implements I, a loop over reflect's MapKeys that looks each
// value up again, reflect's FieldByName per call, m[string(b)] = v (the
// map keeps the copy), fmt.Errorf on a function's error path, a function
// whose whole body calls a method through an interface, an interpreter's
// dispatch loop, a loop that is a binary search of a table or a
// byte-at-a-time search for one byte, a defer the compiler does not
// open-code (its rule, checked against -gcflags=-d=defer), a loop that
// runs each candidate's regexp on the same input in turn, a method that
// returns a heap copy of its whole receiver, a sync.Map looked up with a
// key built for the lookup, a slice sorted whole to read its middle or an
// end, early returns on common inputs before a function's real work (the
// fast paths a split keeps inlinable), a map operation on what a function
// is given with the key it is given (its own work), a lookup in a fixed
// package-level table keyed by small integer constants (an array's job),
// a returned slice regrown by append from nothing on every call, a new
// value made by a call on every iteration of a loop and dropped when the
// iteration ends, a value an update computes and stores in a field only
// other functions read, encoding/json encoding or decoding a map of
// interface values, a slice made with a large constant capacity and
// given a copy of any length, and perfloop fix's rewrites
// (internal/rewrite's Analyzers). A match is a
// document.Shape:
// the matcher's name, the line and the other lines it spans, what the
// code does there in words, the advice that fits it, and whether perfloop
// fix has a rewrite for it.
//
// This package is opinionated: a matcher reports a shape only where its
// preconditions can be read from the code (the same receiver, the same
// argument text, a loop that writes, a read lock held over no call), and
// says nothing otherwise; the findings that use a shape (internal/findings)
// fall back to the words of the cost's category, marked generic, when
// none matched. The shapes are evidence in the document like the profiles
// and the compiler's verdicts: findings reads the document, never the
// code.
//
// The matchers are plain analyzers, so the same values run under
// analysistest (their testdata is their specification) and could run
// under go vet.
package site
