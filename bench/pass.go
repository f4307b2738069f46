package main

import (
	"fmt"
	"io"
)

// probe is one question and the library's parsed file that answers it.
type probe struct {
	answer func(q *question) bool
	q      *question
}

// passOrder is one order of going through all the questions: each library
// answers every question once per timed call, so that a file's parsed form
// is touched again only after the others were (it is cold in the caches, as
// for a crawler that interleaves hosts).
type passOrder struct {
	name   string
	target bool // whether the ≥ 10× target applies to this order
	series [nLibs]*series
	n      int // questions per pass
}

// passMeasure asks every question of the files that temoto and ours both
// opened, in one long pass per library, using the parsed objects of the
// per-file measure.
type passMeasure struct {
	files  int
	orders []*passOrder
}

func newPassMeasure(q *queryMeasure, l *loop) *passMeasure {
	var files []*fileQuery
	for _, fq := range q.files {
		if fq.answer[iTemoto] != nil && fq.answer[iOurs] != nil {
			files = append(files, fq)
		}
	}
	m := &passMeasure{files: len(files)}

	// Corpus order: file by file (by name, as in corpus.tsv), each file's
	// questions in the order of corpus.tsv, then its derived questions and
	// crawled URLs.
	probes := make([][]question, len(files))
	var corpus [][2]int // file, question
	for fi, fq := range files {
		probes[fi] = fq.f.probes()
		for qi := range probes[fi] {
			corpus = append(corpus, [2]int{fi, qi})
		}
	}
	// Hosts in turn: the first question of every file, then the second of
	// every file that has one, and so on.
	var turns [][2]int
	for qi, more := 0, true; more; qi++ {
		more = false
		for fi := range files {
			if qi < len(probes[fi]) {
				turns = append(turns, [2]int{fi, qi})
				more = true
			}
		}
	}
	for _, o := range []struct {
		name   string
		order  [][2]int
		target bool
	}{
		{"corpus order (file by file)", corpus, true},
		{"hosts in turn (one question of each file, round robin)", turns, false},
	} {
		po := &passOrder{name: o.name, target: o.target, n: len(o.order)}
		for _, li := range []int{iTemoto, iOurs} {
			ps := make([]probe, len(o.order))
			for i, at := range o.order {
				ps[i] = probe{files[at[0]].answer[li], &probes[at[0]][at[1]]}
			}
			po.series[li] = newSeries(func(int) {
				for i := range ps {
					sinkBool = ps[i].answer(ps[i].q)
				}
			})
		}
		l.add(po.series[:]...)
		m.orders = append(m.orders, po)
	}
	return m
}

func (m *passMeasure) print(w io.Writer) {
	if len(m.orders) == 0 || m.orders[0].n == 0 {
		return
	}
	section(w, fmt.Sprintf("One pass over all questions of the %d files, ns/query: median (min–max) over the rounds", m.files))
	var rows [][]string
	for _, o := range m.orders {
		perQuery := func(li int) []float64 {
			s := o.series[li]
			if !s.ok() {
				return nil
			}
			v := make([]float64, len(s.samples))
			for i, x := range s.samples {
				v[i] = x / float64(o.n)
			}
			return v
		}
		r := ratios(o.series[iTemoto], o.series[iOurs])
		target := "–"
		if o.target {
			target = mark("≥ 10×", len(r) > 0 && median(r) >= 10)
		}
		rows = append(rows, []string{o.name, fmt.Sprint(o.n),
			spread(perQuery(iTemoto), fns), spread(perQuery(iOurs), fns),
			spread(r, func(x float64) string { return f3(x) + "×" }), target})
	}
	markdown(w, []string{"order", "questions", "temoto", "ours", "temoto ÷ ours (per round)", "target"}, rows)
}
