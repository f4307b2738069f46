//go:build !race

package robotstxt

// raceEnabled reports whether the race detector is on: under it,
// sync.Pool drops some of what is put in it, so a test of allocations
// that relies on the pool holding the parse's working space cannot hold.
const raceEnabled = false
