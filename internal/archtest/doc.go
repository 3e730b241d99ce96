// Package archtest holds the test that keeps docs/ARCHITECTURE.md true:
// its package map names every package of the module, and its import
// claims (the fenced block marked "imports") hold for the code, as
// go list -deps reports it. A claim that drifts fails the test with the
// line of the document and what go list says instead.
package archtest
