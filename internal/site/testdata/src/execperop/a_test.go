package execperop

import (
	"flag"
	"os/exec"
	"testing"
)

var binPath = flag.String("binPath", "./tool", "path to the tool")

func runBenchmark(b *testing.B, name string) {
	for n := 0; n < b.N; n++ {
		cmd := exec.Command(*binPath, "./testdata/"+name)
		if err := cmd.Run(); err != nil {
			b.Fail()
		}
	}
}

func BenchmarkSubstr(b *testing.B) {
	runBenchmark(b, "substr") // want `BenchmarkSubstr runs a command per op \(exec.Command\(\*binPath, "./testdata/" \+ name\) at line 13, through runBenchmark\): each op starts a child process, start-up included, whose work the benchmark's profile does not see`
}

func BenchmarkDirect(b *testing.B) {
	for b.Loop() {
		out, _ := exec.Command("true").Output() // want `BenchmarkDirect runs a command per op \(exec.Command\("true"\) at line 26\)`
		_ = out
	}
}

// BenchmarkOnce starts the command once, before the loop: not per op.
func BenchmarkOnce(b *testing.B) {
	_ = exec.Command("true").Run()
	for b.Loop() {
		_ = len(*binPath)
	}
}
