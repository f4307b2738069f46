package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"syscall"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/robotstxt-go/robotstxt/audit"
)

// runBench measures, in one run and side by side: reading and gunzipping
// the inputs alone, then the audit of the same inputs with 1 and 2 workers
// writing CSV to nowhere. Each measurement is the best of n runs.
func runBench(cfg audit.Config, n int, stdout, stderr io.Writer) int {
	if len(cfg.Agents) == 0 {
		cfg.Agents = audit.BuiltinAgents()
	}
	var size int64
	for _, in := range cfg.Inputs {
		if st, err := os.Stat(in); err == nil && st.Mode().IsRegular() {
			size += st.Size()
		}
	}
	cpu := map[time.Duration]time.Duration{} // wall -> CPU time of the run
	idle := map[time.Duration]float64{}      // wall -> share of the Ps' time that found nothing to run
	best := func(f func() error) (time.Duration, error) {
		var b time.Duration
		for i := 0; i < n; i++ {
			i0 := idleSeconds()
			c0 := cpuTime()
			t := time.Now()
			if err := f(); err != nil {
				return 0, err
			}
			d := time.Since(t)
			c := cpuTime() - c0
			if b == 0 || d < b {
				b = d
			}
			cpu[d] = c
			idle[d] = (idleSeconds() - i0) / (d.Seconds() * float64(runtime.GOMAXPROCS(0)))
		}
		return b, nil
	}
	read, err := best(func() error { return readAlone(cfg.Inputs) })
	if err != nil {
		fmt.Fprintln(stderr, "robotsaudit:", err)
		return 2
	}
	var captures int64
	audit1 := func(w int) (time.Duration, error) {
		c := cfg
		c.Workers, c.Format = w, audit.FormatCSV
		return best(func() error {
			s, err := audit.Run(context.Background(), c, io.Discard)
			if err == nil {
				captures = s.Seen // every capture read, answered or not (one answer per origin)
			}
			return err
		})
	}
	// One worker on one core, and then on all of them: one worker is one
	// goroutine, so the two should take the same time; the second tells
	// a run slowed by the machine.
	prev := runtime.GOMAXPROCS(1)
	core1, err := audit1(1)
	runtime.GOMAXPROCS(prev)
	if err != nil {
		fmt.Fprintln(stderr, "robotsaudit:", err)
		return 2
	}
	one, err := audit1(1)
	if err != nil {
		fmt.Fprintln(stderr, "robotsaudit:", err)
		return 2
	}
	two, err := audit1(2)
	if err != nil {
		fmt.Fprintln(stderr, "robotsaudit:", err)
		return 2
	}
	// What the machine gives two cores' worth of this work: two whole
	// audits of 1 worker each, side by side, share nothing but the
	// hardware. Twice the work in this time is the best that any split
	// of one audit across two cores could reach.
	pair, err := best(func() error {
		c := cfg
		c.Workers, c.Format = 1, audit.FormatCSV
		errs := make(chan error, 2)
		for range 2 {
			go func() {
				_, err := audit.Run(context.Background(), c, io.Discard)
				errs <- err
			}()
		}
		return errors.Join(<-errs, <-errs)
	})
	if err != nil {
		fmt.Fprintln(stderr, "robotsaudit:", err)
		return 2
	}
	mb := float64(size) / 1e6
	line := func(what string, d time.Duration) {
		fmt.Fprintf(stdout, "%-20s %8.3fs wall %8.3fs CPU %9.1f MB/s %10.0f captures/s %5.1f%% idle\n", what, d.Seconds(), cpu[d].Seconds(), mb/d.Seconds(), float64(captures)/d.Seconds(), 100*idle[d])
	}
	fmt.Fprintf(stdout, "inputs: %d files, %.1f MB on disk, %d captures; %d agents x %d paths (%s)\n",
		len(cfg.Inputs), mb, captures, len(cfg.Agents), len(cfg.Paths), strings.Join(cfg.Paths, ","))
	line("read+gunzip alone", read)
	line("audit, 1 worker 1 core", core1)
	line("audit, 1 worker", one)
	line("audit, 2 workers", two)
	line("2 audits side by side", pair)
	fmt.Fprintf(stdout, "audit (2 workers) / read+gunzip: %.0f%%\n", 100*read.Seconds()/two.Seconds())
	fmt.Fprintf(stdout, "audit 2 workers vs 1: %.2fx; 2 workers on %d cores vs 1 worker on 1 core: %.2fx\n",
		one.Seconds()/two.Seconds(), prev, core1.Seconds()/two.Seconds())
	fmt.Fprintf(stdout, "what %d cores give two audits side by side against one on 1 core: %.2fx\n",
		prev, 2*core1.Seconds()/pair.Seconds())
	q := float64(captures) * float64(len(cfg.Agents)*len(cfg.Paths))
	fmt.Fprintf(stdout, "questions (capture x agent x path): %.0f, %.1f us each with 2 workers\n", q, two.Seconds()/q*1e6)
	return 0
}

// idleSeconds is the time the Go scheduler's Ps have found no goroutine to
// run so far (runtime/metrics), after a collection that brings the count up
// to date: with the process's CPU time, it tells a run that waits on one
// goroutine from one that the machine's load slowed.
func idleSeconds() float64 {
	runtime.GC() // the runtime sums the CPU classes when a cycle ends
	s := []metrics.Sample{{Name: "/cpu/classes/idle:cpu-seconds"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64 {
		return 0
	}
	return s[0].Value.Float64()
}

// cpuTime is the user and system time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// readAlone reads every input file once, gunzipping .gz files with the
// gzip package the WARC reader uses, into nowhere: the floor under any
// reader of the same bytes.
func readAlone(inputs []string) error {
	for _, in := range inputs {
		f, err := os.Open(in)
		if err != nil {
			return err
		}
		var r io.Reader = bufio.NewReaderSize(f, 1<<20)
		if strings.HasSuffix(in, ".gz") {
			z, err := gzip.NewReader(r)
			if err != nil {
				f.Close()
				return err
			}
			r = z
		}
		_, err = io.Copy(io.Discard, r)
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
