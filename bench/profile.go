package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"github.com/robotstxt-go/robotstxt"
)

// profile runs one of ours' workloads alone for d, or for passes passes
// when passes > 0, under the CPU profiler and writes the profile to out,
// for `go tool pprof`:
//
//   - "parse": Parse of every real file, over and over (the whole-corpus
//     parse of the main table);
//   - "pass": every question of every real file in corpus order, each file
//     parsed once beforehand (the cache-cold pass of pass.go);
//   - "crawler": the crawler-like pass of pass.go, corpus.tsv's questions
//     alone, in corpus order, of the files temoto also opens;
//   - "small": the questions of w2 on the small files (small.go), 20 a
//     file, each file parsed once beforehand: the cost of a question alone;
//   - "w1": w1 on the small files, each parsed and asked its first
//     question: the fixed cost of a file;
//   - "w2": w2 on the small files, each parsed and asked its 20
//     questions, counted by the file: a parse, the compile at the second
//     question (see the library's lazy.go) and the questions together.
//
// A fixed number of passes is for counting instructions, which the load of
// the machine does not change: the work of one round is the function
// oursWork returns, so
//
//	go build -o /tmp/bench . && GOGC=off GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 \
//	  valgrind --tool=callgrind --collect-atstart=no --toggle-collect='main.oursWork.func*' \
//	  /tmp/bench -profile small -profilepasses 1 -cpuprofile ''
//
// counts the instructions of two rounds (the warm-up and one pass; an
// empty -cpuprofile leaves the profiler, whose signals callgrind does not
// take, off); the difference of the counts at -profilepasses 3 and 1,
// divided by 2 and by the questions the log line gives, is the cost of one
// question. -profilefiles narrows the corpus to some files by name:
// -profile pass -profilefiles www.sophos.com asks that file's questions
// alone.
//
// Each pass is timed apart, and the log line gives the median cost of a
// call over them. With -profilecold, evict flushes the caches before each
// pass (untimed), as the report's pass finds them after temoto's:
// -profile crawler -profilecold against -profile crawler tells what cold
// memory costs a question.
func profile(c *corpus, what, out string, d time.Duration, passes int, cold bool) error {
	work, count, _, err := oursWork(c, what)
	if err != nil {
		return err
	}
	work() // warm up: the pools, the page cache of the parsed forms
	var fh *os.File
	if out != "" {
		if fh, err = os.Create(out); err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(fh); err != nil {
			fh.Close()
			return err
		}
	}
	var flush []byte
	if cold {
		flush = make([]byte, flushBytes)
	}
	var took []float64 // ns a call, one per pass
	start := time.Now()
	for n := 0; passes > 0 && n < passes || passes <= 0 && time.Since(start) < d; n++ {
		evict(flush)
		t := time.Now()
		work()
		took = append(took, float64(time.Since(t).Nanoseconds())/float64(count))
	}
	how := "warm"
	if cold {
		how = "cold, caches flushed before each pass"
	}
	logf("profile %s (%s): %d passes of %d in %v; a call %.1f ns, median over the passes (quartiles %.1f–%.1f)",
		what, how, len(took), count, time.Since(start).Round(time.Millisecond), median(took), quantile(took, 0.25), quantile(took, 0.75))
	if fh == nil {
		return nil
	}
	pprof.StopCPUProfile()
	logf("profile written to %s", out)
	return fh.Close()
}

// flushBytes is what evict writes: three times the 32 MB last-level cache
// of the machine the README's figures come from, so that none of a pass's
// data is left in it.
const flushBytes = 96 << 20

// evict writes a byte of every cache line of b, which pushes what the
// caches held out of them, as the report's other series do between two
// passes of ours (-profilecold).
func evict(b []byte) {
	for i := 0; i < len(b); i += 64 {
		b[i]++
	}
}

// oursWork returns one round of the workload that profile names, and its
// number of parses or questions and of source bytes parsed.
func oursWork(c *corpus, what string) (work func(), n int, bytes int64, err error) {
	switch what {
	case "parse":
		for _, f := range c.real {
			bytes += int64(len(f.data))
		}
		n = len(c.real)
		work = func() {
			for _, f := range c.real {
				sinkAny = oursParse(f.data)
			}
		}
	case "pass", "crawler":
		type ask struct {
			r *robotstxt.Robots
			q question
		}
		var asks []ask
		for _, f := range c.real {
			qs := f.probes()
			if what == "crawler" {
				qs = crawlerQuestions(f)
			}
			if len(qs) == 0 {
				continue
			}
			r := robotstxt.Parse(f.data)
			for _, q := range qs {
				asks = append(asks, ask{r, q})
			}
		}
		n = len(asks)
		work = func() {
			for i := range asks {
				sinkBool = asks[i].r.Allowed(asks[i].q.agent, asks[i].q.url)
			}
		}
	case "small":
		type file struct {
			r  *robotstxt.Robots
			qs []question
		}
		set, b := smallSet(c.real)
		files := make([]file, len(set))
		for i, w := range set {
			files[i] = file{robotstxt.Parse(w.data), w.qs[1:]}
			n += len(w.qs) - 1
		}
		bytes = int64(b)
		work = func() {
			for _, f := range files {
				for k := range f.qs {
					sinkBool = f.r.Allowed(f.qs[k].agent, f.qs[k].url)
				}
			}
		}
	case "w1":
		set, b := smallSet(c.real)
		n, bytes = len(set), int64(b)
		work = func() {
			for _, w := range set {
				sinkBool = robotstxt.Parse(w.data).Allowed(w.qs[0].agent, w.qs[0].url)
			}
		}
	case "w2":
		set, b := smallSet(c.real)
		n, bytes = len(set), int64(b)
		work = func() {
			for _, w := range set {
				r, qs := robotstxt.Parse(w.data), w.qs[1:]
				for k := range qs {
					sinkBool = r.Allowed(qs[k].agent, qs[k].url)
				}
			}
		}
	default:
		return nil, 0, 0, fmt.Errorf("-profile %q: want parse, pass, crawler, small, w1 or w2", what)
	}
	return work, n, bytes, nil
}
