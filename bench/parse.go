package main

import (
	"fmt"
	"strings"
)

// parseMeasure times each library's parse of each real file. grobotstxt has
// no parse step, so its series is one AgentAllowed call on the whole body
// instead.
type parseMeasure struct {
	files  []*file
	series [][nLibs]*series // per file
}

func newParseMeasure(real []*file, l *loop) *parseMeasure {
	p := &parseMeasure{files: real, series: make([][nLibs]*series, len(real))}
	probe := newQuestion("Googlebot", "https://example.com/", true)
	for i, f := range real {
		data := f.data
		for li, lib := range libraries {
			if lib.parse != nil {
				parse := lib.parse
				p.series[i][li] = newSeries(func(int) { sinkAny, _ = parse(data) })
			} else {
				_, answer, _ := lib.open(data)
				p.series[i][li] = newSeries(func(int) { sinkBool = answer(&probe) })
			}
		}
		l.add(p.series[i][:]...)
	}
	return p
}

// throughput returns a library's MB/s: the median over the files, and the
// whole corpus (all bytes over the sum of the per-file times).
func (p *parseMeasure) throughput(li int) (perFile, whole float64) {
	var mbps []float64
	var bytes, ns float64
	for i, f := range p.files {
		s, size := p.series[i][li], float64(len(f.data))
		if !s.ok() || size == 0 {
			continue
		}
		m := s.median()
		mbps = append(mbps, size/m*1e3)
		bytes += size
		ns += m
	}
	return median(mbps), bytes / ns * 1e3
}

// rows adds the throughput rows.
func (p *parseMeasure) rows(t *table) {
	pT, aT := p.throughput(iTemoto)
	pG, aG := p.throughput(iGrobot)
	pO, aO := p.throughput(iOurs)
	t.row("Parse throughput, median per file (MB/s)",
		f3(pT), fmt.Sprintf("n/a (parse + 1 query: %s)", f3(pG)), f3(pO),
		higherBetter(pO, pT, "faster"), "≥ 10× temoto", pO >= 10*pT)
	t.row("Parse throughput, whole corpus (MB/s)",
		f3(aT), fmt.Sprintf("n/a (parse + 1 query: %s)", f3(aG)), f3(aO),
		higherBetter(aO, aT, "faster"), "≥ 12× temoto", aO >= 12*aT)
}

// nsPerByte returns the median over the files of ours' parse ns per byte,
// the yardstick of the per-byte rows.
func (p *parseMeasure) nsPerByte() float64 {
	var v []float64
	for i, f := range p.files {
		if s := p.series[i][iOurs]; s.ok() && len(f.data) > 0 {
			v = append(v, s.median()/float64(len(f.data)))
		}
	}
	return median(v)
}

// perByteRows adds the yardstick row and the slowest real file of at least
// 4 KiB against it (smaller files are dominated by the fixed cost of a
// parse).
func (p *parseMeasure) perByteRows(t *table) {
	pT, _ := p.throughput(iTemoto)
	med := p.nsPerByte()
	t.row("Parse cost, median per file over the real corpus (ns/B)",
		f3(1e3/pT), "–", f3(med), "–", "reference for the rows below", true)
	var name string
	var worst float64
	for i, f := range p.files {
		if s := p.series[i][iOurs]; s.ok() && len(f.data) >= 4<<10 {
			if r := s.median() / float64(len(f.data)) / med; r > worst {
				name, worst = f.name, r
			}
		}
	}
	t.row(fmt.Sprintf("Slowest real file ≥ 4 KiB per byte (%s)", strings.TrimPrefix(name, "real/")),
		"–", "–", f3(worst)+"× median", "–", "≤ 5× median", worst <= 5)
}
