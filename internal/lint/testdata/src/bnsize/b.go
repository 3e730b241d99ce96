package bnsize

func Process(data []int, n int) int { return len(data) + n }
