package dashboard

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/profiles"
	"github.com/perfloop/perfloop/internal/render"
	"github.com/perfloop/perfloop/internal/store"
)

// run serves /run/ID (the commit's report) and /run/ID/profiles/NAME (a
// profile, for go tool pprof).
func (s *Server) run(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, "/run/")
	idText, profile, hasProfile := strings.Cut(rest, "/profiles/")
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	ctx := r.Context()
	info, err := s.st.Run(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		http.Error(w, fmt.Sprintf("no run %d in the store", id), http.StatusNotFound)
		return
	}
	if err != nil {
		serverError(w, err)
		return
	}
	if hasProfile {
		data, err := s.st.Profile(ctx, id, profile)
		if errors.Is(err, store.ErrNotFound) {
			http.NotFound(w, r)
			return
		}
		if err != nil {
			serverError(w, err)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", path.Base(profile)))
		w.Write(data)
		return
	}
	doc, err := s.report(r, id)
	if err != nil {
		serverError(w, err)
		return
	}
	names, _ := s.st.ProfileNames(ctx, id)
	nav := map[string]any{"Run": info, "Short": short(info.Commit), "Profiles": names}
	if doc == nil {
		results, err := s.st.Results(ctx, id)
		if err != nil {
			serverError(w, err)
			return
		}
		nav["Results"] = string(results)
		writePage(w, runPage, nav)
		return
	}
	flames := map[string]*profiles.FlameNode{}
	for _, b := range doc.Benchmarks {
		if b.CPUProfile == "" {
			continue
		}
		if data, err := s.st.Profile(ctx, id, path.Base(b.CPUProfile)); err == nil {
			if p, err := profiles.Parse(data); err == nil {
				flames[b.Name] = profiles.Flame(p)
			}
		}
	}
	var page bytes.Buffer
	if err := render.HTML(&page, doc, render.Options{Title: fmt.Sprintf("%s at %s: %s", doc.Module, short(info.Commit), info.Subject), Flames: flames, Assets: "/static"}); err != nil {
		serverError(w, err)
		return
	}
	var bar strings.Builder
	if err := runBar.Execute(&bar, nav); err != nil {
		serverError(w, err)
		return
	}
	// The report is a page of its own: the dashboard's bar goes after
	// its <body>.
	html := page.String()
	if i := strings.Index(html, "<body>"); i >= 0 {
		html = html[:i+len("<body>")] + bar.String() + html[i+len("<body>"):]
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(w, html)
}

// report reads a run's report.json (nil when it has none).
func (s *Server) report(r *http.Request, id int64) (*document.Report, error) {
	data, err := s.st.Report(r.Context(), id)
	if err != nil || data == nil {
		return nil, err
	}
	var doc document.Report
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("run %d: report.json: %w", id, err)
	}
	return &doc, nil
}

// diffRow is one function in a profile diff.
type diffRow struct {
	Function string
	A, B     float64 // flat time per op (seconds), or share when no time
	Delta    float64
	DeltaPct string
}

// diff serves /diff?a=RUN&b=RUN&bench=NAME: the benchmark's CPU profiles
// at two commits, function by function, as time per op (share of the
// profile × the run's sec/op).
func (s *Server) diff(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	name := q.Get("bench")
	var sides [2]*profiles.CPU
	var secOp [2]float64
	var infos [2]*store.RunInfo
	for i, key := range []string{"a", "b"} {
		id, err := strconv.ParseInt(q.Get(key), 10, 64)
		if err != nil {
			http.Error(w, fmt.Sprintf("diff: %s=%q is not a run id", key, q.Get(key)), http.StatusBadRequest)
			return
		}
		info, err := s.st.Run(r.Context(), id)
		if err != nil {
			http.Error(w, fmt.Sprintf("diff: run %d: %v", id, err), http.StatusNotFound)
			return
		}
		infos[i] = info
		doc, err := s.report(r, id)
		if err != nil || doc == nil {
			http.Error(w, fmt.Sprintf("diff: run %d has no report", id), http.StatusNotFound)
			return
		}
		var b *document.Benchmark
		for j := range doc.Benchmarks {
			if doc.Benchmarks[j].Name == name {
				b = &doc.Benchmarks[j]
			}
		}
		if b == nil || b.CPUProfile == "" {
			http.Error(w, fmt.Sprintf("diff: run %d has no CPU profile of %s", id, name), http.StatusNotFound)
			return
		}
		data, err := s.st.Profile(r.Context(), id, path.Base(b.CPUProfile))
		if err != nil {
			http.Error(w, fmt.Sprintf("diff: run %d: %v", id, err), http.StatusNotFound)
			return
		}
		p, err := profiles.Parse(data)
		if err != nil {
			serverError(w, err)
			return
		}
		if sides[i], err = profiles.AnalyzeCPU(p, profiles.Options{ModulePath: doc.Module, Benchmark: strings.SplitN(name, "/", 2)[0]}); err != nil {
			serverError(w, err)
			return
		}
		if m := b.Metrics["sec/op"]; m != nil {
			secOp[i] = m.Median
		}
	}
	timed := secOp[0] > 0 && secOp[1] > 0
	flat := map[string]*diffRow{}
	for i, c := range sides {
		for _, f := range c.Functions {
			row := flat[f.Name]
			if row == nil {
				row = &diffRow{Function: f.Name}
				flat[f.Name] = row
			}
			v := f.FlatShare
			if timed {
				v *= secOp[i]
			}
			if i == 0 {
				row.A = v
			} else {
				row.B = v
			}
		}
	}
	var rows []*diffRow
	for _, row := range flat {
		row.Delta = row.B - row.A
		if row.A != 0 || row.B != 0 {
			rows = append(rows, row)
		}
	}
	slices.SortFunc(rows, func(a, b *diffRow) int {
		return cmp.Or(cmp.Compare(math.Abs(b.Delta), math.Abs(a.Delta)), cmp.Compare(a.Function, b.Function))
	})
	rows = rows[:min(len(rows), 30)]
	unit := "share"
	if timed {
		unit = "sec/op"
	}
	type shown struct{ Function, A, B, Delta string }
	var out []shown
	for _, row := range rows {
		f := func(v float64) string {
			if timed {
				return render.FormatValue(v, "sec/op")
			}
			return fmt.Sprintf("%.1f%%", 100*v)
		}
		d := f(row.Delta)
		if row.Delta > 0 {
			d = "+" + d
		}
		out = append(out, shown{row.Function, f(row.A), f(row.B), d})
	}
	writePage(w, diffPage, map[string]any{"Name": name, "A": infos[0], "B": infos[1], "ShortA": short(infos[0].Commit), "ShortB": short(infos[1].Commit),
		"Rows": out, "Unit": unit, "SecA": render.FormatValue(secOp[0], "sec/op"), "SecB": render.FormatValue(secOp[1], "sec/op"), "Timed": timed})
}
