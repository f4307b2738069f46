package main

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"time"

	"github.com/robotstxt-go/robotstxt"
)

// grobotQuestions is how many questions of each file grobotstxt is asked
// in the allocation pass: it parses the whole file for every question.
const grobotQuestions = 8

// allocTally is one way of asking questions, over the files.
type allocTally struct {
	asked, agreed int       // questions with a known answer, and answers equal to it
	allocs        []float64 // allocs/query, one per file
	mallocs       float64   // total
	questions     int       // questions the mallocs are over
	panics        int       // files where a call panicked
}

// add counts one file: allocs/query is the smaller of passes passes over
// the first n questions, so that a malloc of the runtime that happens to
// fall in the window is not charged to the library (an allocation of the
// library repeats in every pass). When answer is non-nil, its answers are
// compared with the reference's.
func (t *allocTally) add(qs []question, n, passes int, op func(q *question), answer func(q *question) bool) {
	a := math.Inf(1)
	var p string
	for range passes {
		var ap float64
		ap, p = allocsPerCall(n, func(i int) { op(&qs[i]) })
		a = min(a, ap)
	}
	if p == "" && answer != nil {
		var asked, agreed int
		asked, agreed, p = agreement(answer, qs[:n])
		t.asked += asked
		t.agreed += agreed
	}
	if p != "" {
		t.panics++
		return
	}
	t.allocs = append(t.allocs, a)
	t.mallocs += a * float64(n)
	t.questions += n
}

// mean is the allocations per question over all files.
func (t *allocTally) mean() float64 { return t.mallocs / float64(max(t.questions, 1)) }

// allocMeasure holds the allocation pass: Allowed of each library, and ours'
// Decide and Group(agent).Allowed.
type allocMeasure struct {
	lib          [nLibs]allocTally
	decide, grup allocTally
}

// measureAllocs makes one untimed pass over the questions, on one P as
// testing.AllocsPerRun does.
func measureAllocs(q *queryMeasure) *allocMeasure {
	t0 := time.Now()
	m := &allocMeasure{}
	procs := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(procs)
	for _, fq := range q.files {
		qs := fq.f.questions
		if len(qs) == 0 {
			continue
		}
		for li := range libraries {
			answer := fq.answer[li]
			if answer == nil {
				continue
			}
			n, passes := len(qs), 2
			if li == iGrobot {
				n, passes = min(n, grobotQuestions), 1
			}
			m.lib[li].add(qs, n, passes, func(q *question) { sinkBool = answer(q) }, answer)
		}
		r := robotstxt.Parse(fq.f.data)
		m.decide.add(qs, len(qs), 2, func(q *question) { sinkDecision = r.Decide(q.agent, q.url) }, nil)
		m.grup.add(qs, len(qs), 2, func(q *question) { sinkBool = r.Group(q.agent).Allowed(q.url) }, nil)
	}
	logf("allocation pass took %v", time.Since(t0).Round(time.Millisecond))
	return m
}

var sinkDecision robotstxt.Decision

func (m *allocMeasure) rows(t *table) {
	cell := func(a *allocTally) string { return fmt.Sprintf("%s; %s", f3(median(a.allocs)), f3(a.mean())) }
	mT, mO := m.lib[iTemoto].mean(), m.lib[iOurs].mean()
	t.row("Allowed, allocs/query (median per file; mean)",
		cell(&m.lib[iTemoto]), cell(&m.lib[iGrobot]), cell(&m.lib[iOurs]),
		fmt.Sprintf("%s vs %s", f3(mO), f3(mT)), "0", mO == 0 && m.lib[iOurs].questions > 0)
	t.row("Decide; Group(agent).Allowed, allocs/query (mean)", "–", "–",
		fmt.Sprintf("%s; %s", f3(m.decide.mean()), f3(m.grup.mean())), "–", "0",
		m.decide.mean() == 0 && m.grup.mean() == 0 && m.decide.questions > 0 && m.decide.panics+m.grup.panics == 0)
	agree := func(li int) string {
		tl := m.lib[li]
		if tl.asked == 0 {
			return "–"
		}
		return fmt.Sprintf("%.2f%% of %d", 100*float64(tl.agreed)/float64(tl.asked), tl.asked)
	}
	o := m.lib[iOurs]
	t.row("Answers equal to Google's reference (corpus.tsv)",
		agree(iTemoto), agree(iGrobot), agree(iOurs), "–", "100%", o.asked > 0 && o.agreed == o.asked)
}

func (m *allocMeasure) notes(w io.Writer) {
	fmt.Fprintf(w, "- grobotstxt's allocs and agreement are over the first %d questions of each file (it re-parses the file for each).\n", grobotQuestions)
}
