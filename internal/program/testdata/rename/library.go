package lib

// main is not special outside package main.
func main() {}
