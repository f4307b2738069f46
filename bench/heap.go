package main

import (
	"fmt"
	"io"
	"time"
)

// heapTally collects the retained heap of one way of building a parsed
// object, over the files.
type heapTally struct {
	perFile    []float64 // heap bytes per source byte, one per file
	bytes, src float64   // totals, for the whole-corpus ratio
	errs       int       // files the builder returned an error for
}

// add measures one file; see retainedPerByte.
func (h *heapTally) add(build func([]byte) (any, error), data []byte, holder []any, target int) {
	ratio, err := retainedPerByte(build, data, holder, target)
	if err != nil {
		h.errs++
		return
	}
	h.perFile = append(h.perFile, ratio)
	h.bytes += ratio * float64(len(data))
	h.src += float64(len(data))
}

// median is the median per file of heap bytes per source byte.
func (h *heapTally) median() float64 { return median(h.perFile) }

// whole is the heap of all files over their source bytes.
func (h *heapTally) whole() float64 { return h.bytes / h.src }

// heapMeasure is the heap that each library's parsed object keeps alive.
type heapMeasure struct {
	lib [nLibs]heapTally
}

// measureHeap measures the libraries that keep a parsed object. It is
// meant to run first, while the live heap is small (the corpus bytes, which
// hold no pointers), so that each of its many full collections is quick.
func measureHeap(real []*file, target int) *heapMeasure {
	t0 := time.Now()
	h := &heapMeasure{}
	holder := make([]any, 256)
	for _, f := range real {
		if len(f.data) == 0 {
			continue
		}
		for li, lib := range libraries {
			if lib.parse != nil {
				h.lib[li].add(lib.parse, f.data, holder, target)
			}
		}
	}
	logf("retained-heap pass took %v", time.Since(t0).Round(time.Millisecond))
	return h
}

func (h *heapMeasure) rows(t *table) {
	hT, hO := h.lib[iTemoto].median(), h.lib[iOurs].median()
	t.row("Heap retained / source bytes, median per file",
		f3(hT)+"×", "n/a (keeps no parsed object)", f3(hO)+"×", lowerBetter(hO, hT, "smaller"), "≤ 1.2× source", hO <= 1.2)
	wT, wO := h.lib[iTemoto].whole(), h.lib[iOurs].whole()
	t.row("Heap retained / source bytes, whole corpus",
		f3(wT)+"×", "n/a", f3(wO)+"×", lowerBetter(wO, wT, "smaller"), "≤ 0.25× source", wO <= 0.25)
}

func (h *heapMeasure) notes(w io.Writer) {
	if n := h.lib[iTemoto].errs; n > 0 {
		fmt.Fprintf(w, "- Heap: temoto returned an error (and no rules) for %d of %d non-empty files; they are left out of its heap rows.\n",
			n, n+len(h.lib[iTemoto].perFile))
	}
}
