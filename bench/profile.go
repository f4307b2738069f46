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
//     parsed once beforehand (the cache-cold pass of pass.go).
func profile(c *corpus, what, out string, d time.Duration) error {
	var work func()
	switch what {
	case "parse":
		work = func() {
			for _, f := range c.real {
				sinkAny = robotstxt.Parse(f.data)
			}
		}
	case "pass":
		type ask struct {
			r *robotstxt.Robots
			q question
		}
		var asks []ask
		for _, f := range c.real {
			qs := f.probes()
			if len(qs) == 0 {
				continue
			}
			r := robotstxt.Parse(f.data)
			for _, q := range qs {
				asks = append(asks, ask{r, q})
			}
		}
		work = func() {
			for i := range asks {
				sinkBool = asks[i].r.Allowed(asks[i].q.agent, asks[i].q.url)
			}
		}
	default:
		return fmt.Errorf("-profile %q: want parse or pass", what)
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
