package site

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/perfloop/perfloop/internal/document"
)

// testShapes are the shapes whose site is a benchmark's own code: every
// other shape in a _test.go file is left out.
var testShapes = map[string]bool{"result-kept": true, "b-loop": true, "timeout-set": true, "exec-per-op": true, "baseline-call": true, "api-benchmarked": true, "file-per-op": true, "error-discarded": true, "built-per-op": true}

// Matchers are the shapes this package recognises, then the analyzers
// perfloop fix takes its candidates from (Fixers): every analyzer Shapes
// runs by default.
var Matchers = append([]*analysis.Analyzer{TimeoutSet, RegexpTwice, RegexpAcross, RequestCopy, RLockRead, UnbufferedWrite, SameCall, SortSlice, MapKeyBuilt, FieldsCounted, ReadAll, InterfaceOnly, CalledOnce, ResultKept, MeasureCompared, MapUnsized, TailFromFront, ResetNil, ReturnedAddress, BoxedResult, SprintfAny, MethodByName, MapIndexValue, ReflectCall, MovedPair, SearchFuncValue, MapCopied, SprintfQuote, AppendArena, BuiltUnlessUsed, Result, ConstMath, ReflectSliceBytes, ReflectInterfaceAssert, CallInputs, Loops, ConversionKept, ErrorBuilt, MapKeysIndex, MapKeyConverted, InterfaceDispatch, Defers, RegexpRules, ReceiverCopy, SortSelect, FastPath, ResultAppended, ErrorDropped, MapLookupRepeated, RangeCopy, TypeCacheLookup, MadePerIteration, SmallKeyMap, SliceRegrown, ComputedForReaders, JSONMap, FixedCap, TableFilled, MapEager, WallClock, RWExclusive, EvictReuse, PrintfWrapper, GrowGuessed, PaidWhileOff, LogArgs, MapBound, WriteBatched, MapIndirect, CoAlloc, FirstWriteLog, MapSwept, MapHanded, BoundPerItem, SwitchPerCall, AlternativesTried, ScanOne, RegexpFormat, RegexpTest, JoinParts, BytesOfString, WrappedPerCall, AppendVariant, RangeConverted, MapToCallback, FoldTransformer, RunesInOrder, LatencyMeasured, FormatVaries, LoweredKey, BoxedForAPI, SplitForCut, OutputReturned, AsmLoops, PivotFixed, Carried, CopyUnchanged, CopyChain, CapShort, SortBoxed, TrialRender, ErrorConst, GrowShort, RegistryUnset, WrapperCall, ProbeEscapes, MapRemade, VarBoxed, BuilderResult, ChanQueue, BuiltForBranch, LinkedNode, RangeCopied, ShiftRemove, ReplacedOnHit, ReceiverBuffer, BigRoundTrip, LockPerCall, ChanIterator, ReflectMapRange, MapCloneByHand, SparseTable, ConcatWritten, MapFiltered, SprintfFields, FprintString, BoxedForCall, ReadInBranch, ReflectTemp, StackPush, ErrorPanic, NodeChunks, ChildrenGrown, CowCopy, MapKeysKnown, ChainWalk, SetSizedByInput, CompiledVariant, JSONScalar, ArgsForFuncValue, AddedOneByOne, CopyOverride, EncodedConcat, MapLiteral, DerefCopied, LookupChecked, StringAppended, VariantPerCall, JoinEntry, RescanRest, ReplacerNoMatch, OptionsApplied, StringCompared, ExecPerOp, BufferFromNil, ResultDropped, TextRoundTrip, DictCall, CopyRead, ArrayThroughInterface, BufferMadeFull, ByteScan, BaselineCall, WindowSlid, ReadWhole, IfaceVarLoop, GrownToRequest, GoroutinePerCall, LockSharded, APIType, BenchAPI, SubsliceKept, PartsApart, ArgsFormatted, TickerSelect, WorkerIdle, LockWord, ScratchPerCall, BufferEmpty, CopiedLarge, FormatBoxed, InputCopied, SelectSpin, PoolNew, GrownToPeak, KMPStep, HashLoop, CopyRecopied, CopiedFresh, ComparedCopy, LinearLookup, ReadBuffered, TokenChannel, SizedByCaller, ArgIgnored, ByteAppended, HandedLocal, FlushPerMessage, FilePerOp, ErrDiscarded, SplitWrite, ReadFromSized, AtomicBoxed, BoxedField, IOBufferPerCall, SliceRemade, BuiltPerOp, WideKey, LimitPerCall, SnapshotCopy, CopyToCaller, TextCopied, ContextPerCall, TableFallback, InlineOverflow, UpperLowered, SetupOnly, ScratchShort, MadeTogether, TypeCompared, BufferPerCall, PowerRecomputed, KeysSorted, Generated, PoolPutBoxed, PeekSkipped, LinknameCall}, Fixers...)

// Shapes runs the analyzers (Matchers when nil) over the program's
// packages and returns the shapes they report in the module's non-test
// files, once each (a file is in a package and in its test variant), in
// file and line order. Only where keep says so when keep is not nil:
// the report keeps the shapes of its hot functions.
func (p *Program) Shapes(analyzers []*analysis.Analyzer, keep func(s document.Shape) bool) ([]document.Shape, error) {
	if analyzers == nil {
		analyzers = Matchers
	}
	guardAll(analyzers) // those Matchers does not hold
	g, err := checker.Analyze(analyzers, p.Packages, &checker.Options{Sequential: true})
	if err != nil {
		return nil, fmt.Errorf("match shapes: %w", err)
	}
	seen := map[string]bool{}
	var out []document.Shape
	for act := range g.All() {
		if !act.IsRoot || act.Err != nil {
			continue
		}
		for _, d := range act.Diagnostics {
			pos := act.Package.Fset.Position(d.Pos)
			if strings.HasSuffix(pos.Filename, "_test.go") && !testShapes[d.Category] {
				continue
			}
			name, own := strings.CutSuffix(cmp.Or(d.Category, act.Analyzer.Name), ownWork)
			s := document.Shape{
				Name:     name,
				OwnWork:  own,
				File:     p.Rel(pos.Filename),
				Line:     int64(pos.Line),
				Function: funcName(act.Package, d.Pos),
				Says:     d.Message,
			}
			if strings.HasSuffix(pos.Filename, ".s") {
				if src, err := os.ReadFile(pos.Filename); err == nil {
					s.Function = asmFunc(src, pos.Line, act.Package.PkgPath)
				}
			}
			for _, r := range d.Related {
				rp := act.Package.Fset.Position(r.Pos)
				fn := funcName(act.Package, r.Pos)
				if fn == "" && r.Message == allocatingCallee {
					fn = p.funcNameAt(r.Pos)
				}
				s.Related = append(s.Related, document.Location{File: p.Rel(rp.Filename), Line: int64(rp.Line), Function: fn, Note: r.Message})
				if v, ok := strings.CutPrefix(r.Message, TimeoutNote); ok {
					if d, err := time.ParseDuration(v); err == nil {
						s.Seconds = d.Seconds()
					}
				}
			}
			if len(d.SuggestedFixes) > 0 {
				s.Advice = d.SuggestedFixes[0].Message
				if kind := RewriteOf(act.Analyzer); kind != "" && len(d.SuggestedFixes[0].TextEdits) > 0 {
					s.Rewrite = kind
					if strings.EqualFold(s.Advice, s.Says) {
						// An analyzer of another project whose fix says
						// what its diagnostic says: the edit itself says
						// what changes at this line.
						if edit := editText(act.Package.Fset, pos.Filename, d.SuggestedFixes[0].TextEdits); edit != "" {
							s.Advice = edit
						}
					}
				}
			}
			k := fmt.Sprintf("%s:%d %s %s", s.File, s.Line, s.Name, s.Says)
			if seen[k] || keep != nil && !keep(s) {
				continue
			}
			seen[k] = true
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b document.Shape) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Says, b.Says))
	})
	return out, nil
}

var recovering sync.Map // *analysis.Analyzer → true once its Run recovers

func init() { guardAll(Matchers) }

// guardAll makes each analyzer (and those it requires) turn a panic in
// its Run into its error: a matcher that trips on code it did not expect
// loses its own shapes, never the report. The checker skips the actions
// that depend on a failed one.
func guardAll(as []*analysis.Analyzer) {
	for _, a := range as {
		if _, done := recovering.LoadOrStore(a, true); done {
			continue
		}
		run, name := a.Run, a.Name
		a.Run = func(pass *analysis.Pass) (res any, err error) {
			defer func() {
				if r := recover(); r != nil {
					res, err = nil, fmt.Errorf("analyzer %s panicked on %s: %v", name, pass.Pkg.Path(), r)
				}
			}()
			return run(pass)
		}
		guardAll(a.Requires)
	}
}

// ownWork ends the category of a diagnostic whose line is its function's
// own work on what it is given, with no change to name: Shapes drops it
// from the shape's name and sets document.Shape.OwnWork.
const ownWork = "/own-work"

// ownWorkWords end the advice of such a diagnostic.
const ownWorkWords = "fewer or cheaper calls is a change to the algorithm"

// funcName names the function declaration around pos as profiles name
// functions: "example.com/m.F", "example.com/m.(*T).M", "example.com/m.T.M".
func funcName(pkg *packages.Package, pos token.Pos) string {
	for _, f := range pkg.Syntax {
		if pos < f.Pos() || pos > f.End() {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || pos < fd.Pos() || pos > fd.End() {
				continue
			}
			path := strings.TrimSuffix(pkg.PkgPath, "_test")
			if pkg.Types != nil {
				path = pkg.Types.Path()
			}
			if fd.Recv == nil || len(fd.Recv.List) == 0 {
				return path + "." + fd.Name.Name
			}
			return path + "." + recvName(fd.Recv.List[0].Type) + "." + fd.Name.Name
		}
	}
	return ""
}

// funcNameAt names the function declared at pos in any package of the
// program, the packages it imports included: a callee in another package
// of the module.
func (p *Program) funcNameAt(pos token.Pos) string {
	name := ""
	packages.Visit(p.Packages, func(pkg *packages.Package) bool {
		if name == "" {
			name = funcName(pkg, pos)
		}
		return name == ""
	}, nil)
	return name
}

// recvName writes a receiver type as profiles do: "(*T)" or "T", type
// parameters as "[...]".
func recvName(t ast.Expr) string {
	star := false
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = true, s.X
	}
	generic := false
	switch x := t.(type) {
	case *ast.IndexExpr:
		t, generic = x.X, true
	case *ast.IndexListExpr:
		t, generic = x.X, true
	}
	name := types.ExprString(t)
	if generic {
		name += "[...]"
	}
	if star {
		return "(*" + name + ")"
	}
	return name
}

// editText renders the edits a fix makes in one file as "old → new", the
// code before and after, on one line each; "" when the edits span more
// than a few lines or the file cannot be read. Edits outside the first
// edit's lines (an import added) are left out.
func editText(fset *token.FileSet, filename string, edits []analysis.TextEdit) string {
	src, err := os.ReadFile(filename)
	if err != nil || len(edits) == 0 {
		return ""
	}
	first := fset.Position(edits[0].Pos)
	var in []analysis.TextEdit
	for _, e := range edits {
		p := fset.Position(e.Pos)
		if p.Filename == filename && p.Line >= first.Line-1 && p.Line <= first.Line+2 {
			in = append(in, e)
		}
	}
	slices.SortFunc(in, func(a, b analysis.TextEdit) int { return cmp.Compare(a.Pos, b.Pos) })
	lo, hi := fset.Position(in[0].Pos).Offset, fset.Position(in[len(in)-1].End).Offset
	if lo < 0 || hi > len(src) || lo > hi || hi-lo > 240 {
		return ""
	}
	var b strings.Builder
	at := lo
	for _, e := range in {
		s, end := fset.Position(e.Pos).Offset, fset.Position(e.End).Offset
		if s < at {
			return "" // overlapping edits
		}
		b.Write(src[at:s])
		b.Write(e.NewText)
		at = end
	}
	b.Write(src[at:hi])
	before, after := oneLine(string(src[lo:hi])), oneLine(b.String())
	if before == after {
		return ""
	}
	return fmt.Sprintf("%s → %s", before, after)
}
