//go:build race

package aiuse

const raceEnabled = true
