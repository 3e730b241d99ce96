// Package render turns perfloop's documents and tables into what people
// and machines read; every command's output is rendered here:
//
//   - compare and diff: the comparison table as text (CompareText, in
//     benchstat's layout) and JSON (NewCompareJSON: perfloop.compare/v1);
//   - bench: the summary of a run (BenchSummary);
//   - profile: each benchmark's hotspots, categories and allocation sites
//     as they finish (ProfileText);
//   - report and run: report.md (Markdown), report.html (HTML with inline
//     SVG charts and flame graphs) and report.json, written together by
//     WriteFiles, and the top findings on the terminal (Summary); serve
//     renders a stored report with HTML, its style sheet and script
//     (StyleSheet, Script) linked, and its numbers with FormatValue;
//   - run: the program's figures and findings (RunText);
//   - check: the verdict as text and as a pull-request comment in Markdown
//     (CheckText, CheckMarkdown);
//   - trace: one revision's or two revisions' trace summaries (TraceText,
//     TraceCompareText);
//   - pgo, lint and history: PGOText, LintText, HistoryText;
//   - any document as indented JSON (WriteJSON).
//
// Renderers take their data and options as arguments and write to an
// io.Writer; they compute nothing that the analysis packages should, and
// names from the measured code are escaped for the format (Markdown and
// HTML show them as literal text).
package render
