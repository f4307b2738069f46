package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// worstFiles is how many files the tables of the largest shares list.
const worstFiles = 10

// fileCost is one file's Allowed cost for temoto and ours, over all its
// questions (corpus.tsv's, the derived ones and the crawled URLs).
type fileCost struct {
	fq    *fileQuery
	n     int            // questions
	ns    [nLibs]float64 // ns/query
	share [nLibs]float64 // of the library's total time over all questions
}

// costs returns the files that temoto and ours both answered, with each
// library's share of its total query time: a file's ns/query times its
// number of questions, over the sum of that product over the files.
func (m *queryMeasure) costs() []*fileCost {
	var total [nLibs]float64
	var out []*fileCost
	for _, fq := range m.files {
		c := &fileCost{fq: fq, n: len(fq.f.probes())}
		ok := true
		for _, li := range []int{iTemoto, iOurs} {
			var answered bool
			c.ns[li], answered = fq.allProbes(li)
			ok = ok && answered
		}
		if !ok {
			continue
		}
		for _, li := range []int{iTemoto, iOurs} {
			total[li] += c.ns[li] * float64(c.n)
		}
		out = append(out, c)
	}
	for _, c := range out {
		for _, li := range []int{iTemoto, iOurs} {
			c.share[li] = c.ns[li] * float64(c.n) / total[li]
		}
	}
	return out
}

// printSpread prints the spread of ns/query over the files, and the files
// that take the largest share of each library's query time.
func (m *queryMeasure) printSpread(w io.Writer) {
	costs := m.costs()
	if len(costs) == 0 {
		return
	}
	var ns [nLibs][]float64
	var sum [nLibs]float64
	var questions, derived, crawled int
	for _, c := range costs {
		questions += c.n
		derived += len(c.fq.f.derived)
		crawled += len(c.fq.f.crawled)
		for _, li := range []int{iTemoto, iOurs} {
			ns[li] = append(ns[li], c.ns[li])
			sum[li] += c.ns[li] * float64(c.n)
		}
	}
	section(w, fmt.Sprintf("Allowed per file: spread over the %d files that both libraries answered (%s questions: %s from corpus.tsv, %s derived, %s crawled URLs)",
		len(costs), commas(questions), commas(questions-derived-crawled), commas(derived), commas(crawled)))
	var rows [][]string
	add := func(name string, t, o float64, target string, met bool) {
		if target != "" {
			target = mark(target, met)
		} else {
			target = "–"
		}
		rows = append(rows, []string{name, fns(t), fns(o), ratioCell(t, o), target})
	}
	for _, q := range []struct {
		name   string
		q      float64
		target float64
	}{{"p50", 0.5, 0}, {"p90", 0.9, 0}, {"p99", 0.99, 500}} {
		t, o := quantile(ns[iTemoto], q.q), quantile(ns[iOurs], q.q)
		target := ""
		if q.target > 0 {
			target = "≤ " + fns(q.target)
		}
		add(q.name+", ns/query", t, o, target, o <= q.target)
	}
	maxT, maxO := worstBy(costs, func(c *fileCost) float64 { return c.ns[iTemoto] }), worstBy(costs, func(c *fileCost) float64 { return c.ns[iOurs] })
	rows = append(rows, []string{"max, ns/query",
		fmt.Sprintf("%s (%s)", fns(maxT.ns[iTemoto]), shortName(maxT.fq.f)),
		fmt.Sprintf("%s (%s)", fns(maxO.ns[iOurs]), shortName(maxO.fq.f)),
		ratioCell(maxT.ns[iTemoto], maxO.ns[iOurs]), mark("≤ 3 µs", maxO.ns[iOurs] <= 3000)})
	q := float64(questions)
	add("mean over all questions (each file's ns/query × its questions), ns/query", sum[iTemoto]/q, sum[iOurs]/q, "", false)
	markdown(w, []string{"per file", "temoto", "ours", "temoto ÷ ours", "target"}, rows)

	for _, li := range []int{iOurs, iTemoto} {
		name := libraries[li].name
		section(w, fmt.Sprintf("Files with the largest share of %s's total Allowed time", name))
		sorted := slices.Clone(costs)
		slices.SortStableFunc(sorted, func(a, b *fileCost) int {
			switch {
			case a.share[li] > b.share[li]:
				return -1
			case a.share[li] < b.share[li]:
				return 1
			}
			return 0
		})
		var top [][]string
		var cum float64
		for i, c := range sorted[:min(worstFiles, len(sorted))] {
			cum += c.share[li]
			top = append(top, []string{fmt.Sprint(i + 1), shortName(c.fq.f), fsize(len(c.fq.f.data)),
				fmt.Sprint(c.n),
				fns(c.ns[iOurs]), pct(c.share[iOurs]), fns(c.ns[iTemoto]), pct(c.share[iTemoto]), pct(cum)})
		}
		markdown(w, []string{"#", "file", "size", "questions", "ours ns/query", "ours share", "temoto ns/query", "temoto share",
			"cumulative " + name + " share"}, top)
	}
}

// slowestRow adds the slowest real file to the main table: ours' ns/query
// over the file's corpus.tsv questions (the crawler-like pass's questions)
// and over all its questions, among the files both temoto and ours
// answered. The target holds when both are at most 1 µs.
func (m *queryMeasure) slowestRow(t *table) {
	costs := m.costs()
	var tsv *fileQuery
	for _, c := range costs {
		if s := c.fq.query[iOurs]; s.ok() && (tsv == nil || s.median() > tsv.query[iOurs].median()) {
			tsv = c.fq
		}
	}
	if tsv == nil {
		return
	}
	all := worstBy(costs, func(c *fileCost) float64 { return c.ns[iOurs] })
	tsvNs := tsv.query[iOurs].median()
	t.row("Slowest real file, ours ns/query: over its corpus.tsv questions; over all its questions",
		"–", "–", fmt.Sprintf("%s (%s); %s (%s)", fns(tsvNs), shortName(tsv.f), fns(all.ns[iOurs]), shortName(all.fq.f)),
		"–", "≤ 1 µs", tsvNs <= 1000 && all.ns[iOurs] <= 1000)
}

// worstBy returns the file with the largest value of key.
func worstBy(costs []*fileCost, key func(*fileCost) float64) *fileCost {
	return slices.MaxFunc(costs, func(a, b *fileCost) int {
		ka, kb := key(a), key(b)
		switch {
		case ka < kb:
			return -1
		case ka > kb:
			return 1
		}
		return 0
	})
}

// shortName is a corpus file's name without its folder.
func shortName(f *file) string {
	name := f.name
	if i := strings.IndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// ratioCell formats temoto's time over ours.
func ratioCell(temoto, ours float64) string {
	if !(temoto > 0 && ours > 0) {
		return "–"
	}
	return f3(temoto/ours) + "×"
}
