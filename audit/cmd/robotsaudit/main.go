// Command robotsaudit answers robots.txt questions in bulk: every robots.txt
// capture of WARC files, JSON Lines files or directories, times a list of
// crawlers, times a few paths or a list of URLs, answered as Google's parser
// does. See package github.com/robotstxt-go/robotstxt/audit for the inputs,
// the columns and the label.
//
// Usage:
//
//	robotsaudit [flags] INPUT...
//	robotsaudit logs -robots HISTORY [flags] [LOG...]
//
// Exit status: 0 when every record was answered, 1 when some were skipped
// (the problems are listed on stderr), 2 on a usage or output error, 3 when
// nothing was skipped but an input is empty (0 bytes: a download that
// failed?), 130 when interrupted (the output then holds the inputs that
// were done, and the rows answered so far of the one that was not).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"syscall"

	"github.com/robotstxt-go/robotstxt/audit"
	"golang.org/x/term"
)

func main() {
	// The live heap is small and bounded (a few captures per worker), and
	// a run allocates much more than it keeps: fewer collections cost
	// less. On the real corpus's WARC (written as audit/README.md shows),
	// one worker, 5 paths, three alternated runs of `/usr/bin/time -v
	// robotsaudit -workers 1 -paths … -o out.csv corpus.warc.gz` with and
	// without GOGC=100: 0.56-0.60 s of CPU time against 0.61-0.69 s, and a
	// peak RSS of 48-58 MB against 30-31 MB. GOGC, when set, decides.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "logs" {
		return runLogs(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("robotsaudit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		out      = fs.String("o", "", "write the rows to `file` (format from its extension: .csv, .jsonl, .parquet, .txt); default stdout")
		format   = fs.String("format", "", "output format: csv, jsonl, parquet or table (default: from -o, else table on a terminal, csv otherwise)")
		agents   = fs.String("agents", "", "`file` of crawlers, one a line (tokens separated by spaces or commas), or agent sets by name, comma-separated (crawlers, ai.robots.txt; see -agent-sets); default crawlers")
		sets     = fs.Bool("agent-sets", false, "list the bundled agent sets with their version, date and licence, and exit")
		paths    = fs.String("paths", "/", "comma-separated `paths` asked of every origin")
		urls     = fs.String("urls", "", "`file` of URLs (one a line, '-' for stdin) joined to their origin's robots.txt, instead of -paths")
		workers  = fs.Int("workers", 0, "goroutines that read, parse, lint and answer captures, a core's worth each (default: one per core)")
		noLint   = fs.Bool("nolint", false, "leave out the lint counts")
		ai       = fs.Bool("ai", false, "write the AI table instead: per origin × path (or URL), whether each AI operator may use the page for training, search, ai-input and user-fetch (columns ai_OPERATOR_USE and ai_OPERATOR_USE_line; -agents and -nolint are not used)")
		before   = fs.String("before", "", "inputs of an earlier crawl (a glob, or several comma-separated): write the change table from them to INPUT... instead of the answers")
		allCaps  = fs.Bool("all-captures", false, "answer every capture; by default each origin is answered once, by its latest capture (WARC-Date)")
		progress = fs.String("progress", "auto", "progress line on stderr: auto (when stderr is a terminal), always or never")
		problems = fs.String("problems", "", "write every problem and note as JSON Lines to `file`")
		notes    = fs.Bool("notes", false, "list the notes (HTML, binary data, bodies over 500 KiB) on stderr too; by default they are counted")
		chunk    = fs.Int("chunk", 0, "with -urls, URLs joined per pass over the inputs (default 100000)")
		bench    = fs.Bool("bench", false, "measure: read+gunzip alone, then the audit with 1 and 2 workers, side by side")
		benchN   = fs.Int("bench-runs", 3, "with -bench, runs of each measurement (the best is kept)")
		cpuProf  = fs.String("cpuprofile", "", "write a CPU profile of the run to `file` (for go tool pprof)")
	)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: robotsaudit [flags] INPUT...\n       %s\n\nINPUT is a WARC (.warc, .warc.gz), JSON Lines (.jsonl) file or a directory; globs are expanded.\n\n", logsUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *sets {
		for _, s := range audit.AgentSets() {
			fmt.Fprintf(stdout, "%s\t%d crawlers\t%s\t%s\t%s\n", s.Name, s.Agents, s.Source, s.Version, s.Date)
			if s.License != "" {
				fmt.Fprintf(stdout, "\n%s\n", s.License)
			}
		}
		return 0
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	if *cpuProf != "" {
		f, err := os.Create(*cpuProf)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(stderr, "robotsaudit:", err)
			return 2
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}
	inputs, err := audit.Expand(fs.Args())
	if err != nil {
		fmt.Fprintln(stderr, "robotsaudit:", err)
		return 2
	}
	cfg := audit.Config{Inputs: inputs, Workers: *workers, NoLint: *noLint, ChunkURLs: *chunk, AllCaptures: *allCaps, AI: *ai}
	if *before != "" {
		cfg.Before, err = audit.Expand(strings.Split(*before, ","))
		if err != nil {
			fmt.Fprintln(stderr, "robotsaudit: -before:", err)
			return 2
		}
	}
	if *agents != "" {
		cfg.Agents, err = audit.Agents(*agents)
		if err != nil {
			fmt.Fprintln(stderr, "robotsaudit: -agents:", err)
			return 2
		}
	}
	for _, p := range strings.Split(*paths, ",") {
		if p = strings.TrimSpace(p); p != "" {
			cfg.Paths = append(cfg.Paths, p)
		}
	}
	if *bench {
		return runBench(cfg, *benchN, stdout, stderr)
	}
	cfg.Format = *format
	if cfg.Format == "" && *out != "" {
		cfg.Format = audit.FormatOf(*out)
	}
	if cfg.Format == "" {
		cfg.Format = audit.FormatCSV
		if *out == "" && isTerminal(stdout) && !*ai {
			cfg.Format = audit.FormatTable // the AI table is too wide for one
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
		fmt.Fprintf(stderr, "robotsaudit: -progress %q: want auto, always or never\n", *progress)
		return 2
	}
	if *urls != "" {
		if *urls == "-" {
			cfg.URLs = os.Stdin
		} else {
			f, err := os.Open(*urls)
			if err != nil {
				fmt.Fprintln(stderr, "robotsaudit:", err)
				return 2
			}
			defer f.Close()
			cfg.URLs = f
		}
	}

	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()

	// A file is written beside its final name and renamed when complete, so
	// that no reader ever sees a torn file.
	w := stdout
	var tmp *os.File
	if *out != "" {
		if st, err := os.Lstat(*out); err == nil && !st.Mode().IsRegular() {
			fmt.Fprintf(stderr, "robotsaudit: -o %s: not a regular file (%s); only a regular file is replaced\n", *out, st.Mode().Type())
			return 2
		}
		tmp, err = os.CreateTemp(filepath.Dir(*out), "."+filepath.Base(*out)+".*.tmp")
		if err != nil {
			fmt.Fprintln(stderr, "robotsaudit:", err)
			return 2
		}
		defer os.Remove(tmp.Name())
		// CreateTemp makes the file 0600; the output is made as os.Create
		// would make it, 0666 less the umask.
		if err := tmp.Chmod(os.FileMode(0o666 &^ umask())); err != nil {
			fmt.Fprintln(stderr, "robotsaudit:", err)
			return 2
		}
		w = tmp
		cfg.TempDir = filepath.Dir(*out)
	}
	sum, err := audit.Run(ctx, cfg, w)
	if err == nil && tmp != nil {
		err = tmp.Close()
		if err == nil {
			err = os.Rename(tmp.Name(), *out)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "robotsaudit:", err)
		return 2
	}
	report(stderr, sum, *notes)
	if *problems != "" {
		if err := writeProblems(*problems, sum.Problems); err != nil {
			fmt.Fprintln(stderr, "robotsaudit:", err)
			return 2
		}
	}
	switch {
	case sum.Interrupted:
		return 130
	case sum.Skipped > 0:
		return 1
	case sum.Zero > 0:
		return 3
	}
	return 0
}

// maxListed is how many problems are listed on stderr.
const maxListed = 50

func report(w io.Writer, s *audit.Summary, notes bool) {
	listed, more := 0, 0
	for _, p := range s.Problems {
		if !p.Skipped && p.Kind != audit.ProblemZero && !notes {
			continue // a note: counted below
		}
		if listed == maxListed {
			more++
			continue
		}
		listed++
		fmt.Fprintln(w, "robotsaudit:", p)
	}
	if more > 0 {
		fmt.Fprintf(w, "robotsaudit: ... and %d more (see -problems)\n", more)
	}
	sec := s.Elapsed.Seconds()
	fmt.Fprintf(w, "robotsaudit: %d of %d inputs done, %d captures read, %d answered, %d rows, %.1f MB in %.2fs (%.1f MB/s, %.0f captures/s); %d skipped, %d notes, %d empty inputs\n",
		s.Done, s.Inputs, s.Seen, s.Captures, s.Rows, float64(s.Bytes)/1e6, sec, float64(s.Bytes)/1e6/sec, float64(s.Seen)/sec, s.Skipped, s.Notes, s.Zero)
	if s.Notes > 0 && !notes {
		fmt.Fprintln(w, "robotsaudit: notes (HTML, binary data, bodies over 500 KiB: answered as Google reads them) are listed by -notes and written by -problems")
	}
	if s.Changes != nil {
		fmt.Fprintln(w, "robotsaudit: changes:", s.Changes)
	}
	if s.URLs > 0 {
		fmt.Fprintf(w, "robotsaudit: %d URLs, %d with no robots.txt in the inputs\n", s.URLs, s.Unmatched)
	}
	if s.Interrupted {
		fmt.Fprintln(w, "robotsaudit: interrupted; the output holds the inputs that were done")
		if s.Partial != "" {
			fmt.Fprintf(w, "robotsaudit: and the rows answered so far of %s\n", s.Partial)
		}
	}
}

func writeProblems(name string, ps []audit.Problem) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, p := range ps {
		if err := enc.Encode(p); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
