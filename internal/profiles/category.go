package profiles

import "strings"

// The categories of CPU time, named as in the perfloop.report/v1 contract.
const (
	CategoryGC          = "gc"
	CategoryScheduler   = "scheduler"
	CategorySyscall     = "syscall"
	CategoryMemory      = "memory"
	CategoryMaps        = "maps"
	CategoryStrings     = "strings"
	CategoryFmt         = "fmt"
	CategoryReflect     = "reflect"
	CategoryEncoding    = "encoding"
	CategoryCompression = "compression"
	CategoryCrypto      = "crypto"
	CategoryRegexp      = "regexp"
	CategorySort        = "sort"
	CategoryApplication = "application"
	CategoryOther       = "other"
)

// class is what one function says about a sample's category.
type class uint8

const (
	generic class = iota // says nothing: its caller decides
	clsGC
	clsScheduler
	clsSyscall
	clsMemory
	clsMaps
	clsStrings
	clsFmt
	clsReflect
	clsEncoding
	clsCompression
	clsCrypto
	clsRegexp
	clsSort
	clsApplication
	clsOther
	numClasses
)

var classNames = [numClasses]string{
	generic:        CategoryOther,
	clsGC:          CategoryGC,
	clsScheduler:   CategoryScheduler,
	clsSyscall:     CategorySyscall,
	clsMemory:      CategoryMemory,
	clsMaps:        CategoryMaps,
	clsStrings:     CategoryStrings,
	clsFmt:         CategoryFmt,
	clsReflect:     CategoryReflect,
	clsEncoding:    CategoryEncoding,
	clsCompression: CategoryCompression,
	clsCrypto:      CategoryCrypto,
	clsRegexp:      CategoryRegexp,
	clsSort:        CategorySort,
	clsApplication: CategoryApplication,
	clsOther:       CategoryOther,
}

// rule assigns a class to the functions whose names start with prefix.
type rule struct {
	prefix string
	class  class
}

// rules are tried in order; the first matching prefix wins. The module's
// own code is application before any rule is tried. See the package
// documentation for the reasoning.
var rules = []rule{
	// gc: the collector, wherever it runs (its own workers, assists in
	// mallocgc, write barriers, sweeping on allocation).
	{"runtime.gc", clsGC}, {"runtime.(*gc", clsGC}, {"gcWriteBarrier", clsGC}, {"runtime.gcWriteBarrier", clsGC},
	{"runtime.wbBuf", clsGC}, {"runtime.bulkBarrier", clsGC}, {"runtime.markroot", clsGC},
	{"runtime.scanobject", clsGC}, {"runtime.scanblock", clsGC}, {"runtime.scanstack", clsGC},
	{"runtime.scanframeworker", clsGC}, {"runtime.scanConservative", clsGC}, {"runtime.scanSpan", clsGC},
	{"runtime.greyobject", clsGC}, {"runtime.shade", clsGC}, {"runtime.bgsweep", clsGC},
	{"runtime.sweepone", clsGC}, {"runtime.(*sweepLocked)", clsGC}, {"runtime.(*sweepLocker)", clsGC},
	{"runtime.(*activeSweep)", clsGC}, {"runtime.deductSweepCredit", clsGC}, {"runtime.finishsweep_m", clsGC},
	{"runtime.tryDeferToSpanScan", clsGC}, {"runtime.runfinq", clsGC}, {"runtime.GC", clsGC}, {"runtime._GC", clsGC},

	// scheduler: goroutines parking, waking, being preempted and
	// scheduled, and what makes them: channels, select, semaphores, timers.
	{"runtime.schedule", clsScheduler}, {"runtime.findRunnable", clsScheduler}, {"runtime.findrunnable", clsScheduler},
	{"runtime.park_m", clsScheduler}, {"runtime.gosched", clsScheduler}, {"runtime.goschedImpl", clsScheduler},
	{"runtime.gopreempt", clsScheduler}, {"runtime.goexit0", clsScheduler}, {"runtime.goexit1", clsScheduler},
	{"runtime.gopark", clsScheduler}, {"runtime.goready", clsScheduler}, {"runtime.ready", clsScheduler},
	{"runtime.newproc", clsScheduler}, {"runtime.sysmon", clsScheduler}, {"runtime.wakep", clsScheduler},
	{"runtime.startm", clsScheduler}, {"runtime.stopm", clsScheduler}, {"runtime.handoffp", clsScheduler},
	{"runtime.runqgrab", clsScheduler}, {"runtime.runqsteal", clsScheduler}, {"runtime.stealWork", clsScheduler},
	{"runtime.checkTimers", clsScheduler}, {"runtime.(*timers)", clsScheduler}, {"runtime.mPark", clsScheduler},
	{"runtime.notesleep", clsScheduler}, {"runtime.notetsleep", clsScheduler}, {"runtime.notewakeup", clsScheduler},
	{"runtime.stopTheWorld", clsScheduler}, {"runtime.startTheWorld", clsScheduler}, {"runtime.forEachP", clsScheduler},
	{"runtime.preempt", clsScheduler}, {"runtime.retake", clsScheduler}, {"runtime.asyncPreempt", clsScheduler},
	{"runtime.execute", clsScheduler}, {"runtime.gogo", clsScheduler}, {"runtime.acquirep", clsScheduler},
	{"runtime.releasep", clsScheduler}, {"runtime.pidleget", clsScheduler}, {"runtime.pidleput", clsScheduler},
	{"runtime.chansend", clsScheduler}, {"runtime.chanrecv", clsScheduler}, {"runtime.closechan", clsScheduler},
	{"runtime.selectgo", clsScheduler}, {"runtime.selectnb", clsScheduler}, {"runtime.semacquire", clsScheduler},
	{"runtime.semrelease", clsScheduler}, {"runtime.netpoll", clsScheduler}, {"runtime.injectglist", clsScheduler},
	{"runtime.resetspinning", clsScheduler}, {"runtime._System", clsScheduler},

	// memory: the allocator, the page heap and the OS memory behind it.
	{"runtime.mallocgc", clsMemory}, {"runtime.newobject", clsMemory}, {"runtime.newarray", clsMemory},
	{"runtime.makeslice", clsMemory}, {"runtime.growslice", clsMemory}, {"runtime.memclr", clsMemory},
	{"runtime.madvise", clsMemory}, {"runtime.mmap", clsMemory}, {"runtime.munmap", clsMemory},
	{"runtime.sysAlloc", clsMemory}, {"runtime.sysUnused", clsMemory}, {"runtime.sysUsed", clsMemory},
	{"runtime.sysMap", clsMemory}, {"runtime.sysFree", clsMemory}, {"runtime.sysReserve", clsMemory},
	{"runtime.sysHugePage", clsMemory}, {"runtime.sysNoHugePage", clsMemory}, {"runtime.nextFreeFast", clsMemory},
	{"runtime.persistentalloc", clsMemory}, {"runtime.(*mheap)", clsMemory}, {"runtime.(*mcache)", clsMemory},
	{"runtime.(*mcentral)", clsMemory}, {"runtime.(*mspan)", clsMemory}, {"runtime.(*pageAlloc)", clsMemory},
	{"runtime.(*pallocBits)", clsMemory}, {"runtime.(*pallocData)", clsMemory}, {"runtime.(*fixalloc)", clsMemory},
	{"runtime.(*scavenge", clsMemory}, {"runtime.bgscavenge", clsMemory}, {"runtime.heapSetType", clsMemory},
	{"runtime.copystack", clsMemory}, {"runtime.stackalloc", clsMemory}, {"runtime.stackfree", clsMemory},
	{"runtime.stackcache", clsMemory}, {"runtime.(*consistentHeapStats)", clsMemory}, {"runtime.(*linearAlloc)", clsMemory},

	// maps
	{"runtime.map", clsMaps}, {"runtime.makemap", clsMaps}, {"runtime.evacuate", clsMaps},
	{"runtime.growWork", clsMaps}, {"runtime.hashGrow", clsMaps}, {"internal/runtime/maps.", clsMaps}, {"maps.", clsMaps},

	// strings (and bytes, strconv, unicode)
	{"strings.", clsStrings}, {"bytes.", clsStrings}, {"strconv.", clsStrings}, {"internal/strconv.", clsStrings}, {"unicode.", clsStrings},
	{"unicode/", clsStrings}, {"runtime.concatstring", clsStrings}, {"runtime.concatbyte", clsStrings},
	{"runtime.slicebytetostring", clsStrings}, {"runtime.stringtoslice", clsStrings},
	{"runtime.slicerunetostring", clsStrings}, {"runtime.intstring", clsStrings}, {"runtime.rawstring", clsStrings},
	{"runtime.rawbyteslice", clsStrings}, {"runtime.rawruneslice", clsStrings}, {"runtime.cmpstring", clsStrings},
	{"runtime.decoderune", clsStrings}, {"runtime.encoderune", clsStrings}, {"runtime.countrunes", clsStrings},

	// syscall
	{"syscall.", clsSyscall}, {"internal/syscall/", clsSyscall}, {"internal/runtime/syscall", clsSyscall},
	{"runtime/internal/syscall", clsSyscall}, {"golang.org/x/sys/", clsSyscall}, {"internal/poll.", clsSyscall},
	{"runtime.entersyscall", clsSyscall}, {"runtime.exitsyscall", clsSyscall}, {"runtime.reentersyscall", clsSyscall},
	{"runtime._VDSO", clsSyscall},

	{"fmt.", clsFmt},
	{"reflect.", clsReflect}, {"internal/reflectlite.", clsReflect}, {"runtime.reflect", clsReflect},
	{"regexp.", clsRegexp}, {"regexp/", clsRegexp},
	{"github.com/dlclark/regexp2", clsRegexp}, {"github.com/grafana/regexp", clsRegexp}, {"github.com/wasilibs/go-re2", clsRegexp},
	{"sort.", clsSort},

	{"encoding/", clsEncoding}, {"google.golang.org/protobuf/", clsEncoding}, {"github.com/golang/protobuf/", clsEncoding},
	{"gopkg.in/yaml", clsEncoding}, {"go.yaml.in/yaml", clsEncoding}, {"sigs.k8s.io/yaml", clsEncoding},
	{"github.com/goccy/go-json", clsEncoding}, {"github.com/json-iterator/go", clsEncoding},
	{"github.com/vmihailenco/msgpack", clsEncoding}, {"github.com/tinylib/msgp", clsEncoding},
	{"github.com/BurntSushi/toml", clsEncoding}, {"github.com/pelletier/go-toml", clsEncoding},

	{"compress/", clsCompression}, {"archive/", clsCompression}, {"github.com/klauspost/compress", clsCompression},
	{"github.com/golang/snappy", clsCompression}, {"github.com/pierrec/lz4", clsCompression},
	{"github.com/andybalholm/brotli", clsCompression}, {"github.com/ulikunitz/xz", clsCompression},
	{"github.com/DataDog/zstd", clsCompression},

	{"crypto/", clsCrypto}, {"golang.org/x/crypto/", clsCrypto}, {"vendor/golang.org/x/crypto/", clsCrypto},
	{"hash/", clsCrypto}, {"github.com/cespare/xxhash", clsCrypto}, {"github.com/zeebo/xxh3", clsCrypto},

	// The test harness is not the application.
	{"testing.", clsOther}, {"testing/", clsOther},

	// General-purpose code whose caller says what the time is for.
	{"sync.", generic}, {"sync/", generic}, {"math.", generic}, {"math/bits.", generic}, {"iter.", generic},
	{"cmp.", generic}, {"errors.", generic}, {"io.", generic}, {"bufio.", generic}, {"unsafe.", generic},
	{"container/", generic}, {"internal/", generic}, {"main.", generic}, {"runtime.", generic},
}

// slicesSort lists the functions of package slices that sort or search
// sorted data.
var slicesSort = []string{
	"Sort", "IsSorted", "BinarySearch", "pdqsort", "insertionSort", "heapSort", "siftDown", "choosePivot",
	"median", "partition", "breakPatterns", "reverseRange", "stable", "symMerge", "rotate", "swapRange",
}

// classify returns what a function named name says about the category of
// a sample it is on; module reports whether its source is in the measured
// module.
func classify(name string, module bool) class {
	if module {
		return clsApplication
	}
	if rest, ok := strings.CutPrefix(name, "slices."); ok {
		for _, p := range slicesSort {
			if strings.HasPrefix(rest, p) {
				return clsSort
			}
		}
		return generic
	}
	if rawSyscalls[name] {
		return clsSyscall
	}
	for _, r := range rules {
		if strings.HasPrefix(name, r.prefix) {
			return r.class
		}
	}
	// Assembly helpers without a package (aeshashbody, memeqbody) and
	// unsymbolized addresses.
	if !strings.Contains(name, ".") {
		return generic
	}
	return clsOther
}

// rawSyscalls are the runtime's own system calls; the rest of runtime.*
// not named in rules is generic.
var rawSyscalls = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{
		"futex", "usleep", "usleep_no_g", "osyield", "osyield_no_g", "nanosleep", "write1", "write", "read",
		"open", "closefd", "epollwait", "epollctl", "tgkill", "raise", "raiseproc", "sigaltstack",
		"rtsigprocmask", "sigprocmask", "getpid", "gettid", "exit", "exitThread", "clone", "pipe2",
	} {
		m["runtime."+n] = true
	}
	return m
}()

// categorize returns the class of a sample with the given stack (leaf
// first): gc or scheduler if any frame is, else the first frame that is
// not generic.
func (ix *index) categorize(stack []frame) class {
	first := generic
	sched := false
	for _, f := range stack {
		c := ix.funcs[f.fn].class
		switch {
		case c == clsGC:
			return clsGC
		case c == clsScheduler:
			sched = true
		case first == generic && c != generic:
			first = c
		}
	}
	if sched {
		return clsScheduler
	}
	if first == generic {
		return clsOther
	}
	return first
}
