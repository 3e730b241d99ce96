// Package main has a method named main, a comment and a string that say
// "func main", and main declared after them.
package main

import "fmt"

type server struct{}

// main is a method, not the program's entry point: func main() {}
func (server) main() { fmt.Println("func main() {") }

var mainName = "main"

func main() { server{}.main(); fmt.Println(mainName) }

func mainly() {}
