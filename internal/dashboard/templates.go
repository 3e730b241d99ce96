package dashboard

import (
	"fmt"
	"html/template"
)

// head links every page's style sheet: a file of the dashboard's own, as
// its Content-Security-Policy allows no inline style.
const head = `<link rel="stylesheet" href="/static/dashboard.css">`

var funcs = template.FuncMap{
	"pct":   func(d float64) string { return fmt.Sprintf("%+.1f%%", 100*d) },
	"pctOf": func(f float64) float64 { return 100 * f },
	"value": format,
	"class": func(d float64) string {
		if d > 0 {
			return "up"
		}
		return "down"
	},
}

var indexPage = template.Must(template.New("index").Funcs(funcs).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>perfloop: {{.Module}}</title>` + head + `</head>
<body><header><a href="/">perfloop</a> {{.Module}}</header><main>
<h1>Benchmarks of {{.Module}}</h1>
{{with .Index}}<p class="muted">{{.Commits}} commits, {{.Total}} series{{if $.Search}} matching <code>{{$.Search}}</code>{{end}}, machine <code>{{.Fingerprint}}</code>{{if .Others}} ({{.Others}} runs on other machines not shown){{end}}. The series that shifted most recently come first.</p>
{{if .Stale}}<p class="note">{{.Stale}} run(s) of this machine are not in the change points below yet (perfloop record puts them in when it stores a run); a series' own page shows them.</p>{{end}}{{end}}
<form action="/" method="get" class="search" role="search"><input type="search" name="q" value="{{.Search}}" placeholder="benchmark, package or unit" aria-label="search the series"> <button type="submit">Search</button>{{if .Search}} <a href="/">all series</a>{{end}}</form>
{{if not .Rows}}{{if .Search}}<p>No series matches <code>{{.Search}}</code>.</p>{{else}}<p>No runs recorded yet: <code>perfloop record ./...</code> stores one.</p>{{end}}{{else}}
<p class="muted">Series {{.First}}–{{.LastRow}} of {{.Index.Total}}.</p>
<table><thead><tr><th>benchmark</th><th>unit</th><th>trend</th><th class="num">now</th><th>last change</th></tr></thead><tbody>
{{range .Rows}}<tr><td><a href="{{.Href}}">{{.Name}}</a><br><span class="muted">{{.Package}}</span></td><td>{{.Unit}}</td><td>{{.Spark}}</td><td class="num">{{.Last}}</td>
<td>{{with .Change}}<span class="{{class .Delta}}">{{pct .Delta}}</span> at <code>{{printf "%.12s" .Commit}}</code>{{else}}<span class="muted">steady over {{.Points}} commits</span>{{end}}</td></tr>
{{end}}</tbody></table>
{{with .Links}}<nav class="pages" aria-label="pages">{{range .}}{{if .Current}}<strong>{{.Label}}</strong>{{else if .Href}}<a href="{{.Href}}">{{.Label}}</a>{{else}}<span>{{.Label}}</span>{{end}} {{end}}</nav>{{end}}{{end}}
</main></body></html>`))

var seriesPage = template.Must(template.New("series").Funcs(funcs).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.B.Name}} {{.B.Unit}}</title>` + head + `</head>
<body><header><a href="/">perfloop</a> {{.Module}}</header><main>
<h1>{{.B.Name}} <span class="muted">{{.B.Unit}}</span></h1>
<p class="muted">{{.B.Package}}{{if .B.Procs}}, GOMAXPROCS {{.B.Procs}}{{end}}, machine <code>{{.Fingerprint}}</code>. Each dot is a commit's median (the bar its samples' range); click one for that commit's report.</p>
{{.Chart}}
{{with .B.ChangePoints}}<h2>Change points</h2><table><thead><tr><th>commit</th><th class="num">shift</th><th class="num">before</th><th class="num">after</th><th class="num">confidence</th></tr></thead><tbody>
{{range .}}<tr><td><code>{{printf "%.12s" .Commit}}</code></td><td class="num"><span class="{{class .Delta}}">{{pct .Delta}}</span></td><td class="num">{{value .Before $.B.Unit}}</td><td class="num">{{value .After $.B.Unit}}</td><td class="num">{{printf "%.1f%%" (pctOf .Confidence)}}</td></tr>{{end}}
</tbody></table>{{end}}
<h2>Points</h2>
<form action="/diff" method="get" id="diffform"><input type="hidden" name="bench" value="{{.B.Name}}">
<p class="muted">Newest first. Diff A against B: by default the oldest point against the newest, or pick others below. <label><input type="radio" name="a" value="{{.Oldest}}" checked> A: the oldest</label> <label><input type="radio" name="b" value="{{.Newest}}" checked> B: the newest</label></p>
<table><thead><tr><th>A</th><th>B</th><th>commit</th><th>subject</th><th class="num">median</th><th class="num">range</th><th class="num">n</th></tr></thead><tbody>
{{range $p := .Points}}<tr><td><input type="radio" name="a" value="{{$p.Run}}"></td><td><input type="radio" name="b" value="{{$p.Run}}"></td>
<td><a href="/run/{{$p.Run}}"><code>{{$p.Short}}</code></a>{{with $p.Change}} <span class="{{class .Delta}}">{{pct .Delta}}</span>{{end}}</td><td>{{$p.Subject}}</td><td class="num">{{$p.Value}}</td><td class="num muted">{{$p.Range}}</td><td class="num">{{$p.N}}</td></tr>
{{end}}</tbody></table>
{{with .Links}}<nav class="pages" aria-label="pages of points">Points, page {{range .}}{{if .Current}}<strong>{{.Label}}</strong>{{else}}<a href="{{.Href}}">{{.Label}}</a>{{end}} {{end}}</nav>{{end}}
<p><button type="submit">Diff the CPU profiles of A and B</button></p></form>
<script src="/static/series.js"></script>
</main></body></html>`))

var runBar = template.Must(template.New("bar").Parse(`<link rel="stylesheet" href="/static/bar.css"><div class="perfloop-bar"><a href="/">perfloop</a> · run {{.Run.ID}} · <code>{{.Short}}</code> {{.Run.Subject}} · <span class="fp">{{.Run.FingerprintKey}}</span>{{range .Profiles}} · <a href="/run/{{$.Run.ID}}/profiles/{{.}}">{{.}}</a>{{end}}</div>`))

var runPage = template.Must(template.New("run").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>run {{.Run.ID}}</title>` + head + `</head>
<body><header><a href="/">perfloop</a> run {{.Run.ID}}</header><main>
<h1><code>{{.Short}}</code> {{.Run.Subject}}</h1>
<p class="muted">No report was recorded with this run (imported results): its benchmark results follow.</p>
<pre>{{.Results}}</pre></main></body></html>`))

var diffPage = template.Must(template.New("diff").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>diff {{.Name}}</title>` + head + `</head>
<body><header><a href="/">perfloop</a> profile diff</header><main>
<h1>{{.Name}}: <code>{{.ShortA}}</code> → <code>{{.ShortB}}</code></h1>
<p class="muted">A: {{.A.Subject}}{{if .Timed}} ({{.SecA}} sec/op){{end}}. B: {{.B.Subject}}{{if .Timed}} ({{.SecB}} sec/op){{end}}. Flat CPU per function{{if .Timed}}, as time per op (share of the profile × sec/op){{else}}, as a share of the profile{{end}}; the largest changes first.</p>
<table><thead><tr><th>function</th><th class="num">A</th><th class="num">B</th><th class="num">B − A</th></tr></thead><tbody>
{{range .Rows}}<tr><td><code>{{.Function}}</code></td><td class="num">{{.A}}</td><td class="num">{{.B}}</td><td class="num">{{.Delta}}</td></tr>{{end}}
</tbody></table></main></body></html>`))
