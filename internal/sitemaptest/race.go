//go:build race

package sitemaptest

// Race reports whether the race detector is on: it slows reading and
// inflates the heap, so heap bounds are asserted only without it.
const Race = true
