package check

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
)

// Budget is a limit on a unit of the benchmarks whose names match a
// pattern: "BenchmarkEncode allocs/op == 0", "Benchmark. sec/op <= +5%"
// (relative to BASE).
type Budget struct {
	Text     string
	Pattern  *regexp.Regexp
	Unit     string
	Op       string
	Value    float64
	Relative bool // Value is a fraction of BASE's median
}

var budgetOps = []string{"==", "<=", ">=", "<", ">"}

// ParseBudget parses "PATTERN UNIT OP VALUE". The pattern is a regular
// expression matched against the benchmark's full name (with the
// Benchmark prefix, without -GOMAXPROCS), anchored at the start; VALUE is
// a number, or a signed percentage relative to BASE ("+5%").
func ParseBudget(s string) (Budget, error) {
	f := strings.Fields(s)
	if len(f) != 4 {
		return Budget{}, fmt.Errorf("budget %q: want PATTERN UNIT OP VALUE, such as 'BenchmarkEncode allocs/op == 0'", s)
	}
	re, err := regexp.Compile("^(?:" + f[0] + ")")
	if err != nil {
		return Budget{}, fmt.Errorf("budget %q: pattern: %w", s, err)
	}
	b := Budget{Text: strings.Join(f, " "), Pattern: re, Unit: f[1], Op: f[2]}
	ok := false
	for _, op := range budgetOps {
		ok = ok || op == b.Op
	}
	if !ok {
		return Budget{}, fmt.Errorf("budget %q: operator %q: want one of == <= < >= >", s, b.Op)
	}
	v := f[3]
	if strings.HasSuffix(v, "%") {
		if v[0] != '+' && v[0] != '-' {
			return Budget{}, fmt.Errorf("budget %q: a relative value is signed: +5%% or -5%%", s)
		}
		v, b.Relative = strings.TrimSuffix(v, "%"), true
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
		return Budget{}, fmt.Errorf("budget %q: value %q: want a number or a percentage such as +5%%", s, f[3])
	}
	if b.Relative {
		n /= 100
	}
	b.Value = n
	return b, nil
}

// Config is the gate's part of the module's perfloop.json:
//
//	{"check": {"threshold": "5%", "budgets": ["BenchmarkEncode allocs/op == 0"]}}
type Config struct {
	Threshold string   `json:"threshold"`
	Budgets   []string `json:"budgets"`
}

// ReadConfig reads the "check" section of a perfloop.json file; a missing
// file is no configuration.
func ReadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Config{}, nil
	}
	if err != nil {
		return Config{}, err
	}
	var f struct {
		Check Config `json:"check"`
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return Config{}, fmt.Errorf("parse %s: %w", path, err)
	}
	return f.Check, nil
}

// limit is the budget's limit for a benchmark whose BASE median is base.
func (b Budget) limit(base float64) float64 {
	if b.Relative {
		return base * (1 + b.Value)
	}
	return b.Value
}

func (b Budget) holds(measured, limit float64) bool {
	switch b.Op {
	case "==":
		return measured == limit
	case "<=":
		return measured <= limit
	case "<":
		return measured < limit
	case ">=":
		return measured >= limit
	}
	return measured > limit
}

// checkBudgets applies the budgets to the rows' medians.
func checkBudgets(budgets []Budget, rows []row) []document.BudgetCheck {
	var out []document.BudgetCheck
	for _, b := range budgets {
		matched := false
		for _, r := range rows {
			if r.unit != b.Unit || !b.Pattern.MatchString(r.name) {
				continue
			}
			matched = true
			lim := b.limit(r.old)
			out = append(out, document.BudgetCheck{Budget: b.Text, Benchmark: r.name, Unit: r.unit, Op: b.Op,
				Limit: lim, Measured: r.new, OK: b.holds(r.new, lim)})
		}
		if !matched {
			// A budget that matches nothing is a mistake worth seeing.
			out = append(out, document.BudgetCheck{Budget: b.Text, Unit: b.Unit, Op: b.Op, Limit: b.Value, OK: false})
		}
	}
	return out
}
