package lint

import (
	"os"
	"path/filepath"
	"testing"
)

// sharedDir is where the corpus lives, beside the repository; tests that
// read it skip when it is absent.
const sharedDir = "../../shared"

func needShared(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(sharedDir, rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s not present: %v", p, err)
	}
	return p
}

// longTests reports whether the long sweeps run (ROBOTSTXT_LONG=1, as CI
// sets it).
func longTests() bool { return os.Getenv("ROBOTSTXT_LONG") != "" }
