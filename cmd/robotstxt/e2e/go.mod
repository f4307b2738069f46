module github.com/robotstxt-go/robotstxt/cmd/robotstxt/e2e

go 1.26.0
