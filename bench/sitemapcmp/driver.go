//go:build ignore

// The driver of run.sh: package sitemap against
// github.com/aafeher/go-sitemap-parser, built in a module of its own that
// run.sh makes outside the repository, so that neither the library nor the
// bench module ever needs that library.
//
//	driver compare [-rounds N] [-passes N]  serve the documents, run the rounds, print the tables
//	driver read IMPL URL PASSES             one reader in a process of its own (what compare runs)
//	driver follow URL                       aafeher's Parse of the index with every child answered 404
//
// The documents are made by internal/sitemaptest: a <urlset> of 50,000
// URLs, the same gzipped, and a <sitemapindex> of 50,000 sitemaps, with
// URLs on the server's own host. Both readers get them over HTTP from a
// server in the compare process, each reader in a fresh process per round
// and document, in an order that rotates with the round.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	aafeher "github.com/aafeher/go-sitemap-parser"
	"github.com/robotstxt-go/robotstxt/internal/sitemaptest"
	"github.com/robotstxt-go/robotstxt/sitemap"
)

const want = 50000 // the entries of each document

func main() {
	if len(os.Args) < 2 {
		fail(2, "usage: driver compare|read|follow ...")
	}
	switch os.Args[1] {
	case "compare":
		compare(os.Args[2:])
	case "read":
		if len(os.Args) != 5 {
			fail(2, "usage: driver read ours|aafeher|floor URL PASSES")
		}
		passes, err := strconv.Atoi(os.Args[4])
		if err != nil || passes < 1 {
			fail(2, "PASSES must be a positive integer")
		}
		readMode(os.Args[2], os.Args[3], passes)
	case "follow":
		if len(os.Args) != 3 {
			fail(2, "usage: driver follow URL")
		}
		followMode(os.Args[2])
	default:
		fail(2, "unknown mode "+os.Args[1])
	}
}

func fail(code int, msg string) {
	fmt.Fprintln(os.Stderr, "sitemapcmp:", msg)
	os.Exit(code)
}

// ---- the readers (one pass each: fetch the document, read every entry)

// isIndex tells the index from the sitemaps by its name.
func isIndex(u string) bool { return strings.HasSuffix(u, "/index.xml") }

// readOurs is what a crawler holding a sitemap's URL does with package
// sitemap: one GET, and the Reader over the body as it streams in.
func readOurs(u string) (int, error) {
	resp, err := http.Get(u)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("%s: status %d", u, resp.StatusCode)
	}
	r := sitemap.NewReader(resp.Body, &sitemap.Options{URL: u, ContentType: resp.Header.Get("Content-Type")})
	n := 0
	for _, err := range r.All() {
		if err != nil {
			return n, err
		}
		n++
	}
	if r.FindingCount() > 0 {
		return n, fmt.Errorf("%s: unexpected findings: %v", u, r.Findings())
	}
	return n, nil
}

// readAafeher is the same with aafeher's Parse, which fetches the URL
// itself. On a sitemap it returns the pages (GetURLs). On an index, Parse
// fetches every child it lists; to time the reading of the index alone,
// a follow pattern that no URL matches (SetFollow) keeps it from fetching
// any, so the count is not visible here: followMode checks it. n is -1
// then.
func readAafeher(u string) (int, error) {
	s := aafeher.New().SetFetchTimeout(600)
	if isIndex(u) {
		s.SetFollow([]string{`^$`})
	}
	if _, err := s.Parse(u, nil); err != nil {
		return 0, err
	}
	if s.GetErrorsCount() > 0 {
		return 0, fmt.Errorf("%s: %d errors, first %v", u, s.GetErrorsCount(), s.GetErrors()[0])
	}
	if isIndex(u) {
		return -1, nil
	}
	return len(s.GetURLs()), nil
}

// readFloor only fetches the document and discards it: what any reader
// pays before reading.
func readFloor(u string) (int, error) {
	resp, err := http.Get(u)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return 0, err
}

// ---- one reader in its own process

// readMode runs one untimed pass that samples the peak heap, one more at
// GOGC=10, then passes timed ones, and prints
//
//	RESULT impl entries cpu1,cpu2,... wall1,wall2,... peak held vmhwm
//
// with rates in entries per second of the process's CPU time and of the
// wall clock, and bytes.
func readMode(impl, u string, passes int) {
	read := map[string]func(string) (int, error){"ours": readOurs, "aafeher": readAafeher, "floor": readFloor}[impl]
	if read == nil {
		fail(2, "unknown reader "+impl)
	}
	var n int
	var err error
	peak := sitemaptest.PeakAbove(func() { n, err = read(u) })
	if err != nil {
		fail(1, impl+": "+err.Error())
	}
	old := debug.SetGCPercent(10)
	held := sitemaptest.PeakAbove(func() { read(u) })
	debug.SetGCPercent(old)
	var wall, cpu []string
	rate := func(d time.Duration) string { return strconv.FormatFloat(want/d.Seconds(), 'f', 0, 64) }
	for range passes {
		start, cpu0 := time.Now(), cpuTime()
		if _, err := read(u); err != nil {
			fail(1, impl+": "+err.Error())
		}
		cpu = append(cpu, rate(cpuTime()-cpu0))
		wall = append(wall, rate(time.Since(start)))
	}
	fmt.Printf("RESULT %s %d %s %s %d %d %d\n", impl, n, strings.Join(cpu, ","), strings.Join(wall, ","), peak, held, vmHWM())
}

// cpuTime is the CPU time of the whole process so far, user and system,
// over all its threads: the reader's goroutines, the HTTP client's and the
// collector's.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		fail(2, "getrusage: "+err.Error())
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// vmHWM is the process's peak resident set, from /proc/self/status.
func vmHWM() uint64 {
	data, _ := os.ReadFile("/proc/self/status")
	for line := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// followMode parses the index as aafeher does by default, following every
// child, with the children answered 404 in memory (no socket), and prints
//
//	FOLLOW children-requested errors seconds vmhwm
//
// Parse asks for each child it found once, so the children requested are
// the index entries it read.
func followMode(u string) {
	var children atomic.Int64
	client := &http.Client{Transport: roundTrip(func(req *http.Request) (*http.Response, error) {
		if req.URL.String() == u {
			return http.DefaultTransport.RoundTrip(req)
		}
		children.Add(1)
		return &http.Response{StatusCode: http.StatusNotFound, Status: "404 Not Found", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: http.Header{}, Body: http.NoBody, Request: req}, nil
	})}
	start := time.Now()
	s := aafeher.New().SetFetchTimeout(600).SetHTTPClient(client)
	if _, err := s.Parse(u, nil); err != nil {
		fail(1, "aafeher follow: "+err.Error())
	}
	fmt.Printf("FOLLOW %d %d %.2f %d\n", children.Load(), s.GetErrorsCount(), time.Since(start).Seconds(), vmHWM())
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// ---- the comparison

type doc struct {
	name, label, path, ctype string
	data                     []byte
}

type result struct {
	n                 int
	rate, wall        float64 // entries per CPU second and per second: medians of the process's timed passes
	peak, held, vmhwm uint64
}

func compare(args []string) {
	fs := flag.NewFlagSet("compare", flag.ExitOnError)
	rounds := fs.Int("rounds", 5, "interleaved rounds (a fresh process per reader, document and round)")
	passes := fs.Int("passes", 5, "timed passes in each process")
	fs.Parse(args)
	self, err := os.Executable()
	if err != nil {
		fail(2, err.Error())
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fail(2, err.Error())
	}
	base := "http://" + ln.Addr().String() + "/"
	var plain, gz, idx bytes.Buffer
	sitemaptest.URLSet(&plain, base, want, 0)
	sitemaptest.Index(&idx, base, want)
	zw := gzip.NewWriter(&gz)
	zw.Write(plain.Bytes())
	zw.Close()
	docs := []doc{
		{fmt.Sprintf("50,000-URL sitemap (%.1f MB)", float64(plain.Len())/1e6), "plain", "sitemap.xml", "application/xml", plain.Bytes()},
		{fmt.Sprintf("the same, gzipped (%.2f MB)", float64(gz.Len())/1e6), "gzipped", "sitemap.xml.gz", "application/gzip", gz.Bytes()},
		{fmt.Sprintf("50,000-entry index (%.1f MB)", float64(idx.Len())/1e6), "index", "index.xml", "application/xml", idx.Bytes()},
	}
	mux := http.NewServeMux()
	for _, d := range docs {
		mux.HandleFunc("/"+d.path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", d.ctype)
			w.Header().Set("Content-Length", strconv.Itoa(len(d.data)))
			w.Write(d.data)
		})
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	run := func(args ...string) string {
		cmd := exec.Command(self, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			fail(1, fmt.Sprintf("%v: %v\n%s", args, err, stderr.String()))
		}
		return string(out)
	}
	parse := func(out string) result {
		f := strings.Fields(lastLine(out, "RESULT "))
		if len(f) != 8 {
			fail(1, "bad RESULT line: "+out)
		}
		rates := func(list string) float64 {
			var v []float64
			for s := range strings.SplitSeq(list, ",") {
				v = append(v, atof(s))
			}
			return median(v)
		}
		var r result
		r.n, _ = strconv.Atoi(f[2])
		r.rate, r.wall = rates(f[3]), rates(f[4])
		r.peak, _ = strconv.ParseUint(f[5], 10, 64)
		r.held, _ = strconv.ParseUint(f[6], 10, 64)
		r.vmhwm, _ = strconv.ParseUint(f[7], 10, 64)
		return r
	}

	fmt.Printf("%s %s/%s, GOMAXPROCS %d, nproc %d; %d rounds, %d timed passes per process\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), runtime.NumCPU(), *rounds, *passes)
	fmt.Printf("load average before: %s\n", loadavg())

	// The count aafeher reads from the index, with the children it asks for.
	ff := strings.Fields(lastLine(run("follow", base+"index.xml"), "FOLLOW "))
	if len(ff) != 5 {
		fail(1, "bad FOLLOW line")
	}
	followed, _ := strconv.Atoi(ff[1])

	impls := []string{"ours", "aafeher"}
	res := make([][][]result, len(docs)) // doc, impl, round
	floor := make([][]result, len(docs))
	for d := range docs {
		res[d] = make([][]result, len(impls))
	}
	for r := range *rounds {
		for d, dc := range docs {
			floor[d] = append(floor[d], parse(run("read", "floor", base+dc.path, strconv.Itoa(*passes))))
			for k := range impls {
				i := (k + r + d) % len(impls)
				res[d][i] = append(res[d][i], parse(run("read", impls[i], base+dc.path, strconv.Itoa(*passes))))
			}
		}
		fmt.Fprintf(os.Stderr, "round %d of %d, load average %s\n", r+1, *rounds, loadavg())
	}
	fmt.Printf("load average after: %s\n\n", loadavg())

	// Entries found: every process of ours, aafeher's on the sitemaps, and
	// the children it asked for on the index.
	var problems []string
	for d, dc := range docs {
		for i, impl := range impls {
			for _, x := range res[d][i] {
				n := x.n
				if n < 0 {
					n = followed
				}
				if n != want {
					problems = append(problems, fmt.Sprintf("%s found %d entries in %s, want %d", impl, n, dc.path, want))
				}
			}
		}
	}

	mib := func(v float64) string { return fmt.Sprintf("%.1f MiB", v/(1<<20)) }
	spread := func(v []float64, format string) string {
		return fmt.Sprintf(format+" ("+format+"–"+format+")", median(v), slices.Min(v), slices.Max(v))
	}
	fmt.Println("| Document | ours entries/CPU-s | aafeher entries/CPU-s | ours ÷ aafeher (≥ 3×) | the same by the wall clock | ours peak heap | aafeher peak heap | ours ÷ aafeher (≤ 0.1) | held at GOGC=10: ours; aafeher | peak RSS: ours; aafeher; fetch only |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	type verdict struct{ speed, mem float64 }
	var verdicts []verdict
	for d, dc := range docs {
		col := func(i int, f func(result) float64) []float64 {
			var v []float64
			for _, x := range res[d][i] {
				v = append(v, f(x))
			}
			return v
		}
		rate := func(x result) float64 { return x.rate }
		peak := func(x result) float64 { return float64(x.peak) }
		held := func(x result) float64 { return float64(x.held) }
		rss := func(x result) float64 { return float64(x.vmhwm) }
		var speed, wall, mem []float64 // paired by round
		for r := range *rounds {
			speed = append(speed, res[d][0][r].rate/res[d][1][r].rate)
			wall = append(wall, res[d][0][r].wall/res[d][1][r].wall)
			mem = append(mem, float64(res[d][0][r].peak)/float64(res[d][1][r].peak))
		}
		verdicts = append(verdicts, verdict{median(speed), median(mem)})
		var fl []float64
		for _, x := range floor[d] {
			fl = append(fl, float64(x.vmhwm))
		}
		fmt.Printf("| %s | %.0f | %.0f | %s | %s | %s | %s | %s | %s; %s | %s; %s; %s |\n", dc.name,
			median(col(0, rate)), median(col(1, rate)), spread(speed, "%.1f×"), spread(wall, "%.1f×"),
			mib(median(col(0, peak))), mib(median(col(1, peak))), spread(mem, "%.3f"),
			mib(median(col(0, held))), mib(median(col(1, held))),
			mib(median(col(0, rss))), mib(median(col(1, rss))), mib(median(fl)))
	}
	fmt.Println()
	fmt.Printf("aafeher following the index (its default): asked for %s children (each answered 404 in memory), %s errors, %s s, peak RSS %s\n\n",
		ff[1], ff[2], ff[3], mib(atof(ff[4])))

	ok := len(problems) == 0
	var parts []string
	for d, v := range verdicts {
		good := v.speed >= 3 && v.mem <= 0.1
		ok = ok && good
		parts = append(parts, fmt.Sprintf("%s %.1f×/%.3f", docs[d].label, v.speed, v.mem))
	}
	for _, p := range problems {
		fmt.Println("  " + p)
	}
	status, code := "PASS", 0
	if !ok {
		status, code = "FAIL", 1
	}
	counts := "entries equal (50,000 each)"
	if len(problems) > 0 {
		counts = fmt.Sprintf("%d entry counts differ", len(problems))
	}
	fmt.Printf("sitemapcmp: %s ours vs aafeher, entries/CPU-s × and peak heap ratio: %s; %s\n", status, strings.Join(parts, ", "), counts)
	srv.Shutdown(context.Background())
	os.Exit(code)
}

func atof(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }

func lastLine(out, prefix string) string {
	var last string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), prefix) {
			last = sc.Text()
		}
	}
	if last == "" {
		fail(1, "no "+strings.TrimSpace(prefix)+" line in: "+out)
	}
	return last
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(data))[:3], " ")
}
