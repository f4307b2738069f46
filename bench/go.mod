module github.com/robotstxt-go/robotstxt/bench

go 1.26.0


require (
	github.com/jimsmart/grobotstxt v1.0.3
	github.com/robotstxt-go/robotstxt v0.0.0-20261208031824-c960448788b8
	github.com/temoto/robotstxt v1.1.2
)

require (
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)
