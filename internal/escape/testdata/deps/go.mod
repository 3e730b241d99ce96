module example.com/deps

go 1.24
