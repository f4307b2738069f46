package audit

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/gzip"
)

// LogConfig says what RunLogs reads and writes.
type LogConfig struct {
	// Logs are the access logs, read in this order ("-" is Stdin). Each
	// may be gzipped (told by its first bytes, not its name). Give them
	// oldest first: robots_fetched and crawl_delay_breach look at the
	// requests read before.
	Logs  []string
	Stdin io.Reader
	// Format is the log format (LogAuto when ""); Fields names a JSON
	// log's fields for LogJSON, and, with a preset, replaces the preset's
	// names that it sets.
	Format string
	Fields LogFields

	History *RobotsHistory
	// Agents are the crawlers judged; default the crawler table and the
	// ai.robots.txt set (Agents("crawlers,ai.robots.txt")).
	Agents []Agent
	// Identifier, when set, checks each crawler request's identity.
	Identifier Identifier

	// RowsFormat is the format of the rows (FormatCSV, FormatJSONL,
	// FormatParquet); All writes every judged request, not only
	// violations and grace.
	RowsFormat string
	All        bool

	// Since, when set, makes the requests before it context only: they
	// are read for what later requests need (robots.txt fetches, the
	// previous request for Crawl-delay) but neither counted nor written.
	// A shard of one day is that day's log with the day before's given
	// first and Since the day's start (see audit/README.md, "A fleet").
	Since time.Time

	// Workers parse and judge blocks of lines side by side (default one
	// per core); with one, a single goroutine reads, parses and judges.
	Workers int
	// Progress, when set, gets a progress line every half second.
	Progress io.Writer
	// Problem, when set, is called with every line that does not parse,
	// in order; LogResult keeps the first maxLogProblems.
	Problem func(LogProblem)
}

// LogProblem is a log line that does not parse.
type LogProblem struct {
	Input  string `json:"input"`
	Line   int64  `json:"line"`
	Reason string `json:"reason"`
	Text   string `json:"text"` // the line's first 200 bytes, as read
}

func (p LogProblem) String() string {
	return EscapeTerminal(fmt.Sprintf("%s:%d: %s: %s", p.Input, p.Line, p.Reason, p.Text))
}

// maxLogProblems is how many problems LogResult keeps.
const maxLogProblems = 50

// LogResult is what RunLogs found.
type LogResult struct {
	Site      string
	Inputs    []string
	Versions  []RobotsVersion
	Lines     int64 // lines read, blank ones included
	Parsed    int64 // lines that parsed
	Malformed int64 // lines that did not
	Problems  []LogProblem
	Other     int64 // requests that name no known crawler: counted, not judged
	Rows      int64
	Bytes     int64 // bytes of log read (after gunzip)
	Elapsed   time.Duration
	Crawlers  []LogSummary // by violations, then requests, then name
	// Series counts violations per crawler per hour (Unix hours);
	// Broken counts violations per rule (version, line).
	Series map[string]map[int64]int64
	Broken []BrokenRule
	// CrawlerRules lists, per crawler, the rules it broke, most first;
	// Latest its last violations (at most maxLatest), oldest first.
	CrawlerRules map[string][]BrokenRule
	Latest       map[string][]LogRow
}

// maxLatest is how many of a crawler's violations LogResult keeps.
const maxLatest = 10

// LogSummary is one crawler's line of the summary. A forged crawler (its
// identity checked and found forged) is a crawler of its own, "forged NAME".
type LogSummary struct {
	Crawler          string `parquet:"crawler" json:"crawler"`
	Operator         string `parquet:"operator" json:"operator"`
	Requests         int64  `parquet:"requests" json:"requests"` // every request, robots.txt fetches included
	Judged           int64  `parquet:"judged" json:"judged"`
	Allowed          int64  `parquet:"allowed" json:"allowed"`
	Violations       int64  `parquet:"violations" json:"violations"`
	Grace            int64  `parquet:"grace" json:"grace"`
	NotJudged        int64  `parquet:"not_judged" json:"not_judged"`         // neither GET nor HEAD
	UnknownPolicy    int64  `parquet:"unknown_policy" json:"unknown_policy"` // before the first robots.txt version
	RobotsFetches    int64  `parquet:"robots_fetches" json:"robots_fetches"`
	NoRobotsFetch    int64  `parquet:"no_robots_fetch" json:"no_robots_fetch"` // judged requests with no robots.txt fetch in the 24 h before
	CrawlDelayBreach int64  `parquet:"crawl_delay_breaches" json:"crawl_delay_breaches"`
	Verified         int64  `parquet:"verified" json:"verified"`
	Forged           int64  `parquet:"forged" json:"forged"`
	Unknown          int64  `parquet:"unknown" json:"unknown"` // identity checked, neither verified nor forged
	FirstSeen        string `parquet:"first_seen" json:"first_seen"`
	LastSeen         string `parquet:"last_seen" json:"last_seen"`

	first, last int64
}

// BrokenRule is a rule that violations broke.
type BrokenRule struct {
	Version    string // the version's label
	Line       int32
	Rule       string
	Violations int64
	Crawlers   []string
}

// LogRow is a judged request. The field tags name the columns of every
// output format.
type LogRow struct {
	Input     string `parquet:"input" json:"input"`
	Line      int64  `parquet:"line" json:"line"`
	Time      string `parquet:"time" json:"time"` // RFC 3339, in the zone the log wrote
	IP        string `parquet:"ip" json:"ip"`
	Method    string `parquet:"method" json:"method"`
	Target    string `parquet:"target" json:"target"`
	Status    int32  `parquet:"status" json:"status"`
	UserAgent string `parquet:"user_agent" json:"user_agent"`
	Crawler   string `parquet:"crawler" json:"crawler"`
	Operator  string `parquet:"operator" json:"operator"`
	Identity  string `parquet:"identity" json:"identity"` // "" when not checked
	Verdict   string `parquet:"verdict" json:"verdict"`
	// RobotsVersion is the version live at the time (its label); Line and
	// Rule the rule of it that decided (0 and "" when none matched).
	RobotsVersion string `parquet:"robots_version" json:"robots_version"`
	RobotsLine    int32  `parquet:"robots_line" json:"robots_line"`
	RobotsRule    string `parquet:"robots_rule" json:"robots_rule"`
	// AllowedBy is, for grace, the latest version in force that allowed it.
	AllowedBy        string   `parquet:"allowed_by" json:"allowed_by"`
	RobotsFetched    bool     `parquet:"robots_fetched" json:"robots_fetched"`
	CrawlDelay       *float64 `parquet:"crawl_delay,optional" json:"crawl_delay"`
	CrawlDelayBreach bool     `parquet:"crawl_delay_breach" json:"crawl_delay_breach"`
}

func logRowHeader() []string {
	return []string{"input", "line", "time", "ip", "method", "target", "status", "user_agent", "crawler", "operator", "identity",
		"verdict", "robots_version", "robots_line", "robots_rule", "allowed_by", "robots_fetched", "crawl_delay", "crawl_delay_breach"}
}

func encodeLogRow(r *LogRow, rec []string) []string {
	return append(rec, r.Input, itoa(r.Line), r.Time, r.IP, r.Method, r.Target, itoa(int64(r.Status)), r.UserAgent, r.Crawler,
		r.Operator, r.Identity, r.Verdict, r.RobotsVersion, itoa(int64(r.RobotsLine)), r.RobotsRule, r.AllowedBy,
		strconv.FormatBool(r.RobotsFetched), optFloat(r.CrawlDelay), strconv.FormatBool(r.CrawlDelayBreach))
}

func logSummaryHeader() []string {
	return []string{"crawler", "operator", "requests", "judged", "allowed", "violations", "grace", "not_judged", "unknown_policy", "robots_fetches",
		"no_robots_fetch", "crawl_delay_breaches", "verified", "forged", "unknown", "first_seen", "last_seen"}
}

func encodeLogSummary(s *LogSummary, rec []string) []string {
	return append(rec, s.Crawler, s.Operator, itoa(s.Requests), itoa(s.Judged), itoa(s.Allowed), itoa(s.Violations), itoa(s.Grace),
		itoa(s.NotJudged), itoa(s.UnknownPolicy), itoa(s.RobotsFetches), itoa(s.NoRobotsFetch), itoa(s.CrawlDelayBreach), itoa(s.Verified), itoa(s.Forged),
		itoa(s.Unknown), s.FirstSeen, s.LastSeen)
}

// WriteLogSummary writes the summary's crawlers in a format (FormatCSV,
// FormatJSONL, FormatParquet).
func WriteLogSummary(w io.Writer, format string, crawlers []LogSummary) error {
	if format == FormatCSV {
		if err := join[LogSummary](format, w, logSummaryHeader(), nil); err != nil {
			return err
		}
	}
	wr := newWriter[LogSummary](format, w, encodeLogSummary)
	for i := range crawlers {
		if err := wr.write(&crawlers[i]); err != nil {
			return err
		}
	}
	return wr.close()
}

// logBlockSize is how much of a log a worker takes at a time; a line longer
// than it is reported and skipped.
const logBlockSize = 1 << 20

// logJob is a block of whole lines of one input.
type logJob struct {
	input     string
	firstLine int64
	data      []byte
	buf       *[]byte
	parse     lineParser // a copy: the reader decides the format of a log on its first line that is not blank
	tooLong   int64      // a line before data was longer than logBlockSize
	res       chan *logBlock
}

// logBlock is what a worker made of a block.
type logBlock struct {
	lines, parsed, other int64
	events               []logEvent
	problems             []LogProblem
}

// lineParser reads the lines of one input: its format is decided by the
// first line that is not blank.
type lineParser struct {
	format string
	fields LogFields
}

// worker is a worker's own state.
type logWorker struct {
	j     *logJudge
	since int64 // requests before are context (LogConfig.Since)
	ua    uaCache
	tc    timeCache
	json  map[LogFields]*jsonLine
}

func (w *logWorker) block(job *logJob) *logBlock {
	b := &logBlock{}
	if job.tooLong > 0 {
		b.problems = append(b.problems, LogProblem{Input: job.input, Line: job.tooLong, Reason: "line longer than " + strconv.Itoa(logBlockSize) + " bytes"})
	}
	data := job.data
	line := job.firstLine
	var rec logRecord
	for len(data) > 0 {
		var l []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i+1], data[i+1:]
		} else {
			l, data = data, nil
		}
		b.lines++
		t := trimEOL(l)
		if len(bytes.TrimSpace(t)) == 0 {
			line++
			continue
		}
		var err error
		if job.parse.format == LogCLF {
			err = parseCLF(t, &rec, &w.tc)
		} else {
			jl := w.json[job.parse.fields]
			if jl == nil {
				jl = newJSONLine(job.parse.fields)
				w.json[job.parse.fields] = jl
			}
			err = jl.parse(t, &rec)
		}
		if err != nil {
			if len(t) > 200 {
				t = t[:200]
			}
			b.problems = append(b.problems, LogProblem{Input: job.input, Line: line, Reason: err.Error(), Text: string(t)})
			line++
			continue
		}
		before := rec.nanos < w.since
		if !before {
			b.parsed++
		}
		agent, ua := w.j.classify(&w.ua, rec.ua)
		if agent < 0 {
			if !before {
				b.other++
			}
			line++
			continue
		}
		b.events = append(b.events, logEvent{})
		ev := &b.events[len(b.events)-1]
		w.j.event(&rec, agent, ua, line, ev)
		ev.context = before
		line++
	}
	return b
}

// logState is what the judging of a request needs of the requests before
// it, and the totals.
type logState struct {
	cfg      *LogConfig
	j        *logJudge
	res      *LogResult
	rows     *writer[LogRow]
	row      LogRow
	crawlers map[crawlerKey]*crawlerState
	fetched  map[crawlerKey]int64 // fetch group → time of its latest robots.txt fetch
	broken   map[[2]int32]*BrokenRule
	zones    map[int32]*time.Location
	lines    atomic.Int64
	bytes    atomic.Int64
}

type crawlerKey struct {
	agent  int32
	forged bool
}

type crawlerState struct {
	sum       LogSummary
	last      int64 // its previous judged request
	hasLast   bool
	brokeRule map[[2]int32]int64
	latest    []LogRow // a ring of its last violations
	nLatest   int
}

func (st *logState) crawler(k crawlerKey) *crawlerState {
	c := st.crawlers[k]
	if c == nil {
		a := &st.j.agents[k.agent]
		c = &crawlerState{sum: LogSummary{Crawler: a.Name(), Operator: a.Operator}}
		if k.forged {
			c.sum.Crawler, c.sum.Operator = "forged "+a.Name(), ""
		}
		st.crawlers[k] = c
	}
	return c
}

func (st *logState) zone(off int32) *time.Location {
	l := st.zones[off]
	if l == nil {
		l = time.FixedZone("", int(off))
		st.zones[off] = l
	}
	return l
}

func (st *logState) timeText(nanos int64, zone int32) string {
	return time.Unix(0, nanos).In(st.zone(zone)).Format(time.RFC3339Nano)
}

// apply takes a block's results in order: the counts, the problems, and
// each event judged with what the requests before it say.
func (st *logState) apply(input string, b *logBlock) error {
	r := st.res
	r.Lines += b.lines
	r.Parsed += b.parsed
	r.Other += b.other
	st.lines.Add(b.lines)
	for _, p := range b.problems {
		r.Malformed++
		if len(r.Problems) < maxLogProblems {
			r.Problems = append(r.Problems, p)
		}
		if st.cfg.Problem != nil {
			st.cfg.Problem(p)
		}
	}
	for i := range b.events {
		if err := st.event(input, &b.events[i]); err != nil {
			return err
		}
	}
	return nil
}

func (w *logState) worker() *logWorker {
	lw := &logWorker{j: w.j, json: map[LogFields]*jsonLine{}, since: math.MinInt64}
	if !w.cfg.Since.IsZero() {
		lw.since = w.cfg.Since.UnixNano()
	}
	return lw
}

// contextEvent takes a request before LogConfig.Since: what later requests
// need of it, and nothing else.
func (st *logState) contextEvent(ev *logEvent) {
	c := st.crawler(crawlerKey{ev.agent, ev.forged})
	switch ev.kind {
	case evRobots:
		fk := crawlerKey{st.j.fetch[ev.agent], ev.forged}
		if last, ok := st.fetched[fk]; !ok || ev.nanos > last {
			st.fetched[fk] = ev.nanos
		}
	case evJudged:
		if !c.hasLast || ev.nanos > c.last {
			c.last, c.hasLast = ev.nanos, true
		}
	}
}

func (st *logState) event(input string, ev *logEvent) error {
	if ev.context {
		st.contextEvent(ev)
		return nil
	}
	k := crawlerKey{ev.agent, ev.forged}
	c := st.crawler(k)
	s := &c.sum
	s.Requests++
	if s.Requests == 1 || ev.nanos < s.first {
		s.first, s.FirstSeen = ev.nanos, st.timeText(ev.nanos, ev.zone)
	}
	if s.Requests == 1 || ev.nanos > s.last {
		s.last, s.LastSeen = ev.nanos, st.timeText(ev.nanos, ev.zone)
	}
	switch ev.identity {
	case "":
	case IdentityVerified:
		s.Verified++
	case IdentityForged:
		s.Forged++
	default:
		s.Unknown++
	}
	fk := crawlerKey{st.j.fetch[ev.agent], ev.forged}
	switch ev.kind {
	case evRobots:
		s.RobotsFetches++
		if last, ok := st.fetched[fk]; !ok || ev.nanos > last {
			st.fetched[fk] = ev.nanos
		}
		return nil
	case evMethod:
		s.NotJudged++
		return nil
	case evUnknown:
		s.UnknownPolicy++
		return nil
	}
	s.Judged++
	last, ok := st.fetched[fk]
	fetched := ok && last <= ev.nanos && ev.nanos-last <= int64(robotsCacheLimit)
	if !fetched {
		s.NoRobotsFetch++
	}
	delay := st.j.delays[ev.live][ev.agent]
	breach := delay > 0 && c.hasLast && ev.nanos >= c.last && ev.nanos-c.last < delay
	if breach {
		s.CrawlDelayBreach++
	}
	if !c.hasLast || ev.nanos > c.last {
		c.last, c.hasLast = ev.nanos, true
	}
	switch ev.verdict {
	case VerdictAllowed:
		s.Allowed++
	case VerdictGrace:
		s.Grace++
	case VerdictViolation:
		s.Violations++
		series := st.res.Series[s.Crawler]
		if series == nil {
			series = map[int64]int64{}
			st.res.Series[s.Crawler] = series
		}
		series[floorDiv(ev.nanos, int64(time.Hour))]++
		rk := [2]int32{ev.live, ev.decLine}
		br := st.broken[rk]
		if br == nil {
			br = &BrokenRule{Version: st.j.hist.Versions[ev.live].Label(), Line: ev.decLine, Rule: ev.decRule}
			st.broken[rk] = br
		}
		br.Violations++
		if c.brokeRule == nil {
			c.brokeRule = map[[2]int32]int64{}
		}
		if c.brokeRule[rk] == 0 {
			br.Crawlers = append(br.Crawlers, s.Crawler)
		}
		c.brokeRule[rk]++
	}
	if ev.verdict == VerdictAllowed && !st.cfg.All {
		return nil
	}
	row := &st.row
	*row = LogRow{
		Input: input, Line: ev.line, Time: st.timeText(ev.nanos, ev.zone), IP: ev.ip, Method: ev.method, Target: ev.target,
		Status: ev.status, UserAgent: ev.ua, Crawler: s.Crawler, Operator: s.Operator, Identity: ev.identity,
		Verdict: ev.verdict, RobotsVersion: st.j.hist.Versions[ev.live].Label(), RobotsLine: ev.decLine, RobotsRule: ev.decRule,
		RobotsFetched: fetched, CrawlDelayBreach: breach,
	}
	if ev.allowedBy >= 0 {
		row.AllowedBy = st.j.hist.Versions[ev.allowedBy].Label()
	}
	if delay >= 0 {
		d := time.Duration(delay).Seconds()
		row.CrawlDelay = &d
	}
	if ev.verdict == VerdictViolation {
		if len(c.latest) < maxLatest {
			c.latest = append(c.latest, *row)
		} else {
			c.latest[c.nLatest%maxLatest] = *row
		}
		c.nLatest++
	}
	st.res.Rows++
	return st.rows.write(row)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// RunLogs replays access logs against a site's robots.txt history and
// writes the judged requests to out (violations and grace, or every judged
// request with All), in cfg.RowsFormat. See the package documentation,
// "Which crawlers ignored my robots.txt".
func RunLogs(ctx context.Context, cfg LogConfig, out io.Writer) (*LogResult, error) {
	if cfg.History == nil || len(cfg.History.Versions) == 0 {
		return nil, errors.New("no robots.txt history")
	}
	if cfg.Agents == nil {
		as, err := Agents(setCrawlers + "," + setAIRobots)
		if err != nil {
			return nil, err
		}
		cfg.Agents = as
	}
	if cfg.Format == "" {
		cfg.Format = LogAuto
	}
	switch cfg.Format {
	case LogAuto, LogCLF, LogJSON:
	default:
		if _, ok := LogPresets[cfg.Format]; !ok {
			return nil, fmt.Errorf("log format %q: want auto, clf, json, nginx-json, caddy or cloudflare", cfg.Format)
		}
	}
	if cfg.Format == LogJSON && (cfg.Fields.Time == "" || cfg.Fields.Target == "") {
		return nil, errors.New("a JSON log needs at least its time and target fields named")
	}
	if cfg.RowsFormat == "" {
		cfg.RowsFormat = FormatCSV
	}
	if cfg.RowsFormat != FormatCSV && cfg.RowsFormat != FormatJSONL && cfg.RowsFormat != FormatParquet {
		return nil, fmt.Errorf("rows format %q: want csv, jsonl or parquet", cfg.RowsFormat)
	}
	if len(cfg.Logs) == 0 {
		cfg.Logs = []string{"-"}
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	start := time.Now()
	j := newLogJudge(cfg.History, cfg.Agents, cfg.Identifier)
	res := &LogResult{Site: cfg.History.Site, Inputs: cfg.Logs, Versions: cfg.History.Versions, Series: map[string]map[int64]int64{}}
	st := &logState{cfg: &cfg, j: j, res: res, crawlers: map[crawlerKey]*crawlerState{}, fetched: map[crawlerKey]int64{},
		broken: map[[2]int32]*BrokenRule{}, zones: map[int32]*time.Location{}}
	if cfg.RowsFormat == FormatCSV {
		if err := join[LogRow](FormatCSV, out, logRowHeader(), nil); err != nil {
			return nil, err
		}
	}
	st.rows = newWriter[LogRow](cfg.RowsFormat, out, encodeLogRow)
	stop := st.progress()
	err := st.run(ctx)
	stop()
	if cerr := st.rows.close(); err == nil {
		err = cerr
	}
	res.Bytes = st.bytes.Load()
	res.Elapsed = time.Since(start)
	res.CrawlerRules = map[string][]BrokenRule{}
	res.Latest = map[string][]LogRow{}
	for _, c := range st.crawlers {
		if c.sum.Requests == 0 {
			continue // seen before Since only
		}
		if c.nLatest > 0 {
			k := c.nLatest % len(c.latest)
			res.Latest[c.sum.Crawler] = append(append([]LogRow(nil), c.latest[k:]...), c.latest[:k]...)
		}
		res.Crawlers = append(res.Crawlers, c.sum)
		var rules []BrokenRule
		for rk, n := range c.brokeRule {
			b := st.broken[rk]
			rules = append(rules, BrokenRule{Version: b.Version, Line: b.Line, Rule: b.Rule, Violations: n})
		}
		sortBroken(rules)
		if rules != nil {
			res.CrawlerRules[c.sum.Crawler] = rules
		}
	}
	sort.Slice(res.Crawlers, func(a, b int) bool {
		x, y := &res.Crawlers[a], &res.Crawlers[b]
		if x.Violations != y.Violations {
			return x.Violations > y.Violations
		}
		if x.Requests != y.Requests {
			return x.Requests > y.Requests
		}
		return x.Crawler < y.Crawler
	})
	for _, br := range st.broken {
		res.Broken = append(res.Broken, *br)
	}
	sortBroken(res.Broken)
	return res, err
}

// sortBroken orders rules by violations, most first, then by version and
// line.
func sortBroken(rules []BrokenRule) {
	sort.Slice(rules, func(a, b int) bool {
		x, y := &rules[a], &rules[b]
		if x.Violations != y.Violations {
			return x.Violations > y.Violations
		}
		if x.Version != y.Version {
			return x.Version < y.Version
		}
		return x.Line < y.Line
	})
}

// run reads the logs in order. With one worker a single goroutine reads,
// parses and judges; with more, a goroutine reads blocks, the workers parse
// and judge them side by side, and this goroutine takes the results back in
// order.
func (st *logState) run(ctx context.Context) error {
	cfg := st.cfg
	pool := sync.Pool{New: func() any { b := make([]byte, logBlockSize); return &b }}
	if cfg.Workers == 1 {
		w := st.worker()
		for _, name := range cfg.Logs {
			err := st.readLog(ctx, name, &pool, func(job *logJob) error {
				b := w.block(job)
				pool.Put(job.buf)
				return st.apply(job.input, b)
			})
			if err != nil {
				return err
			}
		}
		return nil
	}
	jobs := make(chan *logJob, cfg.Workers)
	order := make(chan *logJob, 2*cfg.Workers)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for range cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := st.worker()
			for job := range jobs {
				b := w.block(job)
				pool.Put(job.buf)
				job.res <- b
			}
		}()
	}
	readErr := make(chan error, 1)
	go func() {
		defer close(order)
		defer close(jobs)
		for _, name := range cfg.Logs {
			err := st.readLog(ctx, name, &pool, func(job *logJob) error {
				job.res = make(chan *logBlock, 1)
				select {
				case order <- job:
				case <-ctx.Done():
					return ctx.Err()
				}
				select {
				case jobs <- job:
				case <-ctx.Done():
					return ctx.Err()
				}
				return nil
			})
			if err != nil {
				readErr <- err
				return
			}
		}
		readErr <- nil
	}()
	var err error
	for job := range order {
		b := <-job.res
		if err == nil {
			if err = st.apply(job.input, b); err != nil {
				cancel()
			}
		}
	}
	wg.Wait()
	if rerr := <-readErr; err == nil && !errors.Is(rerr, context.Canceled) {
		err = rerr
	} else if err == nil {
		err = rerr
	}
	return err
}

// readLog reads one log in blocks of whole lines and hands each to do.
func (st *logState) readLog(ctx context.Context, name string, pool *sync.Pool, do func(*logJob) error) error {
	var r io.Reader
	input := name
	if name == "-" {
		input = "stdin"
		r = st.cfg.Stdin
		if r == nil {
			r = os.Stdin
		}
	} else {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	br := bufio.NewReaderSize(r, 64<<10)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		z, err := gzip.NewReader(br)
		if err != nil {
			return fmt.Errorf("%s: %v", input, err)
		}
		defer z.Close()
		r = z
	} else {
		r = br
	}
	lp := &lineParser{format: st.cfg.Format, fields: st.cfg.Fields}
	decided := lp.format == LogCLF || lp.format == LogJSON
	if !decided && lp.format != LogAuto {
		lp.fields = mergeFields(LogPresets[lp.format], st.cfg.Fields)
		decided = true
	}
	var (
		carry   []byte // the start of a line that a block cut
		line    int64  = 1
		tooLong int64
		skip    bool // skipping the rest of a line too long
	)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		bp := pool.Get().(*[]byte)
		buf := *bp
		n := copy(buf, carry)
		m, err := io.ReadFull(r, buf[n:])
		st.bytes.Add(int64(m))
		n += m
		eof := err == io.EOF || err == io.ErrUnexpectedEOF
		if err != nil && !eof {
			pool.Put(bp)
			return fmt.Errorf("%s: %v", input, err)
		}
		data := buf[:n]
		if skip {
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				carry = carry[:0]
				pool.Put(bp)
				if eof {
					return nil
				}
				continue
			}
			data, skip = data[i+1:], false
			line++
		}
		cut := len(data)
		if !eof {
			cut = bytes.LastIndexByte(data, '\n') + 1
			if cut == 0 {
				// A line longer than a block: reported, and skipped.
				tooLong, skip = line, true
				carry = carry[:0]
				pool.Put(bp)
				continue
			}
		}
		carry = append(carry[:0], data[cut:]...)
		data = data[:cut]
		if !decided {
			if i := firstContent(data); i >= 0 {
				decided = true
				if data[i] == '{' {
					lp.format = LogJSON
					end := bytes.IndexByte(data[i:], '\n')
					if end < 0 {
						end = len(data) - i
					}
					p := sniffPreset(data[i : i+end])
					if p == "" && st.cfg.Fields.Target == "" {
						pool.Put(bp)
						return fmt.Errorf("%s: a JSON log whose fields are not those of a preset (nginx-json, caddy, cloudflare): name them (-json-time, -json-target, ...)", input)
					}
					lp.fields = mergeFields(LogPresets[p], st.cfg.Fields)
				} else {
					lp.format = LogCLF
				}
			}
		}
		if !decided {
			lp.format = LogCLF // blank so far
		}
		job := &logJob{input: input, firstLine: line, data: data, buf: bp, parse: *lp, tooLong: tooLong}
		tooLong = 0
		line += int64(bytes.Count(data, []byte{'\n'}))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			line++
		}
		if len(data) > 0 || job.tooLong > 0 {
			if err := do(job); err != nil {
				return err
			}
		} else {
			pool.Put(bp)
		}
		if eof {
			return nil
		}
	}
}

// firstContent returns the index of the first byte that is not white space,
// or -1.
func firstContent(b []byte) int {
	for i, c := range b {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return i
		}
	}
	return -1
}

// mergeFields returns a preset's fields with those of f that are set.
func mergeFields(p, f LogFields) LogFields {
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&p.Time, f.Time)
	set(&p.IP, f.IP)
	set(&p.Method, f.Method)
	set(&p.Target, f.Target)
	set(&p.Status, f.Status)
	set(&p.UserAgent, f.UserAgent)
	return p
}

// progress draws a line on cfg.Progress every half second: lines read, MB,
// lines per second.
func (st *logState) progress() (stop func()) {
	w := st.cfg.Progress
	if w == nil {
		return func() {}
	}
	return progressLine(w, func(sec float64) string {
		n, b := st.lines.Load(), st.bytes.Load()
		return fmt.Sprintf("%d lines  %.1f MB  %.0f lines/s", n, float64(b)/1e6, float64(n)/sec)
	})
}
