package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"github.com/robotstxt-go/robotstxt"
)

// profile runs one of ours' workloads alone for d under the CPU profiler
// and writes the profile to out, for `go tool pprof`:
//
//   - "parse": Parse of every real file, over and over (the whole-corpus
//     parse of the main table);
//   - "pass": every question of every real file in corpus order, each file
//     parsed once beforehand (the cache-cold pass of pass.go);
//   - "crawler": the crawler-like pass of pass.go, corpus.tsv's questions
//     alone, in corpus order, of the files temoto also opens.
func profile(c *corpus, what, out string, d time.Duration) error {
	work, _, _, err := oursWork(c, what)
	if err != nil {
		return err
	}
	work() // warm up: the pools, the page cache of the parsed forms
	fh, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(fh); err != nil {
		fh.Close()
		return err
	}
	n := 0
	for start := time.Now(); time.Since(start) < d; n++ {
		work()
	}
	pprof.StopCPUProfile()
	logf("profile %s: %d passes in %v, written to %s", what, n, d, out)
	return fh.Close()
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
				sinkAny = robotstxt.Parse(f.data)
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
	default:
		return nil, 0, 0, fmt.Errorf("-profile %q: want parse, pass or crawler", what)
	}
	return work, n, bytes, nil
}
