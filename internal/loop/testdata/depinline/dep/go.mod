module example.com/dep

go 1.24
