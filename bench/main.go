// Command bench compares package robotstxt ("ours") with
// github.com/temoto/robotstxt and github.com/jimsmart/grobotstxt on the
// robots.txt corpus that sits beside the repository (../shared), in one
// interleaved run, and prints a Markdown table.
//
//	cd bench && go run .          # full run: a few minutes on 2 cores
//	cd bench && go run . -quick   # every 10th file, 2 rounds: under a minute
//
// Every timed measurement is a series: a batch of calls of one library on
// one file, calibrated to last at least -batch, timed once per round. The
// libraries take turns in an order that rotates with the file and the round,
// so drifts of the machine (other processes, thermal limits) spread over all
// of them. A file's value is the median over the rounds; a table cell is the
// median over the files. See README.md for what each row measures.
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
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

// fileRun holds the series of one corpus file.
type fileRun struct {
	f       *file
	parse   [nLibs]*series // grobotstxt: parse plus one question
	query   [nLibs]*series // nil when the file has no questions or the library could not open it
	openErr [nLibs]error
}

// hostile is a pathological question asked of each library.
type hostile struct {
	name   string
	robots string
	q      question
	query  [nLibs]*series
}

// synthRun holds the series of one synthetic file, for ours only.
type synthRun struct {
	f     *file
	parse *series
	query []*series // one per question
}

func main() {
	var (
		shared = flag.String("shared", filepath.Join("..", "..", "shared"), "folder holding corpus/ and conformance/")
		quick  = flag.Bool("quick", false, "quick mode: every 10th real file, 2 rounds, 100µs batches (under a minute)")
		rounds = flag.Int("rounds", 5, "timed rounds; each value is the median over rounds")
		batch  = flag.Duration("batch", 200*time.Microsecond, "minimum duration of one timed batch")
		every  = flag.Int("every", 1, "use every n-th real file (by name)")
		heapKB = flag.Int("heapkb", 64, "source KiB parsed per file for the retained-heap measurement")
	)
	flag.Parse()
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *quick {
		if !set["rounds"] {
			*rounds = 2
		}
		if !set["every"] {
			*every = 10
		}
		if !set["batch"] {
			*batch = 100 * time.Microsecond
		}
	}
	if *rounds < 1 || *every < 1 || *batch <= 0 || *heapKB < 1 {
		fmt.Fprintln(os.Stderr, "bench: -rounds, -every, -batch and -heapkb must be positive")
		os.Exit(2)
	}
	start := time.Now()
	if err := run(os.Stdout, *shared, *rounds, *batch, *every, *heapKB<<10); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "bench: done in %v\n", time.Since(start).Round(time.Second))
}

func logf(format string, a ...any) { fmt.Fprintf(os.Stderr, "bench: "+format+"\n", a...) }

func run(w io.Writer, shared string, rounds int, batch time.Duration, every, heapTarget int) error {
	start := time.Now()
	loadBefore := loadAvg()
	corpus := filepath.Join(shared, "corpus")
	all, err := readDir(corpus, "real")
	if err != nil {
		return err
	}
	var real []*file
	for i, f := range all {
		if i%every == 0 {
			real = append(real, f)
		}
	}
	synth, err := readDir(corpus, "synthetic")
	if err != nil {
		return err
	}
	if err := addQuestions(filepath.Join(shared, "conformance", "corpus.tsv"), append(slices.Clip(real), synth...)); err != nil {
		return err
	}
	if err := addURLLists(corpus, synth); err != nil {
		return err
	}
	logf("%d real files, %d synthetic files", len(real), len(synth))

	// Retained heap, for the libraries that keep a parsed object. It comes
	// first, while the live heap is small (the corpus bytes, which hold no
	// pointers), so that each of its full collections is quick.
	t0 := time.Now()
	holder := make([]any, 256)
	var heap [nLibs][]float64
	var heapBytes, heapSrc [nLibs]float64
	var heapErr [nLibs]int
	for _, f := range real {
		if len(f.data) == 0 {
			continue
		}
		for li, lib := range libraries {
			if lib.parse == nil {
				continue
			}
			ratio, err := retainedPerByte(lib.parse, f.data, holder, heapTarget)
			if err != nil {
				heapErr[li]++
				continue
			}
			heap[li] = append(heap[li], ratio)
			heapBytes[li] += ratio * float64(len(f.data))
			heapSrc[li] += float64(len(f.data))
		}
	}
	logf("retained-heap pass took %v", time.Since(t0).Round(time.Millisecond))

	// Build every series, then run them all in one interleaved loop.
	probe := newQuestion("Googlebot", "https://example.com/", true)
	var groups [][]*series
	runs := make([]*fileRun, len(real))
	for i, f := range real {
		fr := &fileRun{f: f}
		runs[i] = fr
		for li, lib := range libraries {
			data := f.data
			if lib.parse != nil {
				parse := lib.parse
				fr.parse[li] = newSeries(func(int) { sinkAny, _ = parse(data) })
			} else {
				answer, _ := lib.open(data)
				fr.parse[li] = newSeries(func(int) { sinkBool = answer(&probe) })
			}
			if len(f.questions) == 0 {
				continue
			}
			answer, err := lib.open(data)
			if err != nil {
				fr.openErr[li] = err
				continue
			}
			qs := f.questions
			fr.query[li] = newSeries(func(i int) { sinkBool = answer(&qs[i%len(qs)]) })
		}
		groups = append(groups, fr.parse[:])
		if fr.query[iTemoto] != nil || fr.query[iGrobot] != nil || fr.query[iOurs] != nil {
			groups = append(groups, fr.query[:])
		}
	}

	hostiles := []*hostile{
		{name: "`Disallow: /` + 30×`*a` + `$` vs `/` + 2000×`a` + `b`",
			robots: "User-agent: *\nDisallow: /" + strings.Repeat("*a", 30) + "$\n",
			q:      newQuestion("Googlebot", "https://example.com/"+strings.Repeat("a", 2000)+"b", true)},
		{name: "`Disallow: /*a*a*a*a*b` vs `/` + 100,000×`a`",
			robots: "User-agent: *\nDisallow: /*a*a*a*a*b\n",
			q:      newQuestion("Googlebot", "https://example.com/"+strings.Repeat("a", 100_000), true)},
		{name: "`Disallow: /` + 500×`*` + `x$` vs `/` + 10,000×`a`",
			robots: "User-agent: *\nDisallow: /" + strings.Repeat("*", 500) + "x$\n",
			q:      newQuestion("Googlebot", "https://example.com/"+strings.Repeat("a", 10_000), true)},
	}
	for _, h := range hostiles {
		for li, lib := range libraries {
			answer, err := lib.open([]byte(h.robots))
			if err != nil {
				continue
			}
			q := h.q
			h.query[li] = newSeries(func(int) { sinkBool = answer(&q) })
		}
		groups = append(groups, h.query[:])
	}

	var synths []*synthRun
	for _, f := range synth {
		sr := &synthRun{f: f}
		data := f.data
		sr.parse = newSeries(func(int) { sinkAny, _ = ours.parse(data) })
		groups = append(groups, []*series{sr.parse})
		answer, _ := ours.open(data)
		for i := range f.questions {
			q := &f.questions[i]
			s := newSeries(func(int) { sinkBool = answer(q) })
			sr.query = append(sr.query, s)
			groups = append(groups, []*series{s})
		}
		synths = append(synths, sr)
	}

	// Round 0 calibrates and warms up; rounds 1..n are timed.
	for r := 0; r <= rounds; r++ {
		t0 := time.Now()
		for gi, g := range groups {
			for k := range g {
				g[(gi+r+k)%len(g)].run(batch)
			}
		}
		what := "timed"
		if r == 0 {
			what = "calibration"
		}
		logf("round %d/%d (%s) took %v", r, rounds, what, time.Since(t0).Round(time.Millisecond))
	}

	// Allocations and agreement with the reference: one untimed pass, on
	// one P as testing.AllocsPerRun does. A file's allocs/query is the
	// smaller of two passes over its questions, so that a malloc of the
	// runtime that happens to fall in the window is not charged to a library
	// (an allocation of the library repeats in both). grobotstxt parses the
	// whole file for every question, so it is asked only the first
	// grobotQuestions questions of each file, once.
	t0 = time.Now()
	const grobotQuestions = 8
	type tally struct {
		asked, agreed int
		allocs        []float64 // per file
		mallocs       float64   // total
		panics        int
	}
	var tallies [nLibs]tally
	procs := runtime.GOMAXPROCS(1)
	for _, fr := range runs {
		qs := fr.f.questions
		for li, lib := range libraries {
			if fr.query[li] == nil {
				continue
			}
			answer, _ := lib.open(fr.f.data)
			n, passes := len(qs), 2
			if li == iGrobot {
				n, passes = min(n, grobotQuestions), 1
			}
			t := &tallies[li]
			a := math.Inf(1)
			var p string
			for range passes {
				var ap float64
				ap, p = allocsPerCall(n, func(i int) { sinkBool = answer(&qs[i]) })
				a = min(a, ap)
			}
			if p == "" {
				var asked, agreed int
				asked, agreed, p = agreement(answer, qs[:n])
				t.asked += asked
				t.agreed += agreed
			}
			if p != "" {
				t.panics++
				continue
			}
			t.allocs = append(t.allocs, a)
			t.mallocs += a * float64(n)
		}
	}
	runtime.GOMAXPROCS(procs)
	logf("allocation pass took %v", time.Since(t0).Round(time.Millisecond))

	// The report.
	t := &table{}
	printHeader(w, len(real), len(all), len(synth), rounds, batch, every)
	fmt.Fprintf(w, "Load average (1 min) before the run: %s, after: %s.\n\n", loadBefore, loadAvg())

	// Parse throughput: median per file of bytes/ns, and the whole corpus.
	var mbps [nLibs][]float64
	var sumBytes, sumNS [nLibs]float64
	for _, fr := range runs {
		size := float64(len(fr.f.data))
		for li := range libraries {
			s := fr.parse[li]
			if !s.ok() || size == 0 {
				continue
			}
			ns := s.median()
			mbps[li] = append(mbps[li], size/ns*1e3)
			sumBytes[li] += size
			sumNS[li] += ns
		}
	}
	pT, pG, pO := median(mbps[iTemoto]), median(mbps[iGrobot]), median(mbps[iOurs])
	t.row("Parse throughput, median per file (MB/s)",
		f3(pT), fmt.Sprintf("n/a (parse + 1 query: %s)", f3(pG)), f3(pO),
		higherBetter(pO, pT, "faster"), "≥ 10× temoto", pO >= 10*pT)
	aT, aG, aO := sumBytes[iTemoto]/sumNS[iTemoto]*1e3, sumBytes[iGrobot]/sumNS[iGrobot]*1e3, sumBytes[iOurs]/sumNS[iOurs]*1e3
	t.row("Parse throughput, whole corpus (MB/s)",
		f3(aT), fmt.Sprintf("n/a (parse + 1 query: %s)", f3(aG)), f3(aO),
		higherBetter(aO, aT, "faster"), "≥ 10× temoto", aO >= 10*aT)

	// Queries: the files that every library could answer.
	var qns [nLibs][]float64
	var qFiles, qSkipped int
	for _, fr := range runs {
		if len(fr.f.questions) == 0 {
			continue
		}
		if !fr.query[iTemoto].ok() || !fr.query[iGrobot].ok() || !fr.query[iOurs].ok() {
			qSkipped++
			continue
		}
		qFiles++
		for li := range libraries {
			qns[li] = append(qns[li], fr.query[li].median())
		}
	}
	qT, qG, qO := median(qns[iTemoto]), median(qns[iGrobot]), median(qns[iOurs])
	t.row(fmt.Sprintf("Allowed, median per file (ns/query; %d files)", qFiles),
		fns(qT), fns(qG), fns(qO), lowerBetter(qO, qT, "faster"), "≥ 30× faster than temoto", 30*qO <= qT)
	alT, alG, alO := median(tallies[iTemoto].allocs), median(tallies[iGrobot].allocs), median(tallies[iOurs].allocs)
	meanAllocs := func(li int) float64 {
		n := 0
		for _, fr := range runs {
			if fr.query[li] != nil {
				if li == iGrobot {
					n += min(len(fr.f.questions), grobotQuestions)
				} else {
					n += len(fr.f.questions)
				}
			}
		}
		return tallies[li].mallocs / float64(max(n, 1))
	}
	t.row("Allowed, allocs/query (median per file; mean)",
		fmt.Sprintf("%s; %s", f3(alT), f3(meanAllocs(iTemoto))),
		fmt.Sprintf("%s; %s", f3(alG), f3(meanAllocs(iGrobot))),
		fmt.Sprintf("%s; %s", f3(alO), f3(meanAllocs(iOurs))),
		fmt.Sprintf("%s vs %s", f3(meanAllocs(iOurs)), f3(meanAllocs(iTemoto))), "0", meanAllocs(iOurs) == 0)
	agree := func(li int) string {
		tl := tallies[li]
		if tl.asked == 0 {
			return "–"
		}
		return fmt.Sprintf("%.2f%% of %d", 100*float64(tl.agreed)/float64(tl.asked), tl.asked)
	}
	t.row("Answers equal to Google's reference (corpus.tsv)",
		agree(iTemoto), agree(iGrobot), agree(iOurs), "–", "100%",
		tallies[iOurs].asked > 0 && tallies[iOurs].agreed == tallies[iOurs].asked)

	hT, hO := median(heap[iTemoto]), median(heap[iOurs])
	t.row("Heap retained / source bytes, median per file",
		f3(hT)+"×", "n/a (keeps no parsed object)", f3(hO)+"×", lowerBetter(hO, hT, "smaller"), "≤ 1.0× source", hO <= 1)
	hwT, hwO := heapBytes[iTemoto]/heapSrc[iTemoto], heapBytes[iOurs]/heapSrc[iOurs]
	t.row("Heap retained / source bytes, whole corpus",
		f3(hwT)+"×", "n/a", f3(hwO)+"×", lowerBetter(hwO, hwT, "smaller"), "≤ 1.0× source", hwO <= 1)

	for _, h := range hostiles {
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

	// Synthetic files against the corpus median cost per byte (ours).
	var perByte []float64
	type worst struct {
		name  string
		ratio float64
	}
	for _, fr := range runs {
		if s := fr.parse[iOurs]; s.ok() && len(fr.f.data) > 0 {
			perByte = append(perByte, s.median()/float64(len(fr.f.data)))
		}
	}
	medPerByte := median(perByte)
	t.row("Parse cost, median per file over the real corpus (ns/B)",
		f3(1e3/pT), "–", f3(medPerByte), "–", "reference for the rows below", true)
	var w4k worst
	for _, fr := range runs {
		if s := fr.parse[iOurs]; s.ok() && len(fr.f.data) >= 4<<10 {
			if r := s.median() / float64(len(fr.f.data)) / medPerByte; r > w4k.ratio {
				w4k = worst{fr.f.name, r}
			}
		}
	}
	t.row(fmt.Sprintf("Slowest real file ≥ 4 KiB per byte (%s)", strings.TrimPrefix(w4k.name, "real/")),
		"–", "–", f3(w4k.ratio)+"× median", "–", "≤ 5× median", w4k.ratio <= 5)
	for _, sr := range synths {
		size := len(sr.f.data)
		if !sr.parse.ok() || size == 0 {
			continue
		}
		nsB := sr.parse.median() / float64(size)
		var sum, top float64
		var n int
		for _, s := range sr.query {
			if s.ok() {
				m := s.median()
				sum += m
				top = max(top, m)
				n++
			}
		}
		qcell := "no questions"
		if n > 0 {
			qcell = fmt.Sprintf("query mean %s, max %s (%d)", fns(sum/float64(n)), fns(top), n)
		}
		t.row(fmt.Sprintf("Synthetic %s (%s): parse ns/B; query", strings.TrimPrefix(sr.f.name, "synthetic/"), fsize(size)),
			"–", "–", fmt.Sprintf("%s ns/B = %s× median; %s", f3(nsB), f3(nsB/medPerByte), qcell),
			"–", "≤ 5× median", nsB/medPerByte <= 5)
	}
	t.print(w)

	fmt.Fprintln(w)
	fmt.Fprintf(w, "- Questions: %d real files have conformance questions; %d of them are left out of the Allowed rows because a library could not answer them", qFiles+qSkipped, qSkipped)
	var why []string
	for li, lib := range libraries {
		var openErrs, panics int
		for _, fr := range runs {
			if fr.openErr[li] != nil {
				openErrs++
			}
			if s := fr.query[li]; s != nil && s.panic != "" {
				panics++
			}
		}
		if openErrs > 0 {
			why = append(why, fmt.Sprintf("%s returned an error for %d", lib.name, openErrs))
		}
		if panics > 0 {
			why = append(why, fmt.Sprintf("%s panicked on %d", lib.name, panics))
		}
	}
	if len(why) > 0 {
		fmt.Fprintf(w, " (%s)", strings.Join(why, ", "))
	}
	fmt.Fprintln(w, ".")
	if heapErr[iTemoto] > 0 {
		fmt.Fprintf(w, "- Heap: temoto returned an error (and no rules) for %d of %d non-empty files; they are left out of its heap rows.\n",
			heapErr[iTemoto], heapErr[iTemoto]+len(heap[iTemoto]))
	}
	fmt.Fprintf(w, "- grobotstxt's allocs and agreement are over the first %d questions of each file (it re-parses the file for each).\n", grobotQuestions)
	fmt.Fprintf(w, "- Run took %v.\n", time.Since(start).Round(time.Second))
	return nil
}

// table collects the rows of the Markdown table.
type table struct{ rows [][]string }

func (t *table) row(measure, temoto, grobot, ours, ratio, target string, met bool) {
	mark := " ✓"
	if !met {
		mark = " ✗"
	}
	if target == "reference for the rows below" {
		mark = ""
	}
	t.rows = append(t.rows, []string{measure, temoto, grobot, ours, ratio, target + mark})
}

func (t *table) print(w io.Writer) {
	fmt.Fprintln(w, "| measure | temoto | grobotstxt | ours | ours vs temoto | target |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, r := range t.rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
	}
}

func printHeader(w io.Writer, nReal, nAll, nSynth, rounds int, batch time.Duration, every int) {
	fmt.Fprintf(w, "Machine: %d CPUs (GOMAXPROCS %d), %s, %s %s/%s.\n",
		runtime.NumCPU(), runtime.GOMAXPROCS(0), cpuModel(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(w, "Libraries: %s.\n", versions())
	fmt.Fprintf(w, "Corpus: %d of %d real files (every %d), %d synthetic; %d timed rounds, batches ≥ %v.\n",
		nReal, nAll, every, nSynth, rounds, batch)
}

// loadAvg returns the 1-minute load average, which tells how much the
// machine was shared during the run.
func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	if f := strings.Fields(string(data)); len(f) > 0 {
		return f[0]
	}
	return "unknown"
}

func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

// versions names the module versions in the build, and the commit of ours.
func versions() string {
	var out []string
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if strings.HasSuffix(d.Path, "/temoto/robotstxt") || strings.HasSuffix(d.Path, "/grobotstxt") {
				out = append(out, d.Path+" "+d.Version)
			}
		}
	}
	ours := "ours from ../"
	if rev, err := exec.Command("git", "-C", "..", "rev-parse", "--short", "HEAD").Output(); err == nil {
		ours += " at " + strings.TrimSpace(string(rev))
		if st, err := exec.Command("git", "-C", "..", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
			ours += " (with uncommitted changes)"
		}
	}
	return strings.Join(append(out, ours), ", ")
}

// f3 formats a number with three significant digits.
func f3(v float64) string {
	switch {
	case math.IsNaN(v):
		return "–"
	case v == 0:
		return "0"
	case math.Abs(v) >= 100:
		return fmt.Sprintf("%.0f", v)
	case math.Abs(v) >= 10:
		return fmt.Sprintf("%.1f", v)
	case math.Abs(v) >= 1:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// fns formats nanoseconds with a unit.
func fns(ns float64) string {
	switch {
	case math.IsNaN(ns):
		return "–"
	case ns >= 1e9:
		return f3(ns/1e9) + " s"
	case ns >= 1e6:
		return f3(ns/1e6) + " ms"
	case ns >= 1e3:
		return f3(ns/1e3) + " µs"
	}
	return f3(ns) + " ns"
}

func fsize(n int) string {
	switch {
	case n >= 1<<20:
		return f3(float64(n)/(1<<20)) + " MiB"
	case n >= 1<<10:
		return f3(float64(n)/(1<<10)) + " KiB"
	}
	return fmt.Sprintf("%d B", n)
}

// higherBetter describes ours against temoto for a measure where more is
// better, such as throughput.
func higherBetter(ours, temoto float64, word string) string {
	if math.IsNaN(ours) || math.IsNaN(temoto) || ours <= 0 || temoto <= 0 {
		return "–"
	}
	return compare(ours/temoto, word)
}

// lowerBetter describes ours against temoto for a measure where less is
// better, such as time or memory.
func lowerBetter(ours, temoto float64, word string) string {
	if math.IsNaN(ours) || math.IsNaN(temoto) || ours <= 0 || temoto <= 0 {
		return "–"
	}
	return compare(temoto/ours, word)
}

func compare(x float64, word string) string {
	if x >= 1 {
		return f3(x) + "× " + word
	}
	opposite := map[string]string{"faster": "slower", "smaller": "larger"}[word]
	return f3(1/x) + "× " + opposite
}
