// Package sharedtest finds, for tests, what lies beside the repository in
// ../shared: the conformance answers and the corpus. Tests that read them
// skip when they are absent, as in a fresh clone.
package sharedtest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the directory ../shared beside the repository: the parent of
// the nearest directory, from the working directory up, whose go.mod is
// the library's. It returns "../shared" relative to the working directory
// when none is found.
func Dir() string {
	dir, err := os.Getwd()
	for err == nil {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil &&
			bytes.HasPrefix(b, []byte("module github.com/robotstxt-go/robotstxt\n")) {
			return filepath.Join(filepath.Dir(dir), "shared")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return filepath.Join("..", "shared")
}

// Need returns the path of rel inside Dir, and skips the test when it is
// not there.
func Need(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(Dir(), rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s not present: %v", p, err)
	}
	return p
}

// Long reports whether the long sweeps run (ROBOTSTXT_LONG=1, as CI sets
// it).
func Long() bool { return os.Getenv("ROBOTSTXT_LONG") != "" }
