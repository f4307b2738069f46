// Package journeys runs the crawlers the README describes, written from it
// alone, over local origins with real sockets: a net/http worker pool and
// colly v2 with its defaults, the latter also reading each page's own rules
// (X-Robots-Tag, robots meta tags, Content-Usage); and both with a pool of
// workers over a slow and a fast origin, timed, to hold that no worker
// waits behind the slow one while the fast one has a turn free. It is a
// module of its own so that colly never enters the library's go.mod.
package journeys
