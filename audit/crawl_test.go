package audit

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/robotstxt-go/robotstxt"
)

// Two crawls of a few origins, with repeated captures: what the dedup and
// the change table are checked against.
var (
	crawlPaths  = []string{"/", "/private/x", "/search"}
	crawlAgents = "GPTBot\nClaudeBot\nGooglebot\n"
	// crawl1 is two inputs. a.example is captured three times, the
	// latest (by date) in the middle of the first input; b.example twice
	// with the same date (the later read wins); c.example once.
	crawl1 = [][]capture{
		{
			{url: "https://a.example/robots.txt", status: 200, date: "2026-01-01T00:00:00Z", body: "User-agent: *\nDisallow: /\n"},
			{url: "https://a.example/robots.txt", status: 200, date: "2026-01-03T00:00:00Z", body: "User-agent: *\nDisallow: /private/\n"},
			{url: "https://b.example/robots.txt", status: 200, date: "2026-01-02T00:00:00Z", body: "User-agent: GPTBot\nDisallow: /\n"},
			{url: "https://c.example/robots.txt", status: 404, date: "2026-01-02T00:00:00Z"},
		},
		{
			{url: "https://a.example/robots.txt", status: 200, date: "2026-01-02T00:00:00.5Z", body: "User-agent: *\nAllow: /\n"},
			{url: "https://b.example/robots.txt", status: 200, date: "2026-01-02T00:00:00Z", body: "User-agent: GPTBot\nDisallow: /private/\n"},
		},
	}
	// crawl2 changes a.example (GPTBot now blocked), keeps b.example as
	// crawl1 answered it, drops c.example and adds d.example.
	crawl2 = [][]capture{
		{
			{url: "https://a.example/robots.txt", status: 200, date: "2026-02-01T00:00:00Z", body: "User-agent: *\nDisallow: /private/\n"},
			{url: "https://a.example/robots.txt", status: 200, date: "2026-02-05T00:00:00Z", body: "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n"},
			{url: "https://b.example/robots.txt", status: 200, date: "2026-02-01T00:00:00Z", body: "# the same rules\nUser-agent: GPTBot\nDisallow: /private/\n"},
			{url: "https://d.example/robots.txt", status: 200, date: "2026-02-01T00:00:00Z", body: "User-agent: *\nDisallow: /\n"},
		},
	}
)

type placed struct {
	c      capture
	input  string
	offset int64
}

// writeCrawl writes a crawl's inputs and returns them with every capture
// and where it is.
func writeCrawl(t *testing.T, dir, name string, crawl [][]capture) ([]string, []placed) {
	var inputs []string
	var all []placed
	for i, cs := range crawl {
		p := filepath.Join(dir, fmt.Sprintf("%s-%d.warc.gz", name, i))
		for j, off := range writeWARC(t, p, cs) {
			all = append(all, placed{cs[j], p, off})
		}
		inputs = append(inputs, p)
	}
	return inputs, all
}

// latest is the model of the dedup: per origin, the capture with the
// latest date, ties to the one read last, and the number of captures.
func latest(all []placed) (map[string]placed, map[string]int) {
	pick, n := map[string]placed{}, map[string]int{}
	for _, p := range all {
		o, _ := robotstxt.Origin(p.c.url)
		n[o]++
		if q, ok := pick[o]; !ok || captureDate(p.c.date).Compare(captureDate(q.c.date)) >= 0 {
			pick[o] = p
		}
	}
	return pick, n
}

func rulesOfCapture(c capture) *robotstxt.Robots {
	return robotstxt.FromStatus(c.status, []byte(c.body))
}

func TestDedup(t *testing.T) {
	dir := t.TempDir()
	inputs, all := writeCrawl(t, dir, "crawl1", crawl1)
	agents, _ := ReadAgents(strings.NewReader(crawlAgents))
	out, s := run(t, Config{Inputs: inputs, Paths: crawlPaths, Format: FormatJSONL, Agents: agents})
	rows := decodeRows(t, out)
	pick, n := latest(all)
	if len(rows) != len(pick)*len(agents) || s.Captures != int64(len(pick)) {
		t.Fatalf("%d rows, %d captures answered; want %d origins × %d agents", len(rows), s.Captures, len(pick), len(agents))
	}
	for _, r := range rows {
		p := pick[r.Origin]
		if r.Input != p.input || r.Offset != p.offset || r.Captures == nil || int(*r.Captures) != n[r.Origin] {
			t.Errorf("%s: input %s@%d, %v captures; want %s@%d (date %s), %d captures", r.Origin, r.Input, r.Offset, r.Captures, p.input, p.offset, p.c.date, n[r.Origin])
		}
	}
	// The answers are the core's for the chosen capture.
	checkRows(t, rows, crawlPaths, func(r Row) (*robotstxt.Robots, bool) {
		p, ok := pick[r.Origin]
		return rulesOfCapture(p.c), ok && p.offset == r.Offset
	})
	if pick["https://a.example"].c.date != "2026-01-03T00:00:00Z" || pick["https://b.example"].input != inputs[1] {
		t.Fatal("the crawl does not hold the cases the test is for")
	}

	// -all-captures: a row for every capture.
	out, _ = run(t, Config{Inputs: inputs, Paths: crawlPaths, Format: FormatJSONL, Agents: agents, AllCaptures: true})
	rows = decodeRows(t, out)
	if len(rows) != len(all)*len(agents) {
		t.Fatalf("-all-captures: %d rows, want %d", len(rows), len(all)*len(agents))
	}
	for _, r := range rows {
		if r.Captures != nil {
			t.Fatalf("-all-captures: captures %d, want null", *r.Captures)
		}
	}
}

func TestChanges(t *testing.T) {
	dir := t.TempDir()
	in1, all1 := writeCrawl(t, dir, "crawl1", crawl1)
	in2, all2 := writeCrawl(t, dir, "crawl2", crawl2)
	agents, _ := ReadAgents(strings.NewReader(crawlAgents))
	p1, _ := latest(all1)
	p2, _ := latest(all2)

	// The model: per origin in both crawls and agent, the core's answers
	// for the latest capture of each.
	type key struct{ origin, agent string }
	want := map[key]Change{}
	for o, a := range p1 {
		b, ok := p2[o]
		if !ok {
			continue
		}
		r1, r2 := rulesOfCapture(a.c), rulesOfCapture(b.c)
		for _, ag := range agents {
			tok := ag.Tokens
			l1 := wantLabel(r1, tok, r1.NamesAgent(tok[0]), false)
			l2 := wantLabel(r2, tok, r2.NamesAgent(tok[0]), false)
			ch := Change{Origin: o, Agent: ag.Name(), BeforeLabel: l1, AfterLabel: l2}
			changed := l1 != l2
			for _, path := range crawlPaths {
				d1, d2 := r1.Decide(tok[0], path), r2.Decide(tok[0], path)
				changed = changed || d1.Line != d2.Line || d1.Allowed != d2.Allowed
				ch.Paths = append(ch.Paths, PathChange{Path: path, BeforeAllowed: boolPtr(d1.Allowed), BeforeLine: int32(d1.Line), BeforeRule: d1.Rule,
					AfterAllowed: boolPtr(d2.Allowed), AfterLine: int32(d2.Line), AfterRule: d2.Rule})
			}
			if changed {
				ch.BeforeInput, ch.BeforeOffset, ch.AfterInput, ch.AfterOffset = a.input, a.offset, b.input, b.offset
				ch.BeforeDate, ch.AfterDate = a.c.date, b.c.date
				want[key{o, ag.Name()}] = ch
			}
		}
	}
	if len(want) == 0 || len(want) == len(p1)*len(agents) {
		t.Fatalf("%d changes in the model: the crawls do not hold the cases the test is for", len(want))
	}
	check := func(format string, got []Change, s *Summary) {
		t.Helper()
		if len(got) != len(want) || s.Changes == nil || s.Changes.Changed != int64(len(want)) {
			t.Errorf("%s: %d changes (summary %+v), want %d", format, len(got), s.Changes, len(want))
		}
		for _, g := range got {
			w, ok := want[key{g.Origin, g.Agent}]
			g.BeforeRules, g.AfterRules = "", ""
			if !ok || !changeEqual(g, w) {
				gj, _ := json.Marshal(g)
				wj, _ := json.Marshal(w)
				t.Errorf("%s: got %s\nwant %s", format, gj, wj)
			}
		}
		// c.example only before, d.example only after.
		if s.Changes != nil && (s.Changes.OnlyBefore != int64(len(agents)) || s.Changes.OnlyAfter != int64(len(agents))) {
			t.Errorf("%s: %+v; want %d only before and after", format, s.Changes, len(agents))
		}
	}
	cfg := Config{Before: in1, Inputs: in2, Paths: crawlPaths, Agents: agents}

	cfg.Format = FormatJSONL
	out, s := run(t, cfg)
	var got []Change
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var c Change
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		got = append(got, c)
	}
	check("jsonl", got, s)

	cfg.Format = FormatParquet
	out, s = run(t, cfg)
	got, err := parquet.Read[Change](bytes.NewReader(out), int64(len(out)))
	if err != nil {
		t.Fatal(err)
	}
	check("parquet", got, s)

	cfg.Format = FormatCSV
	out, s = run(t, cfg)
	recs, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(recs[0], changeHeader(FormatCSV, crawlPaths)) {
		t.Fatalf("CSV header %q", recs[0])
	}
	got = nil
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, rec := range recs[1:] {
		f := func(name string) string { return rec[col[name]] }
		n := func(name string) int64 { v, _ := strconv.ParseInt(f(name), 10, 64); return v }
		c := Change{Origin: f("origin"), Agent: f("agent"), BeforeLabel: f("before_label"), AfterLabel: f("after_label"),
			BeforeDate: f("before_date"), AfterDate: f("after_date"), BeforeInput: f("before_input"), AfterInput: f("after_input"),
			BeforeOffset: n("before_offset"), BeforeIn: n("before_in_member"), AfterOffset: n("after_offset"), AfterIn: n("after_in_member")}
		for _, path := range crawlPaths {
			b1, _ := strconv.ParseBool(f("before_allowed " + path))
			b2, _ := strconv.ParseBool(f("after_allowed " + path))
			c.Paths = append(c.Paths, PathChange{Path: path, BeforeAllowed: boolPtr(b1), BeforeLine: int32(n("before_line " + path)), BeforeRule: f("before_rule " + path),
				AfterAllowed: boolPtr(b2), AfterLine: int32(n("after_line " + path)), AfterRule: f("after_rule " + path)})
		}
		got = append(got, c)
	}
	check("csv", got, s)
}

func changeEqual(a, b Change) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}
