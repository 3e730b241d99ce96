module example.com/ownwork

go 1.24
