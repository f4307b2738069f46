//go:build !race

package aiuse

// raceEnabled reports whether the race detector is on: it adds
// allocations of its own, so the allocation bounds are held without it.
const raceEnabled = false
