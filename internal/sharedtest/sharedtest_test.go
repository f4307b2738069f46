package sharedtest

import (
	"fmt"
	"testing"
)

// recorder stands in for a test and records how it ended: the first of
// Fatalf and Skipf (the real ones stop the test there).
type recorder struct {
	testing.TB
	ended string
}

func (r *recorder) Helper()             {}
func (r *recorder) Logf(string, ...any) {}
func (r *recorder) Fatalf(f string, a ...any) {
	if r.ended == "" {
		r.ended = "failed: " + fmt.Sprintf(f, a...)
	}
}
func (r *recorder) Skipf(f string, a ...any) {
	if r.ended == "" {
		r.ended = "skipped: " + fmt.Sprintf(f, a...)
	}
}

// TestAbsentFailsUnderCI: a test that needs a part of ../shared that is
// not there skips in a fresh clone and fails under CI, which must run it;
// one that only reads more inputs from it goes on in a fresh clone.
func TestAbsentFailsUnderCI(t *testing.T) {
	const missing = "no such part of shared"
	for _, c := range []struct {
		ci       string
		need     bool
		wantEnd  string // "failed", "skipped" or "" (goes on)
		whyCheck string
	}{
		{"", true, "skipped", "a fresh clone has no ../shared: the test says so and skips"},
		{"true", true, "failed", "CI runs beside ../shared: a missing part is a failure, not a skip"},
		{"", false, "", "a test with inputs of its own runs without ../shared"},
		{"true", false, "failed", "under CI the extra inputs must be there"},
	} {
		t.Setenv("CI", c.ci)
		r := &recorder{TB: t}
		if c.need {
			Need(r, missing)
		} else {
			Path(r, missing)
		}
		end := r.ended
		if i := len(c.wantEnd); i > 0 && len(end) >= i {
			end = end[:i]
		}
		if end != c.wantEnd {
			t.Errorf("CI=%q need=%v: ended %q, want %q: %s", c.ci, c.need, r.ended, c.wantEnd, c.whyCheck)
		}
	}
}
