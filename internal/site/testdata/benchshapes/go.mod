module example.com/benchshapes

go 1.24
