// Package render renders perfloop's results for people and machines: the
// compare table as text, Markdown and JSON (schema perfloop.compare/v1), and
// the run report (schema perfloop.report/v1). Renderers take their data and
// options as arguments and write to an io.Writer; they compute nothing that
// the analysis packages should.
package render
