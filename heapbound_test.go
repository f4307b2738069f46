package robotstxt

import "testing"

// TestParseHeapBound holds the bound the deferral of small files weighs
// against (lazy.go, lazyMax): over the real corpus, the heap that Parse
// keeps, copies of the deferred files included, is at most a quarter of
// the source, as the heap rows of cd bench && go run . report it.
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
		heap += heapPerCopy(f.data, perFile, held, Parse)
		src += float64(len(f.data))
	}
	ratio := heap / src
	t.Logf("Parse keeps %.3f× the source over %d files", ratio, len(files))
	if ratio > 0.25 {
		t.Errorf("Parse keeps %.3f× the source over the corpus, bound 0.25×", ratio)
	}
}
