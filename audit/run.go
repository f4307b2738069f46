package audit

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robotstxt-go/robotstxt"
)

// Config is what Run asks of which inputs.
type Config struct {
	Inputs []string // files and directories (see Expand), one shard each
	// Before, when set, is an earlier crawl: Run writes the change table
	// (Change rows) from it to Inputs instead of the answers.
	Before  []string
	Agents  []Agent  // default BuiltinAgents()
	Paths   []string // default "/"; ignored with URLs
	URLs    io.Reader
	Format  string // default FormatCSV
	Workers int    // default runtime.NumCPU()
	NoLint  bool   // leave out the lint counts (they cost a lint.Summarize per capture)
	// AI writes the AI table instead of the agents' answers: for each
	// answered capture × path (or each URL of URLs), whether each AI
	// operator may use the page for each use, as package aiuse answers
	// (see the package documentation). Agents and NoLint are not used.
	AI bool
	// AllCaptures answers every capture. By default each origin is
	// answered once for all the inputs, by its latest capture (see
	// index), after a first pass that reads the inputs for their dates.
	AllCaptures bool
	// ChunkURLs is how many URLs of the URL list are joined at once: each
	// chunk is one pass over the inputs. Default 100,000.
	ChunkURLs int
	TempDir   string    // where parts are written; default os.TempDir()
	Progress  io.Writer // where a progress line is drawn, or nil

	split int64 // the segments of a .gz WARC read by several workers; tests make them small
	// sink, when set, is handed each row instead of writing it (Format
	// formatRows); it is called from one goroutine at a time, in order.
	sink func(*Row) error
}

// Summary tells what a run did.
type Summary struct {
	Inputs      int       // inputs named
	Done        int       // inputs read to the end and in the output
	Captures    int64     // robots.txt captures answered
	Seen        int64     // robots.txt captures read (more than Captures when an origin has several)
	Rows        int64     // rows written
	Bytes       int64     // input bytes read (compressed, as on disk)
	URLs        int64     // URLs of the URL list read
	Unmatched   int64     // URLs whose robots.txt no input holds (no rows)
	Problems    []Problem // in input order, then in the order they were found
	Skipped     int       // problems that skipped a record, line or input
	Notes       int       // problems that skipped nothing (HTML, oversize bodies)
	Zero        int       // inputs of 0 bytes
	Interrupted bool      // the context was cancelled: the output holds the inputs in Done
	// Partial is the input that was being answered when the run was
	// interrupted: the output holds the rows of its records answered so
	// far (with -paths), after those of the inputs done. "" when none.
	Partial string
	Changes *ChangeCounts // with Config.Before
	Elapsed time.Duration
}

// count sets Skipped, Notes and Zero from Problems.
func (s *Summary) count() {
	s.Skipped, s.Notes, s.Zero = 0, 0, 0
	for _, p := range s.Problems {
		switch {
		case p.Skipped:
			s.Skipped++
		case p.Kind == ProblemZero:
			s.Zero++
		default:
			s.Notes++
		}
	}
}

func (c *Config) defaults() {
	if len(c.Agents) == 0 {
		c.Agents = BuiltinAgents()
	}
	if len(c.Paths) == 0 {
		c.Paths = []string{"/"}
	}
	if c.Format == "" {
		c.Format = FormatCSV
	}
	if c.Workers <= 0 {
		c.Workers = runtime.NumCPU()
	}
	if c.split <= 0 {
		c.split = segmentSize
	}
	if c.ChunkURLs <= 0 {
		c.ChunkURLs = 100_000
	}
	if c.TempDir == "" {
		c.TempDir = os.TempDir()
	}
}

// Run answers the questions of cfg for its inputs and writes the rows to
// out in cfg.Format. When ctx is cancelled, Run stops reading, writes the
// inputs that were done, and returns with Summary.Interrupted set: the
// output is complete (a whole CSV, JSON Lines or Parquet file) but holds
// fewer inputs. An error is returned only when the output cannot be
// written; problems in the inputs are in the Summary.
func Run(ctx context.Context, cfg Config, out io.Writer) (*Summary, error) {
	cfg.defaults()
	switch cfg.Format {
	case FormatCSV, FormatJSONL, FormatParquet, FormatTable:
	case formatRows:
		if cfg.sink == nil {
			return nil, fmt.Errorf("format %q needs a sink", cfg.Format)
		}
	default:
		return nil, fmt.Errorf("unknown format %q (want one of %s)", cfg.Format, strings.Join(Formats, ", "))
	}
	start := time.Now()
	st := &runState{cfg: &cfg, sum: &Summary{Inputs: len(cfg.Inputs)}, probs: make([][]Problem, len(cfg.Inputs))}
	stop := st.progress()
	var err error
	for _, p := range cfg.Paths {
		if !strings.HasPrefix(p, "/") {
			return nil, fmt.Errorf("path %q does not start with '/'", p)
		}
	}
	if cfg.AI && (len(cfg.Before) > 0 || cfg.Format == FormatTable || cfg.Format == formatRows) {
		return nil, fmt.Errorf("the AI table is written as CSV, JSON Lines or Parquet, without -before")
	}
	if len(cfg.Before) > 0 {
		if cfg.URLs != nil {
			return nil, fmt.Errorf("a change table is made with paths, not a URL list")
		}
		if cfg.Format == FormatTable {
			return nil, fmt.Errorf("a change table is written as CSV, JSON Lines or Parquet")
		}
		err = st.runChanges(ctx, out)
		stop()
		st.sum.Interrupted = ctx.Err() != nil
		st.sum.Elapsed = time.Since(start)
		return st.sum, err
	}
	if !cfg.AllCaptures {
		st.index, err = st.buildIndex(ctx)
		if errors.Is(err, context.Canceled) {
			err = nil
		}
	}
	switch {
	case err != nil:
	case cfg.URLs != nil:
		err = st.runURLs(ctx, out)
	case cfg.AI:
		err = st.runAIPaths(ctx, out)
	default:
		err = st.runPaths(ctx, out)
	}
	stop()
	s := st.sum
	s.Bytes = st.bytes.Load()
	s.Captures = st.captures.Load()
	s.Seen = st.seen.Load()
	for _, ps := range st.probs {
		s.Problems = append(s.Problems, ps...)
	}
	s.count()
	s.Interrupted = ctx.Err() != nil
	s.Elapsed = time.Since(start)
	return s, err
}

type runState struct {
	cfg      *Config
	sum      *Summary
	probs    [][]Problem // per input
	index    index       // nil with AllCaptures
	bytes    atomic.Int64
	captures atomic.Int64
	seen     atomic.Int64
}

// forInputs runs f for each input on cfg.Workers workers and reports which
// finished.
func (st *runState) forInputs(ctx context.Context, f func(i int) error) ([]bool, error) {
	done := make([]bool, len(st.cfg.Inputs))
	next := make(chan int)
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	for w := 0; w < st.cfg.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				err := f(i)
				mu.Lock()
				switch {
				case err == nil:
					done[i] = true
				case !errors.Is(err, context.Canceled) && first == nil:
					first = err
				}
				mu.Unlock()
			}
		}()
	}
	for i := range st.cfg.Inputs {
		if ctx.Err() != nil {
			break
		}
		select {
		case next <- i:
		case <-ctx.Done():
		}
	}
	close(next)
	wg.Wait()
	return done, first
}

func (st *runState) reporter(i int) func(Problem) {
	return func(p Problem) { st.probs[i] = append(st.probs[i], p) }
}

// runPaths answers the paths for every capture: each input to a part, the
// parts joined in input order.
func (st *runState) runPaths(ctx context.Context, out io.Writer) error {
	cfg := st.cfg
	q := newQuestions(cfg.Agents, cfg.Paths)
	parts := make([]string, len(cfg.Inputs))
	rows := make([]int64, len(cfg.Inputs))
	defer func() {
		for _, p := range parts {
			if p != "" {
				os.Remove(p)
			}
		}
	}()
	enc := encodeRow
	if cfg.Format == FormatTable {
		enc = tableRow
	}
	// Inputs are answered one after the other, each by all the workers.
	done := make([]bool, len(cfg.Inputs))
	var err error
	if cfg.sink != nil { // the rows are handed over, not written
		w := &writer[Row]{format: formatRows, sink: cfg.sink}
		for i := range cfg.Inputs {
			n, rerr := st.answerInput(ctx, i, q, w)
			st.sum.Rows += n
			if rerr != nil {
				if errors.Is(rerr, context.Canceled) {
					return nil
				}
				return rerr
			}
			st.sum.Done++
		}
		return nil
	}
	for i := range cfg.Inputs {
		if ctx.Err() != nil {
			break
		}
		f, ferr := os.CreateTemp(cfg.TempDir, "robotsaudit-*.part")
		if ferr != nil {
			err = ferr
			break
		}
		parts[i] = f.Name()
		w := newWriter[Row](cfg.Format, f, enc)
		n, rerr := st.answerInput(ctx, i, q, w)
		if cerr := w.close(); rerr == nil {
			rerr = cerr
		}
		if cerr := f.Close(); rerr == nil {
			rerr = cerr
		}
		rows[i] = n
		if rerr != nil {
			if !errors.Is(rerr, context.Canceled) {
				err = rerr
				break
			}
			// Interrupted: the part holds whole rows, those of the
			// batches answered so far, in record order; they are kept.
			st.sum.Partial = cfg.Inputs[i]
			st.sum.Rows += n
			break
		}
		done[i] = true
	}
	if err != nil {
		return err
	}
	var keep []string
	for i, ok := range done {
		if ok {
			keep = append(keep, parts[i])
			st.sum.Done++
			st.sum.Rows += rows[i]
		} else if cfg.Inputs[i] == st.sum.Partial {
			keep = append(keep, parts[i])
		}
	}
	return join[Row](cfg.Format, out, rowHeader(cfg.Format, cfg.Paths), keep)
}

// runURLs answers a URL list, a chunk at a time: the chunk's origins are
// looked up in every input, the first input holding one answers for it.
func (st *runState) runURLs(ctx context.Context, out io.Writer) error {
	cfg := st.cfg
	q := newQuestions(cfg.Agents, nil)
	enc := encodeURLRow
	if cfg.Format == FormatTable {
		enc = tableURLRow
	}
	// Parquet and the other formats are written straight to out, in order.
	var w *writer[URLRow]
	var bw *bufio.Writer
	var ai *aiTable
	if cfg.AI {
		ai = newAITable(cfg.Format, out, AIURL{})
	} else if cfg.Format == FormatParquet {
		w = newWriter[URLRow](cfg.Format, out, enc)
	} else {
		bw = bufio.NewWriter(out)
		if err := join[URLRow](cfg.Format, bw, urlHeader(cfg.Format), nil); err != nil {
			return err
		}
		w = newWriter[URLRow](cfg.Format, bw, enc)
	}
	sc := bufio.NewScanner(cfg.URLs)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var line int64
	type item struct {
		url, robots string
	}
	var row URLRow
	done := make([]bool, len(cfg.Inputs))
	for i := range done {
		done[i] = true
	}
	for chunkNo, more := 0, true; more && ctx.Err() == nil; chunkNo++ {
		var chunk []item
		wanted := map[string]bool{}
		for len(chunk) < cfg.ChunkURLs {
			if !sc.Scan() {
				more = false
				break
			}
			line++
			u := strings.TrimSpace(sc.Text())
			if u == "" || strings.HasPrefix(u, "#") {
				continue
			}
			ru, err := robotstxt.RobotsURL(u)
			if err != nil {
				st.sum.Skipped++
				st.sum.Problems = append(st.sum.Problems, Problem{Input: "urls", Offset: line, Kind: ProblemURL, Detail: err.Error(), Skipped: true})
				continue
			}
			st.sum.URLs++
			chunk = append(chunk, item{u, ru})
			wanted[ru] = true
		}
		if len(chunk) == 0 {
			break
		}
		found := make([]map[string]*resolved, len(cfg.Inputs))
		ok, err := st.forInputs(ctx, func(i int) error {
			m := map[string]*resolved{}
			found[i] = m
			report := func(Problem) {}
			if chunkNo == 0 {
				report = st.reporter(i) // the first pass reports the inputs' problems
			}
			// The inputs are read side by side, each by its share of the workers.
			return scanShard(ctx, cfg.Inputs[i], &st.bytes, reading{workers: max(1, cfg.Workers/len(cfg.Inputs)), split: cfg.split}, func(k string) bool {
				ru, err := robotstxt.RobotsURL(k)
				return err == nil && wanted[ru]
			}, false, func(rs *resolved) {
				if chunkNo == 0 {
					st.seen.Add(1)
				}
				if !st.keep(i, rs) {
					return
				}
				rs.read(false)
				ru, _ := robotstxt.RobotsURL(rs.c.URL)
				if m[ru] == nil {
					c := *rs.c
					c.Body = nil
					rs.c = &c
					m[ru] = rs
					st.captures.Add(1)
				}
			}, report)
		})
		if err != nil {
			return err
		}
		for i := range ok {
			done[i] = done[i] && ok[i]
		}
		if ctx.Err() != nil {
			break // an interrupted chunk is not written
		}
		for _, it := range chunk {
			var rs *resolved
			for i := range found {
				if rs = found[i][it.robots]; rs != nil {
					break
				}
			}
			if rs == nil {
				st.sum.Unmatched++
				continue
			}
			if ai != nil {
				st.sum.Rows++
				if err := ai.writeURL(it.url, it.robots, rs); err != nil {
					return err
				}
				continue
			}
			if err := q.urlRows(it.url, it.robots, rs, &row, func(r *URLRow) error { st.sum.Rows++; return w.write(r) }); err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("URL list: %w", err)
	}
	for _, ok := range done {
		if ok {
			st.sum.Done++
		}
	}
	if ai != nil {
		return ai.close()
	}
	if err := w.close(); err != nil {
		return err
	}
	if bw != nil {
		return bw.Flush()
	}
	return nil
}
