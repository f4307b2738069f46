module github.com/robotstxt-go/robotstxt

go 1.26.0
