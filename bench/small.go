package main

import (
	"fmt"
	"math"
)

// smallMax is the size up to which a real file counts as small: three
// quarters of the real files are, and most robots.txt files a crawler meets.
const smallMax = 4096

// smallQuestions is the number of questions w2 asks a file.
const smallQuestions = 20

// smallMeasure times the two workloads of a crawler that visits many
// origins, on the real files of at most smallMax bytes, one pass over all
// of them per timed call (so that each file is cold in the caches, as in
// the pass of pass.go):
//
//   - w1: each file parsed and asked once whether Googlebot may fetch
//     https://<host>/;
//   - w2: each file parsed once and asked smallQuestions questions: its
//     questions (corpus.tsv's, else derived ones, then crawled URLs), the
//     first smallQuestions of them, repeated when it has fewer.
//
// Ours: Parse then Allowed; temoto: FromBytes then TestAgent with the path
// cut beforehand; grobotstxt (a port of Google's C++ parser, which parses
// the body at every question): AgentAllowed per question. Files temoto
// rejects are left out for all three.
type smallMeasure struct {
	files, bytes int
	w1, w2       [nLibs]*series
}

// smallWork is one file of the small set and its questions.
type smallWork struct {
	data []byte
	qs   []question // w2's; qs[0] is w1's
}

// smallSet returns the small files of real with their questions, as
// smallMeasure asks them, and their bytes in all.
func smallSet(real []*file) (work []smallWork, bytes int) {
	for _, f := range real {
		if len(f.data) > smallMax {
			continue
		}
		if _, _, err := temotoLib.openPath(f.data); err != nil {
			continue
		}
		all := f.probes()
		if len(all) == 0 {
			continue
		}
		w := smallWork{data: f.data}
		w.qs = append(w.qs, newQuestion("Googlebot", "https://example.com/", true))
		for k := 0; len(w.qs) < 1+smallQuestions; k++ {
			q := all[k%len(all)]
			q.path = requestURI(q.url)
			w.qs = append(w.qs, q)
		}
		w.qs[0].path = "/"
		work = append(work, w)
		bytes += len(f.data)
	}
	return work, bytes
}

func newSmallMeasure(real []*file, l *loop) *smallMeasure {
	m := &smallMeasure{}
	work, bytes := smallSet(real)
	m.bytes = bytes
	m.files = len(work)
	if m.files == 0 {
		return m
	}
	// open parses and returns the function that answers; for grobotstxt
	// it only keeps the body.
	open := map[int]func([]byte) (any, func(*question) bool, error){
		iOurs:   ours.open,
		iTemoto: temotoLib.openPath,
		iGrobot: grobotstxtLib.open,
	}
	for li := range nLibs {
		o := open[li]
		m.w1[li] = newSeries(func(int) {
			for i := range work {
				_, answer, _ := o(work[i].data)
				sinkBool = answer(&work[i].qs[0])
			}
		})
		m.w2[li] = newSeries(func(int) {
			for i := range work {
				_, answer, _ := o(work[i].data)
				qs := work[i].qs[1:]
				for k := range qs {
					sinkBool = answer(&qs[k])
				}
			}
		})
	}
	l.add(m.w1[:]...)
	l.add(m.w2[:]...)
	return m
}

// rows adds the small-file rows to the main table: per library the median
// time per file (w1) and per question (w2), and ours against grobotstxt,
// the stand-in for Google's C++ parser, per round.
func (m *smallMeasure) rows(t *table) {
	if m.files == 0 {
		return
	}
	per := func(s *series, n int) float64 {
		if !s.ok() {
			return math.NaN()
		}
		return s.median() / float64(n)
	}
	for _, w := range []struct {
		name   string
		s      [nLibs]*series
		n      int
		target float64
	}{
		{fmt.Sprintf("Small files w1: parse + 1 question, ns/file (%d real files ≤ 4 KiB, %.0f B mean)", m.files, float64(m.bytes)/float64(m.files)), m.w1, m.files, smallW1Target},
		{fmt.Sprintf("Small files w2: parse + %d questions, ns/question", smallQuestions), m.w2, m.files * smallQuestions, smallW2Target},
	} {
		rg := ratios(w.s[iGrobot], w.s[iOurs])
		g := median(rg)
		t.row(w.name,
			fns(per(w.s[iTemoto], w.n)), fns(per(w.s[iGrobot], w.n)),
			fmt.Sprintf("%s (%s grobotstxt)", fns(per(w.s[iOurs], w.n)), spread(rg, func(x float64) string { return f3(x) + "×" })),
			higherBetter(1/per(w.s[iOurs], w.n), 1/per(w.s[iTemoto], w.n), "faster"),
			fmt.Sprintf("≥ %.0f× grobotstxt", w.target), len(rg) > 0 && g >= w.target)
	}
}

// The small-file targets against grobotstxt. They stand for 2× Google's
// C++ parser in w1 and 25× in w2: grobotstxt runs w1 at 0.37 to 0.40 times
// the speed of Google's C++ parser (../../shared/tools/cppspeed), so 2×
// Google is about 5× grobotstxt, and 25× about 65×.
const (
	smallW1Target = 5
	smallW2Target = 65
)
