// Package journeys runs the crawlers the README describes, written from it
// alone, over local origins with real sockets: a net/http worker pool and
// colly v2 with its defaults, the latter also reading each page's own rules
// (X-Robots-Tag, robots meta tags, Content-Usage). It is a module of its own
// so that colly never enters the library's go.mod.
package journeys
