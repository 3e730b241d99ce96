package main

// helper is in package main, but this file does not declare main.
func helper() int { return 42 }
