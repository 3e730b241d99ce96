// Package changepoint finds where a benchmark's series over commits
// shifted, for perfloop history. It takes one benchmark and unit: a point
// per commit, oldest first, each with the samples of its runs (go test
// -count), and it returns the commits where the level changed, with the
// medians either side and a p-value. It knows nothing of git, flags or
// rendering.
//
// # Method
//
// The detector is e-divisive means (Matteson and James 2014) as MongoDB
// (Daly et al. 2020) and Apache Otava, formerly DataStax's hunter (Fleming
// et al. 2023), use it for performance histories. Their refinements are
// kept. Two passes:
//
//  1. Split. Overlapping windows of Window commits (default 50, half
//     overlapping) are cut by binary segmentation. In each segment the split
//     maximising the energy statistic Q̂ (absolute differences, exponent 1)
//     is tested by permutation. If significant, both halves are searched
//     again. Splits fall only between commits. This pass uses a relaxed
//     level, 10·Alpha (at most 0.1), as hunter does: it proposes
//     candidates.
//  2. Merge. Each candidate is tested against the segments its neighbours
//     bound (within Window commits of it). The weakest failing one is
//     dropped and its neighbours re-tested until all pass. Then each
//     dropped candidate is offered again against the kept ones, since
//     greedy dropping can lose a real change that failed only next to a
//     spurious neighbour. The result is self-consistent: each change
//     passes against its neighbours. Changes smaller than MinDelta are
//     dropped the same way.
//
// A permutation test compares the observed statistic at the split with the
// largest statistic over all admissible splits of the shuffled data. That
// accounts for the split having been chosen as the best one. p =
// (k+1)/(R+1), with R = Permutations (199: Alpha·(R+1) = 2 is a whole
// number, so the test's level is exactly Alpha, and the smallest p, 0.005,
// is below it). Shuffling stops early once p can no longer reach the level
// (Besag and Clifford 1991). Shuffles are seeded from Seed and the test's
// coordinates, so the output depends only on the input and Seed. (Hunter
// gave up permutations for a t-test because they were not deterministic;
// seeding solves that here. The t-test below is kept for another reason.)
//
// # Opinion
//
// Why e-divisive with permutations: benchmark samples are skewed and have
// outliers. The energy statistic makes no assumption about their
// distribution, and a permutation test gives a p-value that holds at any
// sample size without one.
//
// Why samples, not per-commit medians: a permutation test over points
// cannot be significant on a short history. With five commits, split two
// against three, only 10 of the 120 orders are distinct, so no p-value
// goes below about 0.1. A doubling at the last of five commits could never
// be reported. Shuffling samples gives 25 values and p-values down to
// 1/(R+1). The price is validity. Shuffling samples assumes that, when
// nothing changed, a run of one commit could as well have been a run of
// another. That is false when something varies per commit: the build, the
// code layout, the machine's state when that commit was measured. Then the
// samples of a commit agree with each other more than with other commits',
// and a plain sample-level test sees shifts in noise. In our simulations
// with 2% noise per commit on top of 2% per run, 40% of 30-commit series
// had a false change. Three corrections bring that back to a few percent:
//
//   - Overdispersion. Before the merge-pass test, each commit's samples
//     are spread about their mean by λ = √max(1, F). F is the one-way
//     ANOVA ratio of the scatter of commit means (about their side's mean)
//     to the scatter the runs predict. Each commit's samples then vary as
//     much as commits do, so shuffling samples behaves like shuffling
//     commits. This is the quasi-likelihood dispersion correction. When
//     runs agree exactly but commits do not, the commit mean becomes the
//     single observation.
//   - Student's t on commit medians, with variance pooled over both sides
//     and degrees of freedom counting commits. It carries the uncertainty
//     of a scatter estimated from few commits, which λ cannot. With one
//     commit on a side it is a prediction interval: is that commit outside
//     the other commits' scatter?
//   - Leave one out (next).
//
// A one-commit blip is not a shift. A commit measured 30% high on a noisy
// machine differs significantly from its neighbours at the sample level.
// Two rules keep it out. Segments between change points need MinSize
// commits (default 2), so the blip cannot be a segment of its own. And
// each side of two or more commits must still differ (at 5·Alpha, at most
// 0.05: a guard, not the significance test) when its
// most extreme commit (in its side's direction) is left out. Otherwise a
// blip next to a normal commit would form a two-commit segment that looks
// shifted on average. Two commits that moved together are a shift.
//
// The ends of the series are different. A shift at the last commit has
// one commit after it, and nothing can tell it from a blip at that commit.
// Requiring two commits would hide every regression at HEAD until the next
// commit. So a segment at either end may have a single commit, and then
// the change is reported only when that commit separates cleanly: each of
// its samples is beyond the median of every commit on the other side,
// besides passing the tests above. A noisy last (or first) commit is
// therefore reported as a change, at Index n−1 (or 1). Run it again, or
// wait for the next commit, to tell which it was.
//
// P is the p-value of the permutation test on the samples; the other
// tests are pass or fail (a short window's t-test on commit medians holds
// at 5·Alpha for a shift of 10% or more, where at Alpha two commits
// against three on a noisy machine missed most doublings). Alpha is the level of each split, not of the series. A
// long series has more chances of a false change: measured false positive
// rates are in docs/changepoint.md.
//
// # Limits
//
//   - A steady drift has no single change point. It comes out as a
//     staircase of steps where the accumulated drift outgrows the noise.
//     0.5% a commit over 30 commits with 2% noise gives two to four steps
//     of 2–5%; a larger MinDelta leaves fewer, larger ones.
//   - The energy statistic reacts to any change of distribution, so a
//     change in spread alone can be reported, with a small Delta. Set
//     MinDelta.
//   - Short excursions in the middle of long flat stretches are the
//     hardest case for binary segmentation: the split statistic runs to
//     the segment's end. The half-overlapping windows help. A smaller
//     Window helps more.
//   - Few samples limit what the ends can show. A single commit with five
//     samples next to a side of two commits is at the edge of Alpha =
//     0.01. With one sample per commit (-count 1) a shift needs three
//     commits after it, and the ends can never be reported.
//
// # References
//
//   - D. S. Matteson and N. A. James, "A Nonparametric Approach for
//     Multiple Change Point Analysis of Multivariate Data", JASA 109(505),
//     2014. arXiv:1306.4933.
//   - D. Daly et al., "The Use of Change Point Detection to Identify
//     Software Performance Regressions in a Continuous Integration System",
//     ICPE 2020. github.com/mongodb/signal-processing-algorithms.
//   - M. Fleming et al., "Hunter: Using Change Point Detection to Hunt for
//     Performance Regressions", ICPE 2023, doi:10.1145/3578244.3583719,
//     arXiv:2301.03034. github.com/apache/otava.
//   - J. Besag and P. Clifford, "Sequential Monte Carlo p-values",
//     Biometrika 78(2), 1991.
//   - B. Phipson and G. K. Smyth, "Permutation P-values Should Never Be
//     Zero", Stat. Appl. Genet. Mol. Biol. 9(1), 2010.
//   - P. McCullagh and J. A. Nelder, Generalized Linear Models, 2nd ed.,
//     1989, §4.5 (overdispersion).
package changepoint
