//go:build !race

package verify

// raceEnabled reports whether the race detector is on; allocation counts
// are held only without it.
const raceEnabled = false
