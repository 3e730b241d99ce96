package abtest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/progress"
	"github.com/perfloop/perfloop/internal/results"
	"github.com/perfloop/perfloop/internal/stats"
)

// Options says how to run the rounds and decide.
type Options struct {
	// Benchtime is the length of one run, calibrated once on side A into
	// an iteration count for both sides (side B gets its own when it is
	// sideRatio times slower or faster per op); "Nx" is used as is.
	Benchtime string
	CPU       string
	// Timeout bounds one run of one benchmark.
	Timeout time.Duration
	// Pin runs every benchmark process on these CPUs (see gotest.QuietCPU).
	Pin []int
	// MinRounds is the first look; MaxRounds the most rounds run.
	MinRounds, MaxRounds int
	// Budget stops the run after about this long, deciding with what was
	// measured.
	Budget time.Duration
	// Alpha is the false discovery rate across the rows of a unit; Settle
	// the relative change within which an unchanged row may stop early.
	Alpha, Settle float64
	// Seed seeds the run order.
	Seed uint64
	// AfterRound, if set, is called after every complete round with the
	// number of rounds done.
	AfterRound func(rounds int)
	// CPUProfileDir, if set, makes every run of the rounds write a CPU
	// profile there (the profiler's 100 Hz signal costs well under the
	// rounds' noise), kept in Result.Profiles: evidence a caller that
	// explains a change has without running the benchmark again.
	CPUProfileDir string
}

// ErrNoCommon means no selected benchmark exists on both sides.
var ErrNoCommon = errors.New("no benchmark matching -bench exists on both sides")

// unit is one benchmark (sub-benchmark) run as a unit of a round.
type unit struct {
	pkg       string
	bins      [2]*gotest.Binary
	name      string    // top-level benchmark
	sub       string    // exact sub-benchmark pattern, or ""
	benchtime [2]string // "Nx" per side, calibrated
	failed    string    // error once a side failed
}

func (u *unit) displayName() string {
	if u.sub == "" {
		return u.name
	}
	return u.name + "/" + u.sub
}

// Run runs the benchmarks present on both sides interleaved until every
// row is decided, MaxRounds or the Budget, and returns the verdicts. On
// cancellation it returns the rounds measured so far, decided at the
// level spent, with ctx's error.
func Run(ctx context.Context, sides [2]*Side, opts Options, bar *progress.Bar) (*Result, error) {
	defer bar.Done()
	start := time.Now()
	res := &Result{Labels: [2]string{sides[0].Label, sides[1].Label}, Alpha: opts.Alpha, settle: opts.Settle, pairs: map[rowKey]*pairs{}}
	for i, s := range sides {
		for _, pe := range s.Suite.Failed {
			res.Failures = append(res.Failures, Failure{Side: i, Package: pe.Package, Err: pe.Err.Error()})
		}
	}
	units, onlyA, onlyB := match(sides[0].Suite, sides[1].Suite)
	res.OnlyBase, res.OnlyHead = onlyA, onlyB
	if len(units) == 0 {
		return res, ErrNoCommon
	}
	units, err := res.calibrate(ctx, units, opts, sides[0].Suite.Sub, bar)
	if err != nil {
		res.finish(units, time.Since(start))
		return res, err
	}

	rng := rand.New(rand.NewPCG(opts.Seed, opts.Seed>>1|1))
	looks := stats.Looks(opts.MinRounds, opts.MaxRounds)
	nextLook, prevFrac := 0, 0.0
	// The share of the run done: of the rounds, or of the time budget,
	// whichever is further along. It decides how much of α a look spends.
	progress := func(round int) float64 {
		f := float64(round) / float64(opts.MaxRounds)
		if opts.Budget > 0 {
			f = max(f, float64(time.Since(start))/float64(opts.Budget))
		}
		return min(f, 1)
	}
	bar.Start(opts.MaxRounds*len(units), "")
	var roundTime time.Duration
	for round := 1; round <= opts.MaxRounds; round++ {
		roundStart := time.Now()
		order := rng.Perm(len(units))
		if round == 1 {
			// Source order first, so tables list benchmarks as
			// declared; later rounds shuffle.
			for i := range order {
				order[i] = i
			}
		}
		for _, i := range order {
			u := units[i]
			if u.failed != "" {
				bar.Step("")
				continue
			}
			bar.Describe(fmt.Sprintf("%s (round %d/%d)", u.displayName(), round, opts.MaxRounds))
			aFirst := rng.IntN(2) == 0
			if err := res.round(ctx, u, aFirst, opts); err != nil {
				// Interrupted: decide with what was measured, spending
				// what is left of α.
				if res.Rounds >= 2 {
					res.lastLevel = stats.SpendFraction(opts.Alpha, prevFrac, 1)
					res.look(res.lastLevel)
				}
				res.finish(units, time.Since(start))
				return res, err
			}
			bar.Step("")
		}
		res.Rounds = round
		roundTime = time.Since(roundStart)
		if opts.AfterRound != nil {
			opts.AfterRound(round)
		}
		last := round == opts.MaxRounds || opts.Budget > 0 && time.Since(start)+roundTime > opts.Budget
		if round == looks[nextLook] || last {
			frac := progress(round)
			if last {
				// Spend everything left: the sum over looks stays α.
				frac = 1
			}
			res.lastLevel = stats.SpendFraction(opts.Alpha, prevFrac, frac)
			prevFrac = frac
			for nextLook < len(looks)-1 && looks[nextLook] <= round {
				nextLook++
			}
			if res.look(res.lastLevel) || last {
				break
			}
		}
	}
	bar.Done()
	res.finish(units, time.Since(start))
	return res, nil
}

// match pairs the benchmarks of both suites by package and name.
func match(a, b *gotest.Suite) (units []*unit, onlyA, onlyB []document.BenchKey) {
	key := func(t gotest.Target) document.BenchKey {
		return document.BenchKey{Package: t.Binary.Package.ImportPath, Name: t.Name}
	}
	bs := map[document.BenchKey]gotest.Target{}
	for _, t := range b.Targets {
		bs[key(t)] = t
	}
	seen := map[document.BenchKey]bool{}
	for _, t := range a.Targets {
		k := key(t)
		seen[k] = true
		h, ok := bs[k]
		if !ok {
			onlyA = append(onlyA, k)
			continue
		}
		units = append(units, &unit{pkg: t.Binary.Package.ImportPath, bins: [2]*gotest.Binary{t.Binary, h.Binary}, name: t.Name})
	}
	for _, t := range b.Targets {
		if !seen[key(t)] {
			onlyB = append(onlyB, key(t))
		}
	}
	return units, onlyA, onlyB
}

// calibrate runs each benchmark once on side A for Benchtime and fixes
// its iteration count, per sub-benchmark, so every later run does the same
// work on both sides without the testing package's ramp-up. With an
// explicit Nx Benchtime, that N is used as is.
func (r *Result) calibrate(ctx context.Context, units []*unit, opts Options, userSub string, bar *progress.Bar) ([]*unit, error) {
	bt := opts.Benchtime
	if strings.HasSuffix(bt, "x") {
		for _, u := range units {
			u.sub, u.benchtime = userSub, [2]string{bt, bt}
		}
		return units, nil
	}
	var out []*unit
	bar.Start(len(units), "calibrating")
	for _, u := range units {
		bar.Describe("calibrating " + u.name)
		o, err := u.bins[0].Run(ctx, gotest.RunConfig{Name: u.name, Sub: userSub, Benchtime: bt, CPU: opts.CPU, Timeout: opts.Timeout, Pin: opts.Pin})
		bar.Step("")
		if err != nil {
			return out, err
		}
		if o.Status != results.StatusOK || len(o.Results) == 0 {
			u.failed = o.Error
			if o.Status == results.StatusSkipped {
				u.failed = "skipped"
			} else {
				r.Failures = append(r.Failures, Failure{Side: 0, Package: u.pkg, Benchmark: u.name, Err: o.Error})
			}
			out = append(out, u)
			continue
		}
		iters, err := r.warmIters(ctx, u, o, userSub, opts)
		if err != nil {
			return out, err
		}
		scale, err := r.sideScale(ctx, u, o, userSub, opts)
		if err != nil {
			return out, err
		}
		// One unit per sub-benchmark (GOMAXPROCS variants share it).
		seen := map[string]bool{}
		for _, r := range o.Results {
			name, _ := stats.SplitProcs(r.Name)
			if seen[name] {
				continue
			}
			seen[name] = true
			c := *u
			n := cmp.Or(iters[string(r.Name)], r.Iters)
			c.benchtime = [2]string{fmt.Sprintf("%dx", n), fmt.Sprintf("%dx", n)}
			if f, ok := scale[string(r.Name)]; ok {
				// B at its own pace: about A's time per run. A count
				// raised for a cold first iteration keeps at least 2.
				floor := 1
				if _, warm := iters[string(r.Name)]; warm {
					floor = 2
				}
				c.benchtime[1] = fmt.Sprintf("%dx", max(floor, int(math.Round(float64(n)*f))))
			}
			if _, parts := r.Name.Parts(); len(parts) > 0 {
				var subs []string
				for _, part := range parts {
					if part[0] == '/' {
						subs = append(subs, "^"+regexp.QuoteMeta(string(part[1:]))+"$")
					}
				}
				c.sub = strings.Join(subs, "/")
			}
			out = append(out, &c)
		}
	}
	return out, nil
}

// round runs u once per side in the given order and records the pairs.
func (r *Result) round(ctx context.Context, u *unit, aFirst bool, opts Options) error {
	order := [2]int{0, 1}
	if !aFirst {
		order = [2]int{1, 0}
	}
	var got [2]map[string]*benchfmt.Result
	var profs [2]string
	for _, side := range order {
		rc := gotest.RunConfig{Name: u.name, Sub: u.sub, Benchtime: u.benchtime[side], CPU: opts.CPU, Timeout: opts.Timeout, Pin: opts.Pin}
		if opts.CPUProfileDir != "" {
			r.profiled++
			profs[side] = filepath.Join(opts.CPUProfileDir, fmt.Sprintf("%d.cpu.pprof", r.profiled))
			rc.Args = []string{"-test.cpuprofile=" + profs[side]}
		}
		o, err := u.bins[side].Run(ctx, rc)
		if err != nil {
			return err
		}
		if o.Status == results.StatusSkipped && u.sub != "" && len(o.Results) == 0 && strings.HasPrefix(o.Error, "no sub-benchmark matches") {
			// A sub-benchmark the other side has and this one does not
			// (a case added or removed): one-sided, as a whole
			// benchmark would be, not a failure.
			u.failed = o.Error
			name := document.BenchKey{Package: u.pkg, Name: u.name + "/" + plainSub(u.sub)}
			if side == 1 {
				r.OnlyBase = append(r.OnlyBase, name)
			} else {
				r.OnlyHead = append(r.OnlyHead, name)
			}
			return nil
		}
		if o.Status != results.StatusOK {
			u.failed = o.Error
			r.Failures = append(r.Failures, Failure{Side: side, Package: u.pkg, Benchmark: u.displayName(), Err: o.Error})
			return nil
		}
		got[side] = map[string]*benchfmt.Result{}
		for _, res := range o.Results {
			res.SetConfig(".file", r.Labels[side])
			got[side][res.Name.String()] = res
		}
	}
	if opts.CPUProfileDir != "" {
		r.keepProfiles(u, profs)
	}
	// Only rows measured on both sides count, so geomeans never mix rows
	// that exist on one side only.
	for name, a := range got[0] {
		b, ok := got[1][name]
		if !ok {
			continue
		}
		r.results[0] = append(r.results[0], a)
		r.results[1] = append(r.results[1], b)
		for _, v := range a.Values {
			bv, ok := b.Value(v.Unit)
			if !ok {
				continue
			}
			k := rowKey{u.pkg, name, v.Unit}
			pr := r.pairs[k]
			if pr == nil {
				pr = &pairs{}
				r.pairs[k] = pr
			}
			pr.a = append(pr.a, v.Value)
			pr.b = append(pr.b, bv)
		}
	}
	return nil
}

// sideRatio is how many times slower (or faster) side B must be per op
// to run its own iteration count.
const sideRatio = 5

// sideScale runs u once on side B for Benchtime, as the calibration ran
// it on side A, and returns, by full name, B's iteration count as a
// fraction of A's for the benchmarks whose time per op differs by
// sideRatio or more between the sides. Both sides then run about the
// same time per round, paired on time per op: at A's count a side 200×
// slower turns a 10ms run into 2s, and a check of a large regression
// into minutes.
func (r *Result) sideScale(ctx context.Context, u *unit, first *gotest.Outcome, sub string, opts Options) (map[string]float64, error) {
	o, err := u.bins[1].Run(ctx, gotest.RunConfig{Name: u.name, Sub: sub, Benchtime: opts.Benchtime, CPU: opts.CPU, Timeout: opts.Timeout, Pin: opts.Pin})
	if err != nil || o.Status != results.StatusOK {
		return nil, err // a failing side B fails in the rounds, as it would have
	}
	out := map[string]float64{}
	for _, rb := range o.Results {
		vb, okB := rb.Value("sec/op")
		for _, ra := range first.Results {
			va, okA := ra.Value("sec/op")
			if string(ra.Name) != string(rb.Name) || !okA || !okB || va <= 0 || vb <= 0 {
				continue
			}
			if ratio := vb / va; ratio >= sideRatio || ratio <= 1.0/sideRatio {
				out[string(ra.Name)] = va / vb
				name, _ := stats.SplitProcs(ra.Name)
				how := fmt.Sprintf("%.0f× %s's time per op", ratio, r.Labels[0])
				if ratio < 1 {
					how = fmt.Sprintf("1/%.0f of %s's time per op", 1/ratio, r.Labels[0])
				}
				r.Notes = append(r.Notes, fmt.Sprintf("Benchmark%s: %s takes %s: each side runs its own iteration count, about the same time per round", name, r.Labels[1], how))
			}
		}
	}
	return out, nil
}

// warmIters finds the calibrated benchmarks that reached fewer than 10
// iterations and whose first iteration is much slower than the later ones
// (a cache, a pool or a table warming up), and returns, by full name, the
// iteration counts that keep it from dominating a run. A short -benchtime
// gives a slow benchmark b.N = 1, and a run of one iteration times the
// cold one alone: BASE and HEAD could differ by half at steady state and
// measure the same. Two kinds of benchmark:
//
//   - a b.N loop: for -benchtime=Nx with N ≥ 2 the testing package runs
//     one iteration first and times only the N after it, so any N ≥ 2
//     leaves the cold one out;
//   - a b.Loop loop times every iteration, the first included: N is
//     raised until the cold one weighs a tenth of a run (runs of up to
//     about 1s).
//
// Runs of 10 and of 2 iterations tell them apart: a b.N loop's run of 2
// times two warm iterations, far under the cold one, where b.Loop's times
// the cold one and a warm one. Two runs rather than one, because a sleep
// or a cache fill is itself noisy: with the first run and the 10-iteration
// one alone, a b.Loop benchmark whose cold iteration happened to be slower
// the first time looks like a b.N loop, and runs of a few iterations would
// then time mostly the cold one. Benchmarks over 200ms an iteration are
// left as they are. A note in r.Notes names each one.
func (r *Result) warmIters(ctx context.Context, u *unit, first *gotest.Outcome, sub string, opts Options) (map[string]int, error) {
	few, one := false, false
	for _, res := range first.Results {
		v, _ := res.Value("sec/op")
		few = few || res.Iters < 10 && v > 0 && v <= 0.2
		one = one || res.Iters == 1 && v > 0 && v <= 0.2
	}
	if !few {
		return nil, nil
	}
	ten, err := r.perOp(ctx, u, sub, 10, opts)
	if err != nil {
		return nil, err
	}
	var two map[string]float64
	if one {
		if two, err = r.perOp(ctx, u, sub, 2, opts); err != nil {
			return nil, err
		}
	}
	bt, _ := time.ParseDuration(opts.Benchtime)
	out := map[string]int{}
	for _, res := range first.Results {
		p1, _ := res.Value("sec/op")
		p10, ok := ten[string(res.Name)]
		k := float64(res.Iters)
		if !ok || res.Iters >= 10 || p1 <= 0 || p1 > 0.2 {
			continue
		}
		name, _ := stats.SplitProcs(res.Name)
		name = "Benchmark" + name
		total := k * p1
		p2, ok2 := two[string(res.Name)]
		// A b.N loop: the runs of 10 and of 2 both left the cold
		// iteration out.
		bN := res.Iters == 1 && 10*p10 < total/2 && ok2 && p2 < total/4
		// A b.Loop loop: k·p1 = cold + (k−1)·steady and
		// 10·p10 = cold + 9·steady, or with the run of 2 when the
		// first run was a single iteration (two later runs, each with
		// its own cold iteration, agree better than the first).
		steady := (10*p10 - total) / (10 - k)
		if res.Iters == 1 && ok2 {
			steady = (10*p10 - 2*p2) / 8
		}
		cold := 10*p10 - 9*steady
		if !bN && (steady <= 0 || cold < 2*steady) && res.Iters == 1 && 10*p10 < total/2 {
			bN = true // no b.Loop reading holds; the run of 2 was disturbed
		}
		if bN {
			n := max(2, int(math.Ceil(bt.Seconds()/p10)))
			out[string(res.Name)] = n
			r.Notes = append(r.Notes, fmt.Sprintf("%s: the first iteration takes %s, %.0f× a later one (something warms up): runs of %d iterations, which time the later ones only",
				name, seconds(p1), p1/p10, n))
			continue
		}
		if steady <= 0 || cold < 2*steady {
			if p1 <= 3*p10 {
				continue // no warm-up to speak of
			}
			// The first iteration is far slower than the average of
			// ten, but the runs of 10 and 2 disagree on how much (a
			// warm-up whose own time varies, on a loaded machine):
			// grow the run until the first run's time is a tenth of it.
			n, run, err := r.growRun(ctx, u, sub, string(res.Name), total, opts)
			if err != nil {
				return nil, err
			}
			if n > 0 {
				out[string(res.Name)] = n
				r.Notes = append(r.Notes, fmt.Sprintf("%s: the first iteration takes %s, %.0f× the average of ten, and varies from run to run (something warms up): runs of %d iterations (%s each), so it weighs about %.0f%%",
					name, seconds(p1), p1/p10, n, seconds(run), 100*total/run))
			}
			continue
		}
		n := int(math.Ceil(9 * cold / steady)) // cold ≤ 10% of the run
		n = max(10, min(n, int(1/steady)))     // and a run under about 1s
		out[string(res.Name)] = n
		r.Notes = append(r.Notes, fmt.Sprintf("%s: the first iteration takes %s, %.0f× a later one (something warms up): runs of %d iterations, so it weighs %.0f%%",
			name, seconds(cold), cold/steady, n, 100*cold/(cold+float64(n-1)*steady)))
	}
	return out, nil
}

// growRun finds an iteration count whose run takes at least ten times
// first (the first run's time, warm-up included) and under about a
// second: it runs name at growing counts from 10, and returns the count
// and its run's time, or 0 when no count within a second gets there.
func (r *Result) growRun(ctx context.Context, u *unit, sub, name string, first float64, opts Options) (int, float64, error) {
	k := 10
	for range 8 {
		per, err := r.perOp(ctx, u, sub, k, opts)
		if err != nil {
			return 0, 0, err
		}
		p, ok := per[name]
		if !ok || p <= 0 {
			return 0, 0, nil
		}
		run := float64(k) * p
		if run >= 10*first {
			return k, run, nil
		}
		// Aim a half over the target, growing at most 100× a step, and
		// never past a run of about a second at this run's pace.
		next := int(math.Ceil(float64(k) * math.Min(100, 1.5*10*first/run)))
		if float64(next)*p > 1.5 {
			next = int(1.5 / p)
		}
		if next <= k {
			return 0, 0, nil
		}
		k = next
	}
	return 0, 0, nil
}

// perOp runs u's benchmarks for exactly n iterations on side A and
// returns the seconds per operation of those that ran n, by full name.
func (r *Result) perOp(ctx context.Context, u *unit, sub string, n int, opts Options) (map[string]float64, error) {
	o, err := u.bins[0].Run(ctx, gotest.RunConfig{Name: u.name, Sub: sub, Benchtime: fmt.Sprintf("%dx", n), CPU: opts.CPU, Timeout: opts.Timeout, Pin: opts.Pin})
	if err != nil || o.Status != results.StatusOK {
		return nil, err
	}
	out := map[string]float64{}
	for _, res := range o.Results {
		if v, ok := res.Value("sec/op"); ok && res.Iters == n {
			out[string(res.Name)] = v
		}
	}
	return out, nil
}

// seconds formats a duration in seconds for a note.
func seconds(s float64) string {
	return time.Duration(s * float64(time.Second)).Round(10 * time.Microsecond).String()
}

// plainSub turns an exact sub-benchmark pattern ("^long_string$/^x\.y$")
// back into the name it matches ("long_string/x.y").
func plainSub(sub string) string {
	parts := strings.Split(sub, "/")
	for i, p := range parts {
		p = strings.TrimSuffix(strings.TrimPrefix(p, "^"), "$")
		var b strings.Builder
		for j := 0; j < len(p); j++ {
			if p[j] == '\\' && j+1 < len(p) {
				j++
			}
			b.WriteByte(p[j])
		}
		parts[i] = b.String()
	}
	return strings.Join(parts, "/")
}

// Profiled is one side's CPU profiles of a benchmark from the rounds
// (Options.CPUProfileDir), and the iterations they cover.
type Profiled struct {
	Paths []string
	Iters int64
}

// keepProfiles records the profiles of u's round, one per side.
func (r *Result) keepProfiles(u *unit, paths [2]string) {
	if r.Profiles == nil {
		r.Profiles = map[document.BenchKey]*[2]Profiled{}
	}
	name := u.name
	if u.sub != "" {
		name += "/" + plainSub(u.sub)
	}
	k := document.BenchKey{Package: u.pkg, Name: name}
	p := r.Profiles[k]
	if p == nil {
		p = &[2]Profiled{}
		r.Profiles[k] = p
	}
	for side, path := range paths {
		n, err := strconv.Atoi(strings.TrimSuffix(u.benchtime[side], "x"))
		if err != nil || path == "" {
			continue
		}
		p[side].Paths = append(p[side].Paths, path)
		p[side].Iters += int64(n)
	}
}
