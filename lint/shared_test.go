package lint

import (
	"testing"

	"github.com/robotstxt-go/robotstxt/internal/sharedtest"
)

// sharedDir is where the corpus lives, beside the repository; tests that
// read it skip when it is absent, and fail under CI.
var sharedDir = sharedtest.Dir()

func needShared(t testing.TB, rel string) string { return sharedtest.Need(t, rel) }

func sharedPath(t testing.TB, rel string) string { return sharedtest.Path(t, rel) }

// longTests reports whether the long sweeps run (ROBOTSTXT_LONG=1, as CI
// sets it).
func longTests() bool { return sharedtest.Long() }
