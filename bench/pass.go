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
	// temotoPath is temoto asked with each question's path cut from its
	// URL beforehand, outside the timed call: a crawler that holds a parsed
	// URL has the path already. series[iTemoto] charges the net/url parse
	// to temoto's call, as for a crawler that holds the URL as a string.
	temotoPath *series
	n          int // questions per pass
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
	byPath := make([]func(q *question) bool, len(files))
	for fi, fq := range files {
		// temoto opened each of these files in the per-file measure, so
		// it opens them here too.
		byPath[fi], _ = temotoLib.openPath(fq.f.data)
	}

	// Corpus order: file by file (by name, as in corpus.tsv), each file's
	// questions in the order of corpus.tsv, then its derived questions and
	// crawled URLs.
	probes := make([][]question, len(files))
	var corpus, tsv [][2]int // file, question
	for fi, fq := range files {
		probes[fi] = fq.f.probes()
		for qi := range probes[fi] {
			probes[fi][qi].path = requestURI(probes[fi][qi].url)
			corpus = append(corpus, [2]int{fi, qi})
			if qi < len(fq.f.questions) {
				tsv = append(tsv, [2]int{fi, qi})
			}
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
		// The questions of corpus.tsv alone, in its order: about a
		// third of the questions above, without the derived ones and
		// the crawled URL lists (see README.md, "corpus.tsv alone").
		{"corpus order, corpus.tsv questions alone", tsv, true},
		{"hosts in turn (one question of each file, round robin)", turns, false},
	} {
		po := &passOrder{name: o.name, target: o.target, n: len(o.order)}
		pass := func(answer func(fi int) func(q *question) bool) *series {
			ps := make([]probe, len(o.order))
			for i, at := range o.order {
				ps[i] = probe{answer(at[0]), &probes[at[0]][at[1]]}
			}
			return newSeries(func(int) {
				for i := range ps {
					sinkBool = ps[i].answer(ps[i].q)
				}
			})
		}
		for _, li := range []int{iTemoto, iOurs} {
			po.series[li] = pass(func(fi int) func(q *question) bool { return files[fi].answer[li] })
		}
		po.temotoPath = pass(func(fi int) func(q *question) bool { return byPath[fi] })
		l.add(po.series[iTemoto], po.temotoPath, po.series[iOurs])
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
		perQuery := func(s *series) []float64 {
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
		rp := ratios(o.temotoPath, o.series[iOurs])
		target := "–"
		if o.target {
			target = mark("≥ 10× temoto given the path", len(rp) > 0 && median(rp) >= 10)
		}
		times := func(x float64) string { return f3(x) + "×" }
		rows = append(rows, []string{o.name, fmt.Sprint(o.n),
			spread(perQuery(o.series[iTemoto]), fns), spread(perQuery(o.temotoPath), fns), spread(perQuery(o.series[iOurs]), fns),
			spread(r, times), spread(rp, times), target})
	}
	markdown(w, []string{"order", "questions", "temoto (URL, net/url in the call)", "temoto (path given)", "ours",
		"temoto ÷ ours (per round)", "temoto given the path ÷ ours (per round)", "target"}, rows)
}
