package site_test

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/site"
)

// TestMatchers runs each matcher on its testdata package: the want
// comments are its specification (the shapes it must report, with what
// it says there) and the code without one its traps.
func TestMatchers(t *testing.T) {
	for pkg, a := range map[string]*analysis.Analyzer{
		"regexptwice":            site.RegexpTwice,
		"rlockread":              site.RLockRead,
		"unbufferedwrite":        site.UnbufferedWrite,
		"samecall":               site.SameCall,
		"sortslice":              site.SortSlice,
		"mapkeybuilt":            site.MapKeyBuilt,
		"fieldscounted":          site.FieldsCounted,
		"readall":                site.ReadAll,
		"regexpacross":           site.RegexpAcross,
		"requestcopy":            site.RequestCopy,
		"interfaceonly":          site.InterfaceOnly,
		"calledonce":             site.CalledOnce,
		"resultkept":             site.ResultKept,
		"measurecompared":        site.MeasureCompared,
		"mapunsized":             site.MapUnsized,
		"builtforbranch":         site.BuiltForBranch,
		"linkednode":             site.LinkedNode,
		"rangecopied":            site.RangeCopied,
		"shiftremove":            site.ShiftRemove,
		"replacedonhit":          site.ReplacedOnHit,
		"receiverbuffer":         site.ReceiverBuffer,
		"lockpercall":            site.LockPerCall,
		"chaniterator":           site.ChanIterator,
		"reflectmaprange":        site.ReflectMapRange,
		"mapclonebyhand":         site.MapCloneByHand,
		"sparsetable":            site.SparseTable,
		"bigroundtrip":           site.BigRoundTrip,
		"tailfromfront":          site.TailFromFront,
		"resetnil":               site.ResetNil,
		"returnedaddress":        site.ReturnedAddress,
		"boxedresult":            site.BoxedResult,
		"sprintfany":             site.SprintfAny,
		"methodbyname":           site.MethodByName,
		"mapindexvalue":          site.MapIndexValue,
		"reflectcall":            site.ReflectCall,
		"movedpair":              site.MovedPair,
		"searchfuncvalue":        site.SearchFuncValue,
		"mapcopied":              site.MapCopied,
		"sprintfquote":           site.SprintfQuote,
		"appendarena":            site.AppendArena,
		"builtunlessused":        site.BuiltUnlessUsed,
		"result":                 site.Result,
		"constmath":              site.ConstMath,
		"callinputs":             site.CallInputs,
		"loops":                  site.Loops,
		"asmloops":               site.AsmLoops,
		"pivotfixed":             site.PivotFixed,
		"carried":                site.Carried,
		"copyunchanged":          site.CopyUnchanged,
		"copychain":              site.CopyChain,
		"capshort":               site.CapShort,
		"sortboxed":              site.SortBoxed,
		"errorconst":             site.ErrorConst,
		"growshort":              site.GrowShort,
		"registryunset":          site.RegistryUnset,
		"trialrender":            site.TrialRender,
		"loopsearch":             site.Loops,
		"defers":                 site.Defers,
		"regexprules":            site.RegexpRules,
		"receivercopy":           site.ReceiverCopy,
		"sortselect":             site.SortSelect,
		"resultappended":         site.ResultAppended,
		"errordropped":           site.ErrorDropped,
		"maplookuprepeated":      site.MapLookupRepeated,
		"rangecopy":              site.RangeCopy,
		"typecachelookup":        site.TypeCacheLookup,
		"madeperiteration":       site.MadePerIteration,
		"smallkeymap":            site.SmallKeyMap,
		"sliceregrown":           site.SliceRegrown,
		"computedforreaders":     site.ComputedForReaders,
		"regexprulesother":       site.RegexpRules,
		"jsonmap":                site.JSONMap,
		"fixedcap":               site.FixedCap,
		"tablefilled":            site.TableFilled,
		"mapeager":               site.MapEager,
		"wallclock":              site.WallClock,
		"rwexclusive":            site.RWExclusive,
		"lockshard":              site.LockSharded,
		"apitype":                site.APIType,
		"benchapi":               site.BenchAPI,
		"subslicekept":           site.SubsliceKept,
		"partsapart":             site.PartsApart,
		"convapi":                site.ConversionKept,
		"argsformatted":          site.ArgsFormatted,
		"tickerselect":           site.TickerSelect,
		"workeridle":             site.WorkerIdle,
		"lockword":               site.LockWord,
		"scratchpercall":         site.ScratchPerCall,
		"bufferempty":            site.BufferEmpty,
		"copiedlarge":            site.CopiedLarge,
		"formatboxed":            site.FormatBoxed,
		"inputcopied":            site.InputCopied,
		"selectspin":             site.SelectSpin,
		"kmpstep":                site.KMPStep,
		"hashloop":               site.HashLoop,
		"linearlookup":           site.LinearLookup,
		"readbuffered":           site.ReadBuffered,
		"tokenchannel":           site.TokenChannel,
		"sizedbycaller":          site.SizedByCaller,
		"argignored":             site.ArgIgnored,
		"byteappended":           site.ByteAppended,
		"handedlocal":            site.HandedLocal,
		"flushpermessage":        site.FlushPerMessage,
		"fileperop":              site.FilePerOp,
		"errdiscarded":           site.ErrDiscarded,
		"splitwrite":             site.SplitWrite,
		"readfromsized":          site.ReadFromSized,
		"atomicboxed":            site.AtomicBoxed,
		"boxedfield":             site.BoxedField,
		"iobuffer":               site.IOBufferPerCall,
		"sliceremade":            site.SliceRemade,
		"builtperop":             site.BuiltPerOp,
		"widekey":                site.WideKey,
		"limitpercall":           site.LimitPerCall,
		"snapshotcopy":           site.SnapshotCopy,
		"copytocaller":           site.CopyToCaller,
		"copyrecopied":           site.CopyRecopied,
		"copiedfresh":            site.CopiedFresh,
		"comparedcopy":           site.ComparedCopy,
		"poolnew":                site.PoolNew,
		"poolnew2":               site.PoolNew,
		"growntopeak":            site.GrownToPeak,
		"evictreuse":             site.EvictReuse,
		"printfwrapper":          site.PrintfWrapper,
		"growguessed":            site.GrowGuessed,
		"paidwhileoff":           site.PaidWhileOff,
		"logargs":                site.LogArgs,
		"mapbound":               site.MapBound,
		"writebatched":           site.WriteBatched,
		"mapindirect":            site.MapIndirect,
		"coalloc":                site.CoAlloc,
		"firstwritelog":          site.FirstWriteLog,
		"mapswept":               site.MapSwept,
		"maphanded":              site.MapHanded,
		"boundperitem":           site.BoundPerItem,
		"switchpercall":          site.SwitchPerCall,
		"alternativestried":      site.AlternativesTried,
		"scanone":                site.ScanOne,
		"regexpformat":           site.RegexpFormat,
		"regexptest":             site.RegexpTest,
		"joinparts":              site.JoinParts,
		"concatwritten":          site.ConcatWritten,
		"mapfiltered":            site.MapFiltered,
		"sprintffields":          site.SprintfFields,
		"fprintstring":           site.FprintString,
		"boxedforcall":           site.BoxedForCall,
		"readinbranch":           site.ReadInBranch,
		"reflecttemp":            site.ReflectTemp,
		"stackpush":              site.StackPush,
		"errorpanic":             site.ErrorPanic,
		"nodechunks":             site.NodeChunks,
		"childrengrown":          site.ChildrenGrown,
		"cowcopy":                site.CowCopy,
		"copyoverride":           site.CopyOverride,
		"encodedconcat":          site.EncodedConcat,
		"mapliteral":             site.MapLiteral,
		"derefcopied":            site.DerefCopied,
		"optionsapplied":         site.OptionsApplied,
		"stringcompared":         site.StringCompared,
		"execperop":              site.ExecPerOp,
		"bufferfromnil":          site.BufferFromNil,
		"resultdropped":          site.ResultDropped,
		"textroundtrip":          site.TextRoundTrip,
		"dictcall":               site.DictCall,
		"copyread":               site.CopyRead,
		"arrayiface":             site.ArrayThroughInterface,
		"buffermadefull":         site.BufferMadeFull,
		"bytescan":               site.ByteScan,
		"baselinecall":           site.BaselineCall,
		"windowslid":             site.WindowSlid,
		"readwhole":              site.ReadWhole,
		"ifacevarloop":           site.IfaceVarLoop,
		"grownrequest":           site.GrownToRequest,
		"goroutinepercall":       site.GoroutinePerCall,
		"lookupchecked":          site.LookupChecked,
		"stringappended":         site.StringAppended,
		"variantpercall":         site.VariantPerCall,
		"joinentry":              site.JoinEntry,
		"rescanrest":             site.RescanRest,
		"replacernomatch":        site.ReplacerNoMatch,
		"timeoutset":             site.TimeoutSet,
		"mapkeysknown":           site.MapKeysKnown,
		"chainwalk":              site.ChainWalk,
		"setsized":               site.SetSizedByInput,
		"compiledvariant":        site.CompiledVariant,
		"jsonscalar":             site.JSONScalar,
		"argsfuncvalue":          site.ArgsForFuncValue,
		"addedonebyone":          site.AddedOneByOne,
		"bytesofstring":          site.BytesOfString,
		"wrappedpercall":         site.WrappedPerCall,
		"appendvariant":          site.AppendVariant,
		"rangeconverted":         site.RangeConverted,
		"maptocallback":          site.MapToCallback,
		"foldtransformer":        site.FoldTransformer,
		"runesinorder":           site.RunesInOrder,
		"textcopied":             site.TextCopied,
		"contextpercall":         site.ContextPerCall,
		"tablefallback":          site.TableFallback,
		"inlineoverflow":         site.InlineOverflow,
		"upperlowered":           site.UpperLowered,
		"madetogether":           site.MadeTogether,
		"generated":              site.Generated,
		"keyssorted":             site.KeysSorted,
		"poolputboxed":           site.PoolPutBoxed,
		"peekskipped":            site.PeekSkipped,
		"linknamecall":           site.LinknameCall,
		"powerrecomputed":        site.PowerRecomputed,
		"bufferpercall":          site.BufferPerCall,
		"typecompared":           site.TypeCompared,
		"latencymeasured":        site.LatencyMeasured,
		"formatvaries":           site.FormatVaries,
		"loweredkey":             site.LoweredKey,
		"boxedforapi":            site.BoxedForAPI,
		"splitforcut":            site.SplitForCut,
		"outputreturned":         site.OutputReturned,
		"wrappercall":            site.WrapperCall,
		"probeescapes":           site.ProbeEscapes,
		"mapremade":              site.MapRemade,
		"varboxed":               site.VarBoxed,
		"builderresult":          site.BuilderResult,
		"chanqueue":              site.ChanQueue,
		"chanqueuego":            site.ChanQueue,
		"fastpath":               site.FastPath,
		"conversionkept":         site.ConversionKept,
		"errorbuilt":             site.ErrorBuilt,
		"mapkeysindex":           site.MapKeysIndex,
		"mapkeyconverted":        site.MapKeyConverted,
		"interfacedispatch":      site.InterfaceDispatch,
		"reflectslicebytes":      site.ReflectSliceBytes,
		"reflectinterfaceassert": site.ReflectInterfaceAssert,
	} {
		t.Run(pkg, func(t *testing.T) { analysistest.Run(t, analysistest.TestData(), a, pkg) })
	}
}

// TestCopyAdvice: what the copy and quote matchers advise follows the
// code: the buffer a quoted string is written to takes AppendQuote, a
// string result strconv.Quote; a copied map is read directly and copied
// on its first write.
func TestCopyAdvice(t *testing.T) {
	advice := func(a *analysis.Analyzer, pkg string) []string {
		dir := analysistest.TestData()
		if _, err := os.Stat(filepath.Join(dir, pkg, "go.mod")); err == nil {
			// A module of its own (its go.mod's Go version).
			dir, pkg = filepath.Join(dir, pkg), "."
		}
		var out []string
		for _, r := range analysistest.Run(t, dir, a, pkg) {
			// In the order of the files' names and lines: the order a
			// matcher reports in across files follows their load.
			slices.SortStableFunc(r.Diagnostics, func(x, y analysis.Diagnostic) int {
				px, py := r.Pass.Fset.Position(x.Pos), r.Pass.Fset.Position(y.Pos)
				return cmp.Or(cmp.Compare(px.Filename, py.Filename), cmp.Compare(px.Offset, py.Offset))
			})
			for _, d := range r.Diagnostics {
				if len(d.SuggestedFixes) == 0 {
					out = append(out, "") // it only describes
					continue
				}
				out = append(out, d.SuggestedFixes[0].Message)
			}
		}
		return out
	}
	for _, tc := range []struct {
		a    *analysis.Analyzer
		pkg  string
		want []string
	}{
		{site.SprintfQuote, "sprintfquote", []string{"b.Write(strconv.AppendQuote(b.AvailableBuffer(), s))", "strconv.Quote(s)"}},
		{site.SprintfQuote, "sprintfquoteold", []string{"b.Write(strconv.AppendQuote(scratch[:0], s))"}},
		{site.BuiltUnlessUsed, "builtunlessused", []string{"build it only when r.Flags&Smartypants != 0 (here, or lazily at its first read)"}},
		{site.AppendArena, "appendarena", []string{"fixed-size chunks that never move ([][]Value"}},
		{site.MapCopied, "mapcopied", []string{"read e.Data directly, and copy it lazily, on the first write", "read src directly", "read e.Data directly", "read e.Data directly"}},
		{site.TableFilled, "tablefilled", []string{"fill it once in a package variable per set of options that selects entries", "fill it once in a package variable and keep a pointer"}},
		{site.MapEager, "mapeager", []string{"make blockParams lazily, at its first write under the condition", "make exprFunc lazily, at its first write (if x.exprFunc == nil"}},
		{site.PrintfWrapper, "printfwrapper", []string{"a method beside writef that writes a string to enc.w", "beside outf", `enc.w.WriteString(enc.indent); enc.w.WriteString(k); enc.w.WriteString(" = ")`, `enc.w.WriteString(string(p)); enc.w.WriteString("\n")`, `io.WriteString(enc.out, "["); io.WriteString(enc.out, k); io.WriteString(enc.out, "]")`, "beside logf", `io.WriteString(logw, s); io.WriteString(logw, ": done")`}},
		{site.GrowGuessed, "growguessed", []string{"size it exactly from the elements: n := len(k) - 1", "for _, e := range parts { n += len(e) }"}},
		{site.PaidWhileOff, "paidwhileoff", []string{"when c.ttl == noEvictionTTL (the setting off: no TTL, expiry disabled), skip the clock read", "skip the clock read"}},
		{site.LogArgs, "logargs", []string{"test the *Logger's level before its debug calls on hot paths (if debug output is on { … })", "test the *Logger's level"}},
		{site.MapBound, "mapbound", []string{"make it with no size hint, or a small one (min(size, 64))", "min(maxEntries, 64)"}},
		{site.MapIndirect, "mapindirect", []string{"Cell is 208 bytes, stored out of line in any map: a slice indexed by the key ([]Cell)"}},
		{site.PartsApart, "partsapart", []string{"allocate them with the Match: carve matchcount and matches[c] out of one []int made with it, and hold the ones made later (on first use) for the common small sizes in array fields of Match's struct: one allocation for the common case instead of 5", "allocate them with the Match: carve matchcount and matches[c] out of one []int made with it, and hold the ones made later (on first use) for the common small sizes in array fields of Match's struct: one allocation for the common case instead of 5", "allocate them with the Match: carve matchcount and matches[c] out of one []int made with it, and hold the ones made later (on first use) for the common small sizes in array fields of Match's struct: one allocation for the common case instead of 5", "allocate them with the Match: carve matchcount and matches[c] out of one []int made with it, and hold the ones made later (on first use) for the common small sizes in array fields of Match's struct: one allocation for the common case instead of 5", "allocate them with the Match: carve matchcount and matches[c] out of one []int made with it, and hold the ones made later (on first use) for the common small sizes in array fields of Match's struct: one allocation for the common case instead of 5", "allocate them with the Queue: carve array and header out of one []byte made with it: one allocation for the common case instead of 3", "allocate them with the Queue: carve array and header out of one []byte made with it: one allocation for the common case instead of 3", "allocate them with the Queue: carve array and header out of one []byte made with it: one allocation for the common case instead of 3", "array fields of Stream's struct (controlHdr [12]byte, sendHdr [12]byte)", "array fields of Stream's struct", "array fields of Stream's struct"}},
		{site.TickerSelect, "tickerselect", []string{"the interval it was given", "the timeout it was given", "take a timer from timerPool, the package's own pool of timers", "the timeout it was given", "take a timer from timerPool"}},
		{site.CoAlloc, "coalloc", []string{"allocate them as one: w := &struct{ a Tx; b writeContext }{…}; tx = &w.a; tx.wc = &w.b", "hold the bound in the visitor itself (a field of type bound) and point closestBound at that field once the visitor is made: one allocation"}},
		{site.FirstWriteLog, "firstwritelog", []string{"keep an append-only log instead (a []struct{ key; value } in place of rollback) and replay it in reverse"}},
		{site.FormatVaries, "formatvaries", []string{"strconv.AppendFloat(buf[:0], val, 'f', digits, 64); b = append(b, ' ', suffix...)", "strconv.AppendFloat(buf[:0], val, 'f', the precision it chooses, 64)"}},
		{site.SplitForCut, "splitforcut", []string{"strings.Cut(strconv.FormatFloat(v, 'f', -1, 64), \".\") gives the two sides with no slice of parts (after is parts[1] when the separator appears at most once); and the number is formatted only to be taken apart: strconv.AppendFloat into a stack array"}},
		{site.ScanOne, "scanone", []string{"parse it directly: val.SetString(num) ((*big.Rat).SetString)", "strconv.ParseFloat(s, 64)"}},
		{site.ReadAll, "readall", []string{"stream the input through one fixed buffer", "Decode (line 22) already has its input in memory and wraps it in a strings.Reader for NewDecoder, which io.ReadAll copies back here: parse the string directly there"}},
		{site.MapSwept, "mapswept", []string{"link the entries into a list in place of entries: two pointers in Entry", "two pointers in node"}},
		{site.ProbeEscapes, "probeescapes", []string{"reuse probes from a sync.Pool"}},
		{site.MapRemade, "mapremade", []string{"clear(t.last) and fill it again", "at line 35, clear the map and keep it for the next use instead of dropping it (clear(c.Keys)"}},
		{site.EvictReuse, "evictreuse", []string{"reuse the evicted entry for the new key", "reuse the evicted entry for the new key", "reuse the evicted entry for the new key"}},
		{site.RWExclusive, "rwexclusive", []string{"make lock a sync.Mutex", "make lock a sync.Mutex", "make mu a sync.Mutex"}},
		{site.LockPerCall, "lockpercallshard", []string{"lockedMap is one of the shards shardedMap.shards holds, split by key already", "where goroutines on several cores share one cache, split its state by key (shards)"}},
		{site.Result, "resultmemo", []string{"keep pow10's results for the inputs that recur", "computed from what it is given: its own work, with no result to keep"}},
		{site.Loops, "loopsearch", []string{"about 3 probes, each a load the next one waits for", "about log2 n probes", "strings.IndexByte(s, ':')", "bytes.IndexByte(b, '\\n')", "", "", `bytes.IndexAny(s[i:], "\"&<>")`, "", ""}},
		{site.CallInputs, "oninputsloop", []string{"One's own work on its inputs, once per call", "Each's own work on its inputs, once per iteration of the loop at lines 13–15"}},
	} {
		got := advice(tc.a, tc.pkg)
		if len(got) != len(tc.want) {
			t.Fatalf("%s: advice %q, want %d", tc.pkg, got, len(tc.want))
		}
		for i, w := range tc.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: advice %q, want it to say %q", tc.pkg, got[i], w)
			}
		}
	}
}

// TestDefersAgreeWithCompiler: the defers the Defers matcher reports are
// the ones the compiler does not open-code, by its own verdict (go build
// -gcflags=-d=defer prints "open-coded defer", "stack-allocated defer" or
// "heap-allocated defer" at each), on the matcher's testdata.
func TestDefersAgreeWithCompiler(t *testing.T) {
	src := filepath.Join(analysistest.TestData(), "src", "defers", "defers.go")
	dir := t.TempDir()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "defers.go"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module defers\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-gcflags=-d=defer", "-o", os.DevNull, ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-d=defer: %v\n%s", err, out)
	}
	compiler := map[int]bool{} // line → not open-coded
	re := regexp.MustCompile(`defers\.go:(\d+):\d+: (open-coded|stack-allocated|heap-allocated) defer`)
	for _, m := range re.FindAllStringSubmatch(string(out), -1) {
		line, _ := strconv.Atoi(m[1])
		compiler[line] = m[2] != "open-coded"
	}
	if len(compiler) == 0 {
		t.Fatalf("no verdict in the compiler's output:\n%s", out)
	}
	matcher := map[int]bool{} // the defer's line (the shape's related line)
	for _, r := range analysistest.Run(t, analysistest.TestData(), site.Defers, "defers") {
		for _, d := range r.Diagnostics {
			matcher[r.Pass.Fset.Position(d.Related[0].Pos).Line] = true
		}
	}
	for line, not := range compiler {
		if not != matcher[line] {
			t.Errorf("line %d: compiler says not open-coded %v, matcher reports %v", line, not, matcher[line])
		}
	}
	for line := range matcher {
		if _, ok := compiler[line]; !ok {
			t.Errorf("line %d: the matcher reports a defer the compiler does not list", line)
		}
	}
}

// TestSliceRegrownExportedAdvice: an exported method's regrown result
// belongs to its caller, so the advice is an Append variant, never a
// slice kept in the receiver; an unexported method may keep one.
func TestSliceRegrownExportedAdvice(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), site.SliceRegrown, "sliceregrown")
	seen := false
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if !strings.HasPrefix(d.Message, "FindAll returns matches") || len(d.SuggestedFixes) == 0 {
				continue
			}
			seen = true
			advice := d.SuggestedFixes[0].Message
			if !strings.Contains(advice, "AppendFindAll(dst, …)") || strings.Contains(advice, "keep it in a") {
				t.Errorf("FindAll's advice: %q, want an Append variant and no slice kept in the receiver", advice)
			}
		}
	}
	if !seen {
		t.Fatal("no diagnostic for FindAll")
	}
}

// errorsOnly records what analysistest says is wrong, but for the
// diagnostics it did not expect: TestMatchersOnOddCode wants no error.
type errorsOnly struct{ errs []string }

func (e *errorsOnly) Errorf(format string, args ...any) {
	if msg := fmt.Sprintf(format, args...); !strings.Contains(msg, "unexpected diagnostic") {
		e.errs = append(e.errs, msg)
	}
}

// TestMatchersOnOddCode runs every matcher on code it may not expect
// (generics whose sizes are unknown, fields of interface type, blank
// assignments, named pointer types): whatever each reports, none may fail
// or panic, which would lose all its shapes of the package in a report.
func TestMatchersOnOddCode(t *testing.T) {
	// One analyzer that requires them all: the package is loaded once,
	// and a matcher's failure is the whole's.
	all := &analysis.Analyzer{Name: "all", Doc: "every matcher", Requires: site.Matchers,
		Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	rec := &errorsOnly{}
	for _, r := range analysistest.Run(rec, analysistest.TestData(), all, "oddcode") {
		if r.Err != nil {
			rec.errs = append(rec.errs, r.Err.Error())
		}
	}
	for _, e := range rec.errs {
		t.Error(e)
	}
}

// TestBoxedFieldAdvice: a field whose boxed stores are mostly of one
// type is told to get a field of that type; a variant of several, fields
// of their own for each.
func TestBoxedFieldAdvice(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), site.BoxedField, "boxedfield")
	want := map[string]string{
		"nud stores t.value": "give ASTNode a field of type string for these values, beside value for the others",
		"newInt stores i":    "give variant fields of their own for its string, int64 and float64 values (a kind tells which is set), and keep v for the pointer-shaped ones",
		"index stores n":     "give ASTNode a field of type int for these values",
	}
	seen := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for prefix, advice := range want {
				if !strings.HasPrefix(d.Message, prefix) {
					continue
				}
				seen++
				if len(d.SuggestedFixes) == 0 || !strings.Contains(d.SuggestedFixes[0].Message, advice) {
					t.Errorf("%s: advice %v, want %q", prefix, d.SuggestedFixes, advice)
				}
			}
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d diagnostics seen", seen, len(want))
	}
}

// TestNodeChunksSingleNodeCalls: the node-chunks shape marks a call of the
// constructor that makes one node per call of a function nothing calls
// many times (newDoc, wrapping one geometry), and not one in a function a
// recursive-descent parser calls (leaf) nor one in a loop (list, value).
func TestNodeChunksSingleNodeCalls(t *testing.T) {
	var single []string
	for _, r := range analysistest.Run(t, analysistest.TestData(), site.NodeChunks, "nodesingle") {
		for _, d := range r.Diagnostics {
			for _, rel := range d.Related {
				if rel.Message == document.SingleNodeNote {
					single = append(single, fmt.Sprint(r.Pass.Fset.Position(rel.Pos).Line))
				}
			}
		}
	}
	if got := strings.Join(single, ","); got != "22" {
		t.Errorf("calls marked one node per call at lines %q, want 22 (newDoc's)", got)
	}
}
