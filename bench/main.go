// Command bench compares package robotstxt ("ours") with
// github.com/temoto/robotstxt and github.com/jimsmart/grobotstxt on the
// robots.txt corpus that sits beside the repository (../shared), in one
// interleaved run, and prints Markdown tables.
//
//	cd bench && go run .          # full run: two to four minutes on 2 shared cores
//	cd bench && go run . -quick   # every 10th file, 2 rounds: well under a minute
//	cd bench && go run . -profile pass -cpuprofile pass.prof   # ours alone, profiled
//
// Every timed measurement is a series: a batch of calls of one library on
// one file, calibrated to last at least -batch, timed once per round. The
// libraries take turns in an order that rotates with the file and the round,
// so drifts of the machine (other processes, thermal limits) spread over all
// of them. A file's value is the median over the rounds; a table cell is the
// median over the files. See README.md for what each row measures.
//
// Each measure has a file of its own: parse.go (parse throughput),
// query.go and perfile.go (Allowed per file, its spread and the costliest
// files), pass.go (one pass over all questions), small.go (parse and
// first questions of the small files), allocs.go (allocations and
// agreement with the reference), heap.go (retained heap), hostile.go,
// synthetic.go (the corpus's synthetic files), scaling.go (synthetic groups
// of 10 to 100,000 rules) and binary.go (loading the binary form against
// parsing). data.go and derive.go read and make the questions.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Indexes into libraries.
const (
	iTemoto = iota
	iGrobot
	iOurs
	nLibs
)

// config is what the flags set.
type config struct {
	shared     string
	rounds     int
	batch      time.Duration
	every      int
	heapTarget int  // source bytes parsed per file for the retained heap
	crawled    bool // also ask the crawled URLs of corpus/urls
	derived    bool // also ask questions made from the rules of the files corpus.tsv lacks
}

func main() {
	var (
		cfg    config
		quick  = flag.Bool("quick", false, "quick mode: every 10th real file, 2 rounds, 100µs batches (under a minute)")
		heapKB = flag.Int("heapkb", 64, "source KiB parsed per file for the retained-heap measurement")
		prof   = flag.String("profile", "", "instead of the report, run ours' `parse`, `pass`, `crawler`, `small` (w2's questions on the small files), `w1` or `w2` (the small files' parse and first question, or parse and 20 questions) alone under the CPU profiler (see -cpuprofile)")
		profTo = flag.String("cpuprofile", "cpu.prof", "where -profile writes the profile; empty: run without the profiler")
		profD  = flag.Duration("profiletime", 10*time.Second, "how long -profile runs")
		profN  = flag.Int("profilepasses", 0, "if positive, -profile runs this many passes instead of -profiletime (for counting instructions, see profile.go)")
		profC  = flag.Bool("profilecold", false, "with -profile: flush the caches before each pass, untimed, as the report's pass meets them")
		profF  = flag.String("profilefiles", "", "if set, -profile uses only the real files whose name holds this string")
		smaps  = flag.Bool("sitemaps", false, "instead of the report, compare the sitemap readers (needs no corpus)")
	)
	flag.StringVar(&cfg.shared, "shared", filepath.Join("..", "..", "shared"), "folder holding corpus/ and conformance/")
	flag.IntVar(&cfg.rounds, "rounds", 5, "timed rounds; each value is the median over rounds")
	flag.DurationVar(&cfg.batch, "batch", 200*time.Microsecond, "minimum duration of one timed batch")
	flag.IntVar(&cfg.every, "every", 1, "use every n-th real file (by name)")
	flag.BoolVar(&cfg.crawled, "crawled", true, "also ask each real file the crawled URLs of corpus/urls (as Googlebot) in the per-file spread, costliest files and pass tables")
	flag.BoolVar(&cfg.derived, "derived", true, "also ask the real files that corpus.tsv has no questions for questions made from their rules, in the same tables")
	flag.Parse()
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *quick {
		if !set["rounds"] {
			cfg.rounds = 2
		}
		if !set["every"] {
			cfg.every = 10
		}
		if !set["batch"] {
			cfg.batch = 100 * time.Microsecond
		}
	}
	if cfg.rounds < 1 || cfg.every < 1 || cfg.batch <= 0 || *heapKB < 1 {
		fmt.Fprintln(os.Stderr, "bench: -rounds, -every, -batch and -heapkb must be positive")
		os.Exit(2)
	}
	cfg.heapTarget = *heapKB << 10
	start := time.Now()
	if *smaps {
		if err := runSitemaps(os.Stdout, cfg.rounds); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if *prof != "" {
		c, err := loadCorpus(cfg.shared, cfg.every, cfg.crawled, cfg.derived)
		if err == nil {
			if *profF != "" {
				c.real = slices.DeleteFunc(c.real, func(f *file) bool { return !strings.Contains(f.name, *profF) })
			}
			err = profile(c, *prof, *profTo, *profD, *profN, *profC)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(os.Stdout, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "bench: done in %v\n", time.Since(start).Round(time.Second))
}

func logf(format string, a ...any) { fmt.Fprintf(os.Stderr, "bench: "+format+"\n", a...) }

// run measures and prints the report. The untimed measures come first,
// while the live heap is small; then every timed series runs in one
// interleaved loop; then one untimed pass counts allocations and checks the
// answers.
func run(w io.Writer, cfg config) error {
	start := time.Now()
	loadBefore := loadAvg()
	c, err := loadCorpus(cfg.shared, cfg.every, cfg.crawled, cfg.derived)
	if err != nil {
		return err
	}
	logf("%d real files, %d synthetic files", len(c.real), len(c.synth))

	heap := measureHeap(c.real, cfg.heapTarget)
	var l loop
	binary := newBinaryMeasure(c.real, oursCodec(), &heap.lib[iOurs], cfg.heapTarget, &l)
	parse := newParseMeasure(c.real, &l)
	query := newQueryMeasure(c.real, &l)
	pass := newPassMeasure(query, &l)
	small := newSmallMeasure(c.real, &l)
	hostile := newHostileMeasure(&l)
	synth := newSynthMeasure(c.synth, &l)
	scale := newScaleMeasure(&l)
	l.run(cfg.rounds, cfg.batch)
	allocs := measureAllocs(query)

	printHeader(w, len(c.real), len(c.all), len(c.synth), cfg.rounds, cfg.batch, cfg.every)
	fmt.Fprintf(w, "Load average (1 min) before the run: %s, after: %s.\n\n", loadBefore, loadAvg())
	t := &table{}
	parse.rows(t)
	small.rows(t)
	query.rows(t)
	pass.rows(t)
	query.slowestRow(t)
	allocs.rows(t)
	heap.rows(t)
	hostile.rows(t)
	parse.perByteRows(t)
	synth.rows(t, parse.nsPerByte())
	t.print(w)
	fmt.Fprintln(w)
	query.notes(w)
	heap.notes(w)
	allocs.notes(w)

	query.printSpread(w)
	pass.print(w)
	scale.print(w)
	binary.print(w)
	fmt.Fprintf(w, "\nRun took %v.\n", time.Since(start).Round(time.Second))
	return nil
}
