//go:build race

package main

// raceEnabled reports whether the race detector is on: tests that only
// measure size then use smaller inputs, unless ROBOTSTXT_LONG is set.
const raceEnabled = true
