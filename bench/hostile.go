package main

import (
	"math"
	"strings"
)

// hostile is a pathological question asked of each library: a two-line
// file whose pattern makes a naive matcher backtrack.
type hostile struct {
	name   string
	robots string
	q      question
	query  [nLibs]*series
}

// hostileMeasure times the hostile questions.
type hostileMeasure struct{ cases []*hostile }

func newHostileMeasure(l *loop) *hostileMeasure {
	m := &hostileMeasure{cases: []*hostile{
		{name: "`Disallow: /` + 30×`*a` + `$` vs `/` + 2000×`a` + `b`",
			robots: "User-agent: *\nDisallow: /" + strings.Repeat("*a", 30) + "$\n",
			q:      newQuestion("Googlebot", "https://example.com/"+strings.Repeat("a", 2000)+"b", true)},
		{name: "`Disallow: /*a*a*a*a*b` vs `/` + 100,000×`a`",
			robots: "User-agent: *\nDisallow: /*a*a*a*a*b\n",
			q:      newQuestion("Googlebot", "https://example.com/"+strings.Repeat("a", 100_000), true)},
		{name: "`Disallow: /` + 500×`*` + `x$` vs `/` + 10,000×`a`",
			robots: "User-agent: *\nDisallow: /" + strings.Repeat("*", 500) + "x$\n",
			q:      newQuestion("Googlebot", "https://example.com/"+strings.Repeat("a", 10_000), true)},
	}}
	for _, h := range m.cases {
		for li, lib := range libraries {
			_, answer, err := lib.open([]byte(h.robots))
			if err != nil {
				continue
			}
			q := h.q
			h.query[li] = newSeries(func(int) { sinkBool = answer(&q) })
		}
		l.add(h.query[:]...)
	}
	return m
}

func (m *hostileMeasure) rows(t *table) {
	for _, h := range m.cases {
		var v [nLibs]float64
		var cell [nLibs]string
		for li := range libraries {
			v[li] = math.NaN()
			switch s := h.query[li]; {
			case s == nil:
				cell[li] = "n/a"
			case s.panic != "":
				cell[li] = "panic"
			default:
				v[li] = s.median()
				cell[li] = fns(v[li])
			}
		}
		t.row("Hostile: "+h.name+" (time/query)", cell[iTemoto], cell[iGrobot], cell[iOurs],
			lowerBetter(v[iOurs], v[iTemoto], "faster"), "≥ 100× faster than temoto", 100*v[iOurs] <= v[iTemoto])
	}
}
