package main

import (
	"fmt"
	"strings"
)

// synthFile holds the series of one synthetic file, for ours only: its
// parse, and each of its questions timed on its own.
type synthFile struct {
	f     *file
	parse *series
	query []*series
}

// synthMeasure times ours on the synthetic (adversarial) files of the
// corpus.
type synthMeasure struct{ files []*synthFile }

func newSynthMeasure(synth []*file, l *loop) *synthMeasure {
	m := &synthMeasure{}
	for _, f := range synth {
		sf := &synthFile{f: f}
		data := f.data
		sf.parse = newSeries(func(int) { sinkAny, _ = ours.parse(data) })
		l.add(sf.parse)
		_, answer, _ := ours.open(data)
		for i := range f.questions {
			q := &f.questions[i]
			s := newSeries(func(int) { sinkBool = answer(q) })
			sf.query = append(sf.query, s)
			l.add(s)
		}
		m.files = append(m.files, sf)
	}
	return m
}

// rows adds one row per file: its parse cost per byte against nsPerByte,
// the median over the real files, and the mean and slowest question.
func (m *synthMeasure) rows(t *table, nsPerByte float64) {
	for _, sf := range m.files {
		size := len(sf.f.data)
		if !sf.parse.ok() || size == 0 {
			continue
		}
		nsB := sf.parse.median() / float64(size)
		var sum, top float64
		var n int
		for _, s := range sf.query {
			if s.ok() {
				v := s.median()
				sum += v
				top = max(top, v)
				n++
			}
		}
		qcell := "no questions"
		if n > 0 {
			qcell = fmt.Sprintf("query mean %s, max %s (%d)", fns(sum/float64(n)), fns(top), n)
		}
		t.row(fmt.Sprintf("Synthetic %s (%s): parse ns/B; query", strings.TrimPrefix(sf.f.name, "synthetic/"), fsize(size)),
			"–", "–", fmt.Sprintf("%s ns/B = %s× median; %s", f3(nsB), f3(nsB/nsPerByte), qcell),
			"–", "≤ 5× median", nsB/nsPerByte <= 5)
	}
}
