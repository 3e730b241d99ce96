package bufout

import (
	"fmt"
	"os"
	"strconv"
)

// Lines prints n numbered lines: one write system call per line.
func Lines(n int) {
	for i := range n {
		fmt.Fprintln(os.Stdout, "line", i) // want `the loop writes to os.Stdout without a buffer \(fmt.Fprintln\)`
	}
}

// Table prints through fmt.Printf and fmt.Println, and returns early: the
// buffer is flushed before the return as well as after the loop.
func Table(rows [][]string) int {
	n := 0
	for _, r := range rows {
		if len(r) == 0 {
			return n
		}
		fmt.Printf("%s:", r[0]) // want `the loop writes to os.Stdout without a buffer \(fmt.Printf\)`
		for _, c := range r[1:] {
			fmt.Print(" ", c)
		}
		fmt.Println()
		n++
	}
	return n
}

// Raw writes bytes to os.Stdout and exits with status 1 on a bad one:
// flushed before os.Exit.
func Raw(xs []int) {
	var b []byte
	for _, x := range xs {
		if x < 0 {
			os.Exit(1)
		}
		b = strconv.AppendInt(b[:0], int64(x), 10)
		b = append(b, '\n')
		os.Stdout.Write(b) // want `the loop writes to os.Stdout without a buffer \(os.Stdout.Write\)`
	}
}

// Labeled leaves its outer loop by a labeled break: the buffer is made
// before the labeled loop and flushed after it.
func Labeled(rows [][]int) {
outer:
	for _, r := range rows {
		for _, x := range r {
			if x < 0 {
				break outer
			}
			fmt.Println(x) // want `the loop writes to os.Stdout without a buffer \(fmt.Println\)`
		}
	}
	fmt.Println("end")
}
