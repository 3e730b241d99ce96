package bufout

import (
	"fmt"
	"log"
	"os"
	"os/exec"
	"sync"
)

// Progress writes to stderr between the lines: buffered, stdout's lines
// would come after the progress they now precede on a terminal.
func Progress(n int) {
	for i := range n {
		fmt.Println(i)
		fmt.Fprintf(os.Stderr, "%d done\n", i)
	}
}

// Logged logs between the lines (log writes to stderr).
func Logged(n int) {
	for i := range n {
		fmt.Println(i)
		log.Printf("%d", i)
	}
}

// Panics leaves the loop by a panic: the buffered lines would be lost.
func Panics(xs []int) {
	for _, x := range xs {
		if x < 0 {
			panic("negative")
		}
		fmt.Println(x)
	}
}

// Helper prints through a function of the package too: its writes would
// overtake the buffered ones.
func Helper(xs []int) {
	for _, x := range xs {
		fmt.Println(x)
		footer(x)
	}
}

func footer(x int) { fmt.Fprintln(os.Stdout, "--", x) }

// Exiter calls a function of the package that exits: the buffer would
// not be flushed.
func Exiter(xs []int) {
	for _, x := range xs {
		fmt.Println(x)
		check(x)
	}
}

func check(x int) {
	if x < 0 {
		os.Exit(2)
	}
}

// Subprocess runs a command that writes to the same stdout.
func Subprocess(names []string) {
	for _, n := range names {
		fmt.Println("==", n)
		cmd := exec.Command("echo", n)
		cmd.Stdout = os.Stdout
		_ = cmd.Run()
	}
}

// Goroutines write to stdout from another goroutine.
func Goroutines(n int) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		fmt.Println("from the goroutine")
	}()
	for i := range n {
		fmt.Println(i)
	}
	wg.Wait()
}

// Handed passes os.Stdout on to something else in the loop.
func Handed(xs []string) {
	for _, x := range xs {
		fmt.Println(x)
		fmt.Fprint(writer(os.Stdout), x)
	}
}

func writer(f *os.File) *os.File { return f }

// Skips leaves the inner loop, which prints, for the next row of the
// outer one, which writes to stderr: nothing after the inner loop would
// flush on that path.
func Skips(rows [][]int) {
outer:
	for i, r := range rows {
		fmt.Fprintln(os.Stderr, "row", i)
		for _, x := range r {
			if x < 0 {
				continue outer
			}
			fmt.Println(x)
		}
	}
}

// ClosureWrites defers a write in a function literal made in the loop.
func ClosureWrites(xs []int) {
	var later []func()
	for _, x := range xs {
		fmt.Println(x)
		later = append(later, func() { fmt.Println("later", x) })
	}
	for _, f := range later {
		f()
	}
}

// Errors returns the write's error where it happens: buffered, the
// error would come from a Flush, after the loop, and this path would
// never run.
func Errors(words []string) error {
	for _, w := range words {
		if _, err := os.Stdout.WriteString(w + "\n"); err != nil {
			return err
		}
	}
	return nil
}
