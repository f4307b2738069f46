// Package sharedtest finds, for tests, what lies beside the repository in
// ../shared: the conformance answers and the corpus. Tests that read them
// skip when they are absent, as in a fresh clone, and fail when the
// environment variable CI is set: CI has ../shared, and a sweep that did
// not run is no pass.
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

// Need returns the path of rel inside Dir. When it is not there the test
// skips, or fails under CI.
func Need(t testing.TB, rel string) string {
	t.Helper()
	p, err := have(rel)
	if err != nil {
		absent(t, err)
		t.Skipf("%v: the test needs it", err)
	}
	return p
}

// Path returns the path of rel inside Dir, for a test that reads more
// inputs from it when it is there. When it is not there the test goes on
// (reading the path then finds nothing), or fails under CI.
func Path(t testing.TB, rel string) string {
	t.Helper()
	p, err := have(rel)
	if err != nil {
		absent(t, err)
		t.Logf("%v: running without it", err)
	}
	return p
}

func have(rel string) (string, error) {
	p := filepath.Join(Dir(), rel)
	_, err := os.Stat(p)
	return p, err
}

// absent fails the test under CI, where ../shared must be present.
func absent(t testing.TB, err error) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("%v: CI is set, and CI must run this test with ../shared beside the repository", err)
	}
}

// Long reports whether the long sweeps run (ROBOTSTXT_LONG=1, as CI sets
// it).
func Long() bool { return os.Getenv("ROBOTSTXT_LONG") != "" }
