package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/robotstxt-go/robotstxt/audit"
	"github.com/robotstxt-go/robotstxt/verify"
)

// runLogs is "robotsaudit logs": which crawlers ignored a site's robots.txt,
// from its access logs. See audit.RunLogs.
//
// Exit status: 0, 1 when some lines did not parse (they are listed), 2 on a
// usage or output error, 130 when interrupted.
func runLogs(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("robotsaudit logs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		robots   = fs.String("robots", "", "the site's robots.txt history: a manifest `file` (.tsv: time, status, file), captures (.warc, .warc.gz, .jsonl) or one robots.txt file that was live all along (required)")
		site     = fs.String("site", "", "with captures of several sites, the `origin` whose robots.txt history to use (https://example.com)")
		out      = fs.String("o", "", "write the judged requests to `file` (.csv, .jsonl, .parquet); default stdout when it is not a terminal")
		format   = fs.String("format", "", "format of the rows: csv, jsonl or parquet (default: from -o, else csv)")
		all      = fs.Bool("all", false, "write every judged request (verdict allowed too), not only violations and grace")
		summary  = fs.String("summary", "", "write the per-crawler summary to `file` (.csv, .jsonl, .parquet)")
		report   = fs.String("report", "", "write the HTML report to `file`")
		logFmt   = fs.String("log-format", "auto", "log format: auto, clf, nginx-json, caddy, cloudflare or json (fields named by -json-*)")
		jTime    = fs.String("json-time", "", "JSON log: the time field (dots walk into objects: request.ts)")
		jIP      = fs.String("json-ip", "", "JSON log: the client address field")
		jMethod  = fs.String("json-method", "", "JSON log: the method field")
		jTarget  = fs.String("json-target", "", "JSON log: the request target field (path and query)")
		jStatus  = fs.String("json-status", "", "JSON log: the status field")
		jUA      = fs.String("json-ua", "", "JSON log: the User-Agent field")
		agents   = fs.String("agents", "crawlers,ai.robots.txt", "crawlers judged: a `file` of crawlers or agent sets by name, comma-separated")
		ranges   = fs.String("ranges", "", "check crawlers' identity (package verify) with the operators' prefix files saved in this snapshot `file`: {\"fetched\": TIME, \"files\": {URL: FILE}}, as robotstxt verify -ranges reads; offline, a claim from outside the files is forged only when its operator documents no other method (a Googlebot outside Google's files is unknown: Google also documents reverse DNS)")
		live     = fs.Bool("verify-live", false, "check crawlers' identity (package verify) over the network: fetch the operators' prefix files (those of -ranges serve until fetched anew) and look up reverse DNS, each answer cached; a log line has no URL, so signatures are not checked")
		since    = fs.String("since", "", "read the requests before `time` (RFC 3339) as context only: for robots.txt fetches and Crawl-delay, not counted or written (a day's shard: the day before's log, then the day's, -since the day's start)")
		workers  = fs.Int("workers", 0, "goroutines that parse and judge, a core's worth each (default: one per core)")
		progress = fs.String("progress", "auto", "progress line on stderr: auto (when stderr is a terminal), always or never")
		problems = fs.String("problems", "", "write every line that does not parse as JSON Lines to `file`")
		cpuProf  = fs.String("cpuprofile", "", "write a CPU profile of the run to `file`")
	)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: robotsaudit logs -robots HISTORY [flags] [LOG...]\n\nLOG is an access log (Combined Log Format or JSON Lines, gzipped or not); '-' or none reads stdin.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *robots == "" {
		fmt.Fprintln(stderr, "robotsaudit logs: -robots is required")
		fs.Usage()
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "robotsaudit logs:", err)
		return 2
	}
	if *cpuProf != "" {
		f, err := os.Create(*cpuProf)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			return fail(err)
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()

	hist, hp, err := audit.ReadRobotsHistory(ctx, *robots, *site)
	for _, p := range hp {
		fmt.Fprintln(stderr, "robotsaudit logs: -robots:", audit.EscapeTerminal(p.String()))
	}
	if err != nil {
		return fail(fmt.Errorf("-robots: %w", err))
	}
	cfg := audit.LogConfig{
		Logs: fs.Args(), Stdin: os.Stdin, Format: *logFmt, History: hist, All: *all, Workers: *workers,
		Fields: audit.LogFields{Time: *jTime, IP: *jIP, Method: *jMethod, Target: *jTarget, Status: *jStatus, UserAgent: *jUA},
	}
	if *ranges != "" || *live {
		vcfg := verify.Config{}
		if *live {
			vcfg.Client = &http.Client{Timeout: verify.DefaultFetchTimeout}
			vcfg.Resolver = net.DefaultResolver
		}
		v := verify.New(vcfg)
		if *ranges != "" {
			f, err := os.Open(*ranges)
			if err != nil {
				return fail(fmt.Errorf("-ranges: %w", err))
			}
			err = v.LoadSnapshot(f)
			f.Close()
			if err != nil {
				return fail(fmt.Errorf("-ranges: %w", err))
			}
		}
		cfg.Identifier = audit.VerifierIdentifier(ctx, v)
	}
	if *since != "" {
		if cfg.Since, err = time.Parse(time.RFC3339, *since); err != nil {
			return fail(fmt.Errorf("-since: %v", err))
		}
	}
	if cfg.Agents, err = audit.Agents(*agents); err != nil {
		return fail(fmt.Errorf("-agents: %w", err))
	}
	for _, l := range cfg.Logs {
		if l != "-" {
			if _, err := os.Stat(l); err != nil {
				return fail(err)
			}
		}
	}
	switch *progress {
	case "always":
		cfg.Progress = stderr
	case "auto":
		if isTerminal(stderr) {
			cfg.Progress = stderr
		}
	case "never":
	default:
		return fail(fmt.Errorf("-progress %q: want auto, always or never", *progress))
	}
	cfg.RowsFormat = *format
	if cfg.RowsFormat == "" && *out != "" {
		cfg.RowsFormat = audit.FormatOf(*out)
	}
	if cfg.RowsFormat == "" {
		cfg.RowsFormat = audit.FormatCSV
	}
	var probFile *os.File
	if *problems != "" {
		if probFile, err = os.Create(*problems); err != nil {
			return fail(err)
		}
		defer probFile.Close()
		enc := json.NewEncoder(probFile)
		cfg.Problem = func(p audit.LogProblem) { enc.Encode(p) }
	}

	rows := io.Writer(io.Discard)
	var rowsFile *atomicFile
	switch {
	case *out != "":
		if rowsFile, err = createAtomic(*out); err != nil {
			return fail(err)
		}
		defer rowsFile.abort()
		rows = rowsFile.f
	case !isTerminal(stdout):
		rows = stdout
	}
	res, err := audit.RunLogs(ctx, cfg, rows)
	interrupted := errors.Is(err, context.Canceled)
	if err != nil && !interrupted {
		return fail(err)
	}
	if rowsFile != nil {
		if err := rowsFile.commit(); err != nil {
			return fail(err)
		}
	}
	if *summary != "" {
		sf := audit.FormatOf(*summary)
		if sf == "" || sf == audit.FormatTable {
			sf = audit.FormatCSV
		}
		if err := writeAtomic(*summary, func(w io.Writer) error { return audit.WriteLogSummary(w, sf, res.Crawlers) }); err != nil {
			return fail(err)
		}
	}
	if *report != "" {
		if err := writeAtomic(*report, func(w io.Writer) error { return audit.WriteLogReport(w, res) }); err != nil {
			return fail(err)
		}
	}
	for _, p := range res.Problems {
		fmt.Fprintln(stderr, "robotsaudit logs:", p)
	}
	if res.Malformed > int64(len(res.Problems)) {
		fmt.Fprintf(stderr, "robotsaudit logs: ... and %d more lines that do not parse (see -problems)\n", res.Malformed-int64(len(res.Problems)))
	}
	audit.WriteLogTable(stderr, res)
	switch {
	case interrupted:
		fmt.Fprintln(stderr, "robotsaudit logs: interrupted; the outputs hold the lines read so far")
		return 130
	case res.Malformed > 0:
		return 1
	}
	return 0
}

// atomicFile is written beside its final name and renamed when complete,
// so that no reader sees a torn file.
type atomicFile struct {
	f    *os.File
	name string
	done bool
}

func createAtomic(name string) (*atomicFile, error) {
	if st, err := os.Lstat(name); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%s); only a regular file is replaced", name, st.Mode().Type())
	}
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*.tmp")
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(os.FileMode(0o666 &^ umask())); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return &atomicFile{f: f, name: name}, nil
}

func (a *atomicFile) commit() error {
	a.done = true
	if err := a.f.Close(); err != nil {
		os.Remove(a.f.Name())
		return err
	}
	return os.Rename(a.f.Name(), a.name)
}

func (a *atomicFile) abort() {
	if !a.done {
		a.f.Close()
		os.Remove(a.f.Name())
	}
}

func writeAtomic(name string, write func(io.Writer) error) error {
	a, err := createAtomic(name)
	if err != nil {
		return err
	}
	defer a.abort()
	if err := write(a.f); err != nil {
		return err
	}
	return a.commit()
}

// logsUsage is the line the main usage gives the subcommand.
var logsUsage = strings.TrimSpace(`
robotsaudit logs -robots HISTORY [flags] [LOG...]   which crawlers ignored a site's robots.txt (robotsaudit logs -h)`)
