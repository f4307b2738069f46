package robotstxt

import (
	"sync"
	"testing"
)

// TestLater holds the one "first does without, second builds" mechanism
// that a deferred parse and a group's index share (later.go).
func TestLater(t *testing.T) {
	asked := new(int)
	builds := 0
	build := func() *int { builds++; v := builds; return &v }

	var s later[int]
	if s.load(asked) != nil || s.get(asked, true, build) != nil || builds != 0 {
		t.Fatal("the first cheap ask built, or found a value")
	}
	if s.load(asked) != nil {
		t.Fatal("the sentinel was read as a value")
	}
	v := s.get(asked, true, build)
	if v == nil || *v != 1 || s.load(asked) != v || s.get(asked, false, build) != v || builds != 1 {
		t.Fatal("the second ask did not build once and keep the value")
	}

	var always later[int]
	if x := always.get(asked, false, build); x == nil || *x != 2 {
		t.Fatal("an ask that is not cheap did not build at once")
	}

	// A build that finds the value stored meanwhile returns nil: get loads
	// the stored one.
	var raced later[int]
	stored := new(int)
	if x := raced.get(asked, false, func() *int { raced.p.Store(stored); return nil }); x != stored {
		t.Fatal("a build that returned nil did not load the stored value")
	}

	// Queries that race keep one value.
	var shared later[int]
	shared.get(asked, true, build)
	got := make([]*int, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i] = shared.get(asked, true, func() *int { return new(int) }) })
	}
	wg.Wait()
	for _, x := range got {
		if x == nil || x != got[0] {
			t.Fatal("racing asks kept different values")
		}
	}
}
