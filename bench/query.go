package main

import (
	"fmt"
	"io"
	"strings"
)

// fileQuery holds one real file that has questions: each library's parsed
// form of it, and the series that ask it the file's questions in turn.
type fileQuery struct {
	f       *file
	answer  [nLibs]func(q *question) bool // nil when the library could not open the file
	obj     [nLibs]any                    // what the library keeps for the file (see library.open)
	query   [nLibs]*series                // corpus.tsv's questions; nil without them
	extra   [nLibs]*series                // the derived questions and crawled URLs, temoto and ours only; nil without them
	openErr [nLibs]error
}

// answered reports whether the listed libraries all have a measurement of
// the file's corpus.tsv questions.
func (fq *fileQuery) answered(libs ...int) bool {
	for _, li := range libs {
		if !fq.query[li].ok() {
			return false
		}
	}
	return true
}

// allProbes returns a library's ns/query over all the file's questions
// (corpus.tsv's and the extra ones, weighted by their numbers), and false
// when a part of them is not measured.
func (fq *fileQuery) allProbes(li int) (float64, bool) {
	var ns float64
	for _, part := range []struct {
		s *series
		n int
	}{{fq.query[li], len(fq.f.questions)}, {fq.extra[li], len(fq.f.derived) + len(fq.f.crawled)}} {
		if part.n == 0 {
			continue
		}
		if !part.s.ok() {
			return 0, false
		}
		ns += part.s.median() * float64(part.n)
	}
	return ns / float64(len(fq.f.probes())), true
}

// queryMeasure times Allowed per file: a batch asks the file's questions
// one after the other, so within a series the file is warm in the caches.
// The interleaved pass (pass.go) asks the same questions cold. The
// corpus.tsv questions and the extra ones (derived questions and crawled
// URLs) are separate series, so that the rows of the main table are over
// corpus.tsv alone.
type queryMeasure struct {
	files []*fileQuery
}

func newQueryMeasure(real []*file, l *loop) *queryMeasure {
	m := &queryMeasure{}
	for _, f := range real {
		if len(f.probes()) == 0 {
			continue
		}
		fq := &fileQuery{f: f}
		for li, lib := range libraries {
			obj, answer, err := lib.open(f.data)
			if err != nil {
				fq.openErr[li] = err
				continue
			}
			fq.obj[li], fq.answer[li] = obj, answer
			ask := func(qs []question) *series {
				if len(qs) == 0 {
					return nil
				}
				return newCycle(func(i int) { sinkBool = answer(&qs[i%len(qs)]) }, len(qs))
			}
			fq.query[li] = ask(f.questions)
			if li != iGrobot { // it parses the file for each question: too slow for long lists
				fq.extra[li] = ask(f.extra())
			}
		}
		l.add(fq.query[:]...)
		l.add(fq.extra[:]...)
		m.files = append(m.files, fq)
	}
	return m
}

// perFile returns the ns/query of each file that all the listed libraries
// answered, for each library, and those files.
func (m *queryMeasure) perFile(libs ...int) (ns [nLibs][]float64, files []*fileQuery) {
	for _, fq := range m.files {
		if len(fq.f.questions) == 0 || !fq.answered(libs...) {
			continue
		}
		files = append(files, fq)
		for _, li := range libs {
			ns[li] = append(ns[li], fq.query[li].median())
		}
	}
	return ns, files
}

// rows adds the Allowed row: the files that every library could answer.
func (m *queryMeasure) rows(t *table) {
	ns, files := m.perFile(iTemoto, iGrobot, iOurs)
	qT, qG, qO := median(ns[iTemoto]), median(ns[iGrobot]), median(ns[iOurs])
	t.row(fmt.Sprintf("Allowed, median per file (ns/query; %d files)", len(files)),
		fns(qT), fns(qG), fns(qO), lowerBetter(qO, qT, "faster"), "≥ 30× faster than temoto", 30*qO <= qT)
}

// notes says which files are left out of the Allowed row, and why.
func (m *queryMeasure) notes(w io.Writer) {
	_, files := m.perFile(iTemoto, iGrobot, iOurs)
	var asked []*fileQuery
	for _, fq := range m.files {
		if len(fq.f.questions) > 0 {
			asked = append(asked, fq)
		}
	}
	fmt.Fprintf(w, "- Questions: %d real files have conformance questions; %d of them are left out of the Allowed rows because a library could not answer them",
		len(asked), len(asked)-len(files))
	var why []string
	for li, lib := range libraries {
		var openErrs, panics int
		for _, fq := range asked {
			if fq.openErr[li] != nil {
				openErrs++
			}
			if s := fq.query[li]; s != nil && s.panic != "" {
				panics++
			}
		}
		if openErrs > 0 {
			why = append(why, fmt.Sprintf("%s returned an error for %d", lib.name, openErrs))
		}
		if panics > 0 {
			why = append(why, fmt.Sprintf("%s panicked on %d", lib.name, panics))
		}
	}
	if len(why) > 0 {
		fmt.Fprintf(w, " (%s)", strings.Join(why, ", "))
	}
	fmt.Fprintln(w, ".")
}
