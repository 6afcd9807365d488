module github.com/bloomtype/bloomtype/clients/go

go 1.19
