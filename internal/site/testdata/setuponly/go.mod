module example.com/setuponly

go 1.24
