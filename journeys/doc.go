// Package journeys runs the crawlers the README describes, written from it
// alone, over local origins with real sockets: a net/http worker pool and
// colly v2 with its defaults. It is a module of its own so that colly never
// enters the library's go.mod.
package journeys
