module github.com/perfloop/perfloop

go 1.24.0

require (
	github.com/google/pprof v0.0.0-20260709232956-b9395ee17fa0
	github.com/rogpeppe/go-internal v1.14.1
	github.com/schollz/progressbar/v3 v3.18.0
	golang.org/x/perf v0.0.0-20250813145418-2f7363a06fe1
	golang.org/x/sys v0.41.0
	golang.org/x/term v0.40.0
	golang.org/x/tools v0.42.0
)

require (
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
)
