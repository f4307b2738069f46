package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/robotstxt-go/robotstxt"
	temoto "github.com/temoto/robotstxt"
)

// crawlerOrder names the crawler-like pass, the order the ≥ 10× target is
// held against.
const crawlerOrder = "crawler-like: corpus.tsv's questions, corpus order"

// crawlerQuestions returns the questions the crawler-like pass asks about
// f: its corpus.tsv rows, none when temoto cannot open f (the pass asks
// only the files both libraries opened).
func crawlerQuestions(f *file) []question {
	if _, _, err := temotoLib.open(f.data); err != nil {
		return nil
	}
	return f.questions
}

// oursRow is a question of a pass and ours' parsed file that answers it.
type oursRow struct {
	r          *robotstxt.Robots
	agent, url string
}

// temotoRow is a question of a pass and temoto's parsed file that answers
// it; at is the URL, or the path cut from it beforehand.
type temotoRow struct {
	r         *temoto.RobotsData
	agent, at string
}

// passOrder is one order of going through all the questions: each library
// answers every question once per timed call, so that a file's parsed form
// is touched again only after the others were (it is cold in the caches, as
// for a crawler that interleaves hosts).
type passOrder struct {
	name   string
	target bool // whether passTarget applies to this order
	series [nLibs]*series
	// temotoPath is temoto asked with each question's path cut from its
	// URL beforehand, outside the timed call: a crawler that holds a parsed
	// URL has the path already. series[iTemoto] charges the net/url parse
	// to temoto's call, as for a crawler that holds the URL as a string.
	temotoPath *series
	n          int // questions per pass

	// The rows each pass goes through (see oursRow, temotoRow): temoto's
	// with the URL, and with the path.
	oursRows           []oursRow
	temotoRows, atPath []temotoRow
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
	byPath := make([]*temoto.RobotsData, len(files))
	for fi, fq := range files {
		// temoto opened each of these files in the per-file measure, so
		// it opens them here too.
		obj, _, _ := temotoLib.openPath(fq.f.data)
		byPath[fi] = obj.(*temoto.RobotsData)
	}

	// Corpus order: file by file (by name, as in corpus.tsv), each file's
	// questions in the order of corpus.tsv, then its derived questions and
	// crawled URLs; and the same order cut into those three kinds.
	probes := make([][]question, len(files))
	var corpus, tsv, derived, crawled [][2]int // file, question
	for fi, fq := range files {
		probes[fi] = fq.f.probes()
		nq, nd := len(fq.f.questions), len(fq.f.derived)
		for qi := range probes[fi] {
			probes[fi][qi].path = requestURI(probes[fi][qi].url)
			at := [2]int{fi, qi}
			corpus = append(corpus, at)
			switch {
			case qi < nq:
				tsv = append(tsv, at)
			case qi < nq+nd:
				derived = append(derived, at)
			default:
				crawled = append(crawled, at)
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
		// The crawler-like pass: every (file, agent, URL) row of
		// corpus.tsv in its order, the questions whose mix a program
		// outside this module asks (see README.md, "The crawler-like
		// pass"). The target applies to it alone.
		{crawlerOrder, tsv, true},
		// The other two kinds of question, each alone, and everything:
		// they show how the mix moves the ratio.
		{"derived questions alone (files corpus.tsv lacks), corpus order", derived, false},
		{"crawled URLs alone (as Googlebot), corpus order", crawled, false},
		{"all questions, corpus order (file by file)", corpus, false},
		{"all questions, hosts in turn (one question of each file, round robin)", turns, false},
	} {
		if len(o.order) == 0 {
			continue
		}
		po := &passOrder{name: o.name, target: o.target, n: len(o.order)}
		// Each pass is a list of rows, one a question, each with the
		// library's object for its file, and calls the library directly,
		// as a program that holds its questions and parsed files does.
		oursRows := make([]oursRow, len(o.order))
		temotoRows := make([]temotoRow, len(o.order))
		pathRows := make([]temotoRow, len(o.order))
		po.oursRows, po.temotoRows, po.atPath = oursRows, temotoRows, pathRows
		for i, at := range o.order {
			fq, q := files[at[0]], &probes[at[0]][at[1]]
			oursRows[i] = oursRow{fq.obj[iOurs].(*robotstxt.Robots), q.agent, q.url}
			temotoRows[i] = temotoRow{fq.obj[iTemoto].(*temoto.RobotsData), q.agent, q.url}
			pathRows[i] = temotoRow{byPath[at[0]], q.agent, q.path}
		}
		po.series[iOurs] = newSeries(func(int) {
			for i := range oursRows {
				sinkBool = oursRows[i].r.Allowed(oursRows[i].agent, oursRows[i].url)
			}
		})
		po.series[iTemoto] = newSeries(func(int) {
			for i := range temotoRows {
				sinkBool = temotoRows[i].r.TestAgent(requestURI(temotoRows[i].at), temotoRows[i].agent)
			}
		})
		po.temotoPath = newSeries(func(int) {
			for i := range pathRows {
				sinkBool = pathRows[i].r.TestAgent(pathRows[i].at, pathRows[i].agent)
			}
		})
		l.add(po.series[iTemoto], po.temotoPath, po.series[iOurs])
		m.orders = append(m.orders, po)
	}
	return m
}

// passTarget is the pass's target, checked on the median of the per-round
// ratios of temoto given the path over ours.
const passTarget = "≥ 10× temoto given the path"

func passMet(rp []float64) bool { return len(rp) > 0 && median(rp) >= 10 }

// perQuery returns a series' samples as ns per question, one per round.
func (o *passOrder) perQuery(s *series) []float64 {
	if !s.ok() {
		return nil
	}
	v := make([]float64, len(s.samples))
	for i, x := range s.samples {
		v[i] = x / float64(o.n)
	}
	return v
}

// order returns the pass order of that name, or nil.
func (m *passMeasure) order(name string) *passOrder {
	for _, o := range m.orders {
		if o.name == name {
			return o
		}
	}
	return nil
}

// rows adds the crawler-like pass to the main table: ns per question of
// temoto given the path and of ours (medians over the rounds), and the
// ratio taken per round, its median checked against the target.
func (m *passMeasure) rows(t *table) {
	o := m.order(crawlerOrder)
	if o == nil {
		return
	}
	rp := ratios(o.temotoPath, o.series[iOurs])
	ratio := "–"
	if len(rp) > 0 {
		ratio = fmt.Sprintf("%s× faster (%s×–%s× over the rounds)", f3(median(rp)), f3(slices.Min(rp)), f3(slices.Max(rp)))
	}
	t.row(fmt.Sprintf("Crawler-like pass: corpus.tsv's %s questions in corpus order, ns/question (temoto given the path)", commas(o.n)),
		fns(median(o.perQuery(o.temotoPath))), "–", fns(median(o.perQuery(o.series[iOurs]))),
		ratio, passTarget, passMet(rp))
}

func (m *passMeasure) print(w io.Writer) {
	if len(m.orders) == 0 {
		return
	}
	section(w, fmt.Sprintf("One pass over all questions of the %d files, ns/query: median (min–max) over the rounds", m.files))
	var rows [][]string
	for _, o := range m.orders {
		r := ratios(o.series[iTemoto], o.series[iOurs])
		rp := ratios(o.temotoPath, o.series[iOurs])
		target := "–"
		if o.target {
			target = mark(passTarget, passMet(rp))
		}
		times := func(x float64) string { return f3(x) + "×" }
		rows = append(rows, []string{o.name, commas(o.n),
			spread(o.perQuery(o.series[iTemoto]), fns), spread(o.perQuery(o.temotoPath), fns), spread(o.perQuery(o.series[iOurs]), fns),
			spread(r, times), spread(rp, times), target})
	}
	markdown(w, []string{"order", "questions", "temoto (URL, net/url in the call)", "temoto (path given)", "ours",
		"temoto ÷ ours (per round)", "temoto given the path ÷ ours (per round)", "target"}, rows)
}
