package main

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"
)

// series is one thing measured again and again: a batch of n calls of op,
// timed once per round. op gets the index of the call; batches move through
// the indexes, so that a batch of questions continues where the last one
// stopped.
type series struct {
	op      func(i int)
	n       int       // calls per batch; 0 until calibrated
	next    int       // index of the next call
	samples []float64 // ns per call, one per round
	panic   string    // what op panicked with, if it did; the series is then dead
	cycle   int       // when > 1, n is a multiple of it
}

func newSeries(op func(i int)) *series { return &series{op: op} }

// newCycle returns a series whose op goes through k different calls (the
// questions about a file, say): its batches are whole multiples of k, so
// that each batch makes every call equally often, and its value is their
// mean even where one batch holds few calls.
func newCycle(op func(i int), k int) *series { return &series{op: op, cycle: k} }

// run times one batch. The first call calibrates n instead (and warms up):
// n grows until a batch lasts at least target.
func (s *series) run(target time.Duration) {
	if s == nil || s.panic != "" {
		return
	}
	defer func() {
		if p := recover(); p != nil {
			s.panic = fmt.Sprint(p)
		}
	}()
	if s.n == 0 {
		// Each call twice first, untimed: a call may pay a cost once,
		// such as ours' index of a group, built by the second question
		// that reaches it, and a calibration that met it would keep the
		// batches short and every batch cold.
		for i := range 2 * max(s.cycle, 1) {
			s.op(i)
		}
		n := s.calibrate(target)
		if s.cycle > 1 {
			n = (n + s.cycle - 1) / s.cycle * s.cycle
		}
		s.n = n
		return
	}
	d := s.batch(s.n)
	s.samples = append(s.samples, float64(d.Nanoseconds())/float64(s.n))
}

func (s *series) batch(n int) time.Duration {
	start := time.Now()
	for i := 0; i < n; i++ {
		s.op(s.next + i)
	}
	d := time.Since(start)
	s.next += n
	return d
}

func (s *series) calibrate(target time.Duration) int {
	n := 1
	for {
		d := s.batch(n)
		if d >= target || n >= 1<<30 {
			return n
		}
		grow := 100 * n
		if d > 0 {
			grow = min(grow, int(1.2*float64(n)*float64(target)/float64(d))+1)
		}
		n = max(n+1, grow)
	}
}

// ok reports whether the series has samples and never panicked.
func (s *series) ok() bool { return s != nil && s.panic == "" && len(s.samples) > 0 }

// median returns the median ns per call over the rounds.
func (s *series) median() float64 { return median(s.samples) }

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	v = slices.Clone(v)
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// allocsPerCall returns the mallocs per call of op over n calls, after one
// warm-up call. The harness runs nothing else meanwhile, so every malloc of
// the process in that window is op's.
func allocsPerCall(n int, op func(i int)) (allocs float64, panicked string) {
	defer func() {
		if p := recover(); p != nil {
			panicked = fmt.Sprint(p)
		}
	}()
	op(0)
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	for i := 0; i < n; i++ {
		op(i)
	}
	runtime.ReadMemStats(&b)
	return float64(b.Mallocs-a.Mallocs) / float64(n), ""
}

// agreement asks the questions whose answer is known and counts the
// answers equal to it.
func agreement(answer func(*question) bool, qs []question) (asked, agreed int, panicked string) {
	defer func() {
		if p := recover(); p != nil {
			panicked = fmt.Sprint(p)
		}
	}()
	for i := range qs {
		if qs[i].known {
			asked++
			if answer(&qs[i]) == qs[i].want {
				agreed++
			}
		}
	}
	return asked, agreed, ""
}

// retainedPerByte returns the live heap that parsed copies of data keep, per
// byte of data. It parses k copies into holder (allocated by the caller, so
// not counted), with k chosen so that the copies add up to about target
// bytes of source; the live heap is read after a full GC before and after.
func retainedPerByte(parse func([]byte) (any, error), data []byte, holder []any, target int) (float64, error) {
	k := max(1, min(len(holder), target/max(1, len(data))))
	clear(holder)
	before := liveHeap()
	for i := range k {
		v, err := parse(data)
		if err != nil {
			return 0, err
		}
		holder[i] = v
	}
	after := liveHeap()
	runtime.KeepAlive(holder)
	clear(holder)
	return float64(after-before) / float64(k) / float64(len(data)), nil
}

// liveHeap returns the bytes of live heap objects after two full
// collections: the first moves what sync.Pools hold (package robotstxt keeps
// its parse scratch space in one) to their victim caches, the second frees
// it, so that only what the parsed files keep alive is counted.
func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// loop runs every series of the report in one interleaved loop. A group is
// a set of series that are compared with each other (the libraries on one
// file, say); within a round its members take turns in an order that rotates
// with the group and the round, so that drifts of the machine spread over
// all of them.
type loop struct{ groups [][]*series }

// add adds a group. Nil members are allowed (a library that could not open
// a file) and are skipped; a group with no series at all is dropped.
func (l *loop) add(g ...*series) {
	for _, s := range g {
		if s != nil {
			l.groups = append(l.groups, g)
			return
		}
	}
}

// run calibrates every series (round 0, which also warms up) and then
// times it once per round.
func (l *loop) run(rounds int, batch time.Duration) {
	for r := 0; r <= rounds; r++ {
		t0 := time.Now()
		for gi, g := range l.groups {
			for k := range g {
				g[(gi+r+k)%len(g)].run(batch)
			}
		}
		what := "timed"
		if r == 0 {
			what = "calibration"
		}
		logf("round %d/%d (%s) of %d groups took %v", r, rounds, what, len(l.groups), time.Since(t0).Round(time.Millisecond))
	}
}

// quantile returns the q-quantile (0 < q ≤ 1) of v by the nearest-rank
// method: the smallest value with at least q of the values at or below it.
// It is always one of the values, here one file's measurement.
func quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	v = slices.Clone(v)
	slices.Sort(v)
	k := int(math.Ceil(q*float64(len(v)))) - 1
	return v[min(max(k, 0), len(v)-1)]
}

// ratios returns a[i]/b[i] for the rounds both series have, which pairs
// the measurements that were taken moments apart.
func ratios(a, b *series) []float64 {
	if !a.ok() || !b.ok() {
		return nil
	}
	n := min(len(a.samples), len(b.samples))
	out := make([]float64, n)
	for i := range n {
		out[i] = a.samples[i] / b.samples[i]
	}
	return out
}
