package cli

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/perfloop/perfloop/internal/abtest"
	"github.com/perfloop/perfloop/internal/render"
)

// renderDiff prints what res holds (also after an interruption, runErr)
// and decides the exit status.
func renderDiff(s Streams, opts diffOptions, res *abtest.Result, runErr error) error {
	for _, n := range res.OnlyBase {
		fmt.Fprintf(s.Err, "perfloop: only in BASE, not compared: %s\n", n)
	}
	for _, n := range res.OnlyHead {
		fmt.Fprintf(s.Err, "perfloop: only in HEAD, not compared: %s\n", n)
	}
	for _, f := range res.Failures {
		fmt.Fprintf(s.Err, "perfloop: %s: %s\n", [...]string{"BASE", "HEAD"}[f.Side], f)
	}
	if errors.Is(runErr, abtest.ErrNoCommon) {
		if len(res.Failures) > 0 {
			// A side that does not build is a failed gate, not a usage
			// error.
			return failedError{"diff: nothing to compare: a side failed to build"}
		}
		return usageErrorf("diff: no benchmark matching -bench %q exists on both sides", opts.bench)
	}
	if len(res.Tables) > 0 {
		if opts.json {
			doc := render.NewCompareJSON(res.Tables)
			doc.Rounds = res.Rounds
			doc.WallSeconds = math.Round(res.Wall.Seconds()*1000) / 1000
			if err := render.WriteJSON(s.Out, doc); err != nil {
				return err
			}
		} else {
			if err := render.CompareText(s.Out, res.Tables, opts.alpha); err != nil {
				return err
			}
			fmt.Fprintf(s.Out, "\nBASE = %s, HEAD = %s: %d rounds in %.1fs\n", res.Labels[0], res.Labels[1], res.Rounds, res.Wall.Seconds())
		}
	}
	if runErr != nil {
		return runErr
	}
	for _, n := range res.Notes {
		fmt.Fprintf(s.Err, "perfloop: %s\n", n)
	}
	if res.Inconclusive > 0 {
		fmt.Fprintf(s.Err, "perfloop: %d row(s) inconclusive: the rounds or -time ran out before they were shown changed or unchanged; each says what it could not rule out\n", res.Inconclusive)
	}
	if len(res.Noisy) > 0 {
		fmt.Fprintf(s.Err, "perfloop: too noisy to see a 5%% change in %d row(s): %s; try more -rounds, a longer -benchtime, or a quieter machine\n",
			len(res.Noisy), strings.Join(res.Noisy, ", "))
	}
	var problems []string
	if n := res.Slower(opts.threshold); n > 0 {
		problems = append(problems, fmt.Sprintf("%d benchmark(s) significantly slower", n))
	}
	if n := len(res.Failures); n > 0 {
		problems = append(problems, fmt.Sprintf("%d build or benchmark failure(s)", n))
	}
	if len(res.Tables) == 0 {
		problems = append(problems, "no benchmark ran on both sides")
	}
	if len(problems) > 0 {
		return failedError{"diff: " + strings.Join(problems, "; ")}
	}
	return nil
}
