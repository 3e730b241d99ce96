module example.com/fixers

go 1.24
