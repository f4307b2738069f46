package robotstxt

import (
	"runtime"
	"testing"
)

// TestParseHeapBound holds the bound the deferral of small files weighs
// against (lazy.go, lazyMax): over the real corpus, the heap that Parse
// keeps, copies of the deferred files included, is at most a quarter of
// the source, as the heap rows of cd bench && go run . report it. Each
// file is parsed several times over and its heap averaged, so that the
// garbage a collection leaves does not count for a small file.
func TestParseHeapBound(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector inflates the heap; .ci/bounds runs this without it")
	}
	files := readCorpus(t, "real")
	const perFile = 64 << 10 // source bytes parsed per file
	held := make([]*Robots, perFile)
	var heap, src float64
	for _, f := range files {
		if len(f.data) == 0 {
			continue
		}
		k := max(1, perFile/len(f.data))
		clear(held)
		before := liveHeap()
		for i := range k {
			held[i] = Parse(f.data)
		}
		after := liveHeap()
		runtime.KeepAlive(held)
		runtime.KeepAlive(f.data)
		heap += float64(after-before) / float64(k)
		src += float64(len(f.data))
	}
	ratio := heap / src
	t.Logf("Parse keeps %.3f× the source over %d files", ratio, len(files))
	if ratio > 0.25 {
		t.Errorf("Parse keeps %.3f× the source over the corpus, bound 0.25×", ratio)
	}
}
