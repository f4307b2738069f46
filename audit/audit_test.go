package audit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
	"github.com/robotstxt-go/robotstxt/lint"
)

// benchPaths are the five paths the measurement asks of every
// origin.
var benchPaths = []string{"/", "/search", "/private/", "/wp-admin/admin-ajax.php", "/images/a.png?x=1"}

// run audits inputs with cfg and returns the output and summary.
func run(t testing.TB, cfg Config) ([]byte, *Summary) {
	t.Helper()
	var out bytes.Buffer
	if cfg.TempDir == "" {
		cfg.TempDir = t.TempDir()
	}
	s, err := Run(context.Background(), cfg, &out)
	if err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), s
}

func decodeRows(t testing.TB, b []byte) []Row {
	t.Helper()
	var rows []Row
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r Row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	return rows
}

// wantLabel is the label of the package documentation, computed here from
// Robots.Decide alone, apart from the code under test.
func wantLabel(r *robotstxt.Robots, tokens []string, own bool, ignoresGlobal bool) string {
	switch r.Kind() {
	case robotstxt.DisallowAll:
		return LabelFull
	case robotstxt.AllowAll:
		return LabelNone
	}
	if ignoresGlobal && !own {
		return LabelNone
	}
	allowed := func(p string) bool { return r.GroupFor(tokens).Decide(p).Allowed }
	full := !allowed("/") && !allowed("/~")
	none := allowed("/")
	for _, ru := range r.GroupFor(tokens).Rules() {
		w := strings.ReplaceAll(strings.TrimSuffix(ru.Pattern, "$"), "*", "")
		if !strings.HasPrefix(w, "/") {
			w = "/" + w
		}
		for _, p := range []string{w, w + "~"} {
			if ru.Allow && allowed(p) {
				full = false
			}
			if !ru.Allow && !allowed(p) {
				none = false
			}
		}
	}
	switch {
	case full:
		return LabelFull
	case none:
		return LabelNone
	}
	return LabelPartial
}

// checkRows checks every row against the core library, given what each
// capture URL (by input and offset) should resolve to.
func checkRows(t *testing.T, rows []Row, paths []string, expect func(r Row) (rules *robotstxt.Robots, ok bool)) {
	t.Helper()
	for _, row := range rows {
		r, ok := expect(row)
		if !ok {
			t.Fatalf("row for %s@%d: no such capture", row.URL, row.Offset)
		}
		where := fmt.Sprintf("%s@%d %s", row.URL, row.Offset, row.Agent)
		if r == nil {
			if row.Rules != RulesUnknown || row.Label != LabelUnknown {
				t.Errorf("%s: rules %s label %s, want unknown", where, row.Rules, row.Label)
			}
			continue
		}
		if row.Rules != rulesName(r) {
			t.Errorf("%s: rules %s, want %s", where, row.Rules, rulesName(r))
		}
		tokens := strings.Split(row.Agent, "+")
		ignores := true // every token a crawler that ignores "*" (table.go)
		for _, tok := range tokens {
			c, known := crawlers.Lookup(tok)
			ignores = ignores && known && c.IgnoresGlobal
		}
		own := false
		for _, tok := range tokens {
			own = own || r.NamesAgent(tok)
		}
		if row.OwnGroup != own {
			t.Errorf("%s: own_group %v, want %v", where, row.OwnGroup, own)
		}
		// A crawler that obeys another token after its own (table.go:
		// Googlebot-Image, Applebot obey Googlebot) is asked as that token
		// when no group names it and one names that token.
		wantDoc := ""
		if c, known := crawlers.Lookup(tokens[0]); known && len(tokens) == 1 && !own && r.Kind() == robotstxt.Parsed {
			for _, o := range c.Obeys[1:] {
				if r.NamesAgent(o.Token) {
					tokens, wantDoc = []string{o.Token}, "obeys "+o.Token
					break
				}
			}
			if wantDoc == "" && ignores {
				wantDoc = "ignores *"
			}
		}
		if row.Documented != wantDoc {
			t.Errorf("%s: documented %q, want %q", where, row.Documented, wantDoc)
		}
		if want := wantLabel(r, tokens, own, ignores); row.Label != want {
			t.Errorf("%s: label %s, want %s", where, row.Label, want)
		}
		if len(row.Verdicts) != len(paths) {
			t.Fatalf("%s: %d verdicts, want %d", where, len(row.Verdicts), len(paths))
		}
		for i, p := range paths {
			d := r.GroupFor(tokens).Decide(robotstxt.NormalizeURL(p))
			if ignores && !own && r.Kind() == robotstxt.Parsed {
				d = robotstxt.Decision{Allowed: true}
			}
			v := row.Verdicts[i]
			u := r.GroupFor(tokens).Usage(robotstxt.NormalizeURL(p))
			if ignores && !own && r.Kind() == robotstxt.Parsed {
				u = r.NoGroup().Usage(robotstxt.NormalizeURL(p)) // no rules, the signals before the first group
			}
			if v.ContentUsage != usageString(&u) || v.ContentSignal != signalString(&u) {
				t.Errorf("%s %s: usage %q signal %q, want %q %q", where, p, v.ContentUsage, v.ContentSignal, usageString(&u), signalString(&u))
			}
			if v.Path != p || v.Allowed == nil || *v.Allowed != d.Allowed || int(v.Line) != d.Line || v.Rule != d.Rule {
				t.Errorf("%s %s: got %+v (allowed %v), want %+v", where, p, v, v.Allowed != nil && *v.Allowed, d)
			}
		}
		if len(tokens) == 1 && !(ignores && !own) && wantDoc == "" || strings.HasPrefix(wantDoc, "obeys ") {
			d, ok := r.CrawlDelay(tokens[0])
			if ok != (row.CrawlDelay != nil) || ok && *row.CrawlDelay != d.Seconds() {
				t.Errorf("%s: crawl_delay %v, want %v %v", where, row.CrawlDelay, d, ok)
			}
		}
	}
}

// TestCorpusWARC writes the real corpus as a WARC.gz and a WARC, audits
// them for every built-in crawler and five paths, and checks every answer
// against the core library (issue: "checks every answer against the core
// library").
func TestCorpusWARC(t *testing.T) {
	cs := corpusCaptures(t)
	if os.Getenv("ROBOTSTXT_LONG") == "" {
		step := 6 // every sixth file; ROBOTSTXT_LONG=1 checks them all
		if raceEnabled {
			step = 30
		}
		var some []capture
		for i := 0; i < len(cs); i += step {
			some = append(some, cs[i])
		}
		cs = some
	}
	dir := t.TempDir()
	for _, name := range []string{"corpus.warc.gz", "corpus.warc"} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, name)
			offs := writeWARC(t, p, cs)
			byOff := map[int64]capture{}
			for i, o := range offs {
				byOff[o] = cs[i]
			}
			out, s := run(t, Config{Inputs: []string{p}, Paths: benchPaths, Format: FormatJSONL})
			if s.Captures != int64(len(cs)) || s.Skipped != 0 {
				t.Fatalf("captures %d skipped %d, want %d and 0: %v", s.Captures, s.Skipped, len(cs), s.Problems)
			}
			rows := decodeRows(t, out)
			if len(rows) != len(cs)*len(crawlers.All()) {
				t.Fatalf("%d rows, want %d", len(rows), len(cs)*len(crawlers.All()))
			}
			checkRows(t, rows, benchPaths, func(r Row) (*robotstxt.Robots, bool) {
				c, ok := byOff[r.Offset]
				if k, _ := urlKey(c.url); !ok || k != r.URL {
					return nil, false
				}
				body := []byte(c.body)
				if len(body) > maxBody {
					body = body[:maxBody]
				}
				return robotstxt.Parse(body), true
			})
			want := map[int64]wantedLint{}
			for _, row := range rows {
				w, ok := want[row.Offset]
				if !ok {
					body := []byte(byOff[row.Offset].body)
					if len(body) > maxBody {
						body = body[:maxBody]
					}
					w = lintWanted(body)
					want[row.Offset] = w
				}
				checkLint(t, row, w)
			}
		})
	}
}

// wantedLint is what the lint columns of a capture's rows should hold.
type wantedLint struct {
	errs, warns int32
	byKind      map[Lint]int32
}

// lintWanted tallies the findings of Diagnose, apart from the audit.
func lintWanted(body []byte) wantedLint {
	w := wantedLint{byKind: map[Lint]int32{}}
	for _, f := range lint.Diagnose(body).Findings {
		w.byKind[Lint{Kind: f.Err.Error(), Severity: f.Severity.String()}]++
		switch f.Severity {
		case lint.SeverityError:
			w.errs++
		case lint.SeverityWarning:
			w.warns++
		}
	}
	return w
}

// checkLint checks a row's lint counts against the findings of Diagnose.
func checkLint(t *testing.T, row Row, w wantedLint) {
	t.Helper()
	errs, warns, byKind := w.errs, w.warns, w.byKind
	got := map[Lint]int32{}
	for i, l := range row.Lint {
		if i > 0 && (row.Lint[i-1].Kind > l.Kind || row.Lint[i-1].Kind == l.Kind && row.Lint[i-1].Severity >= l.Severity) {
			t.Errorf("%s@%d: lint out of order: %v", row.URL, row.Offset, row.Lint)
		}
		got[Lint{Kind: l.Kind, Severity: l.Severity}] = l.Count
	}
	if row.LintErrors == nil || row.LintWarnings == nil || *row.LintErrors != errs || *row.LintWarnings != warns || !maps.Equal(got, byKind) {
		t.Errorf("%s@%d: lint %v/%v %v, want %d/%d %v", row.URL, row.Offset, row.LintErrors, row.LintWarnings, row.Lint, errs, warns, byKind)
	}
}

// TestWorkersByteIdentical audits the same inputs with 1 and 2 workers in
// every format and compares the bytes (issue: "the outputs of 1 and 2
// workers are byte-identical").
func TestWorkersByteIdentical(t *testing.T) {
	dir := t.TempDir()
	var inputs []string
	for i := 0; i < 4; i++ {
		var cs []capture
		for j := 0; j < 40; j++ {
			host := fmt.Sprintf("h%d-%d.example", i, j)
			cs = append(cs, capture{url: "https://" + host + "/robots.txt", status: 200,
				body: fmt.Sprintf("User-agent: *\nDisallow: /p%d\nCrawl-delay: %d\n\nUser-agent: GPTBot\nDisallow: /\n", j, j%3)})
			if j%5 == 0 {
				cs = append(cs, capture{url: "http://" + host + "/robots.txt", status: 301, location: "https://" + host + "/robots.txt"})
			}
		}
		p := filepath.Join(dir, fmt.Sprintf("in%d.warc.gz", i))
		writeWARC(t, p, cs)
		inputs = append(inputs, p)
	}
	for _, f := range []string{FormatCSV, FormatJSONL, FormatParquet, FormatTable} {
		one, _ := run(t, Config{Inputs: inputs, Workers: 1, Format: f, Paths: benchPaths})
		two, _ := run(t, Config{Inputs: inputs, Workers: 2, Format: f, Paths: benchPaths})
		if !bytes.Equal(one, two) {
			t.Errorf("%s: 1 and 2 workers differ (%d and %d bytes)", f, len(one), len(two))
		}
		// Three workers reading each file in segments of a few records.
		three, _ := run(t, Config{Inputs: inputs, Workers: 3, Format: f, Paths: benchPaths, split: 500})
		if !bytes.Equal(one, three) {
			t.Errorf("%s: 1 worker and 3 reading in segments differ (%d and %d bytes)", f, len(one), len(three))
		}
		if len(one) == 0 {
			t.Errorf("%s: empty output", f)
		}
	}
}

// TestParquetReadBack reads the Parquet output back with parquet-go and
// compares it with the JSON Lines output of the same run.
func TestParquetReadBack(t *testing.T) {
	dir := t.TempDir()
	var inputs []string
	for i := 0; i < 2; i++ {
		p := filepath.Join(dir, fmt.Sprintf("in%d.warc.gz", i))
		writeWARC(t, p, []capture{
			{url: fmt.Sprintf("https://a%d.example/robots.txt", i), status: 200, body: "User-agent: *\nDisallow: /private\nCrawl-delay: 2.5\n"},
			{url: fmt.Sprintf("https://b%d.example/robots.txt", i), status: 302, location: "https://elsewhere.example/robots.txt"},
			{url: fmt.Sprintf("https://c%d.example/robots.txt", i), status: 404},
		})
		inputs = append(inputs, p)
	}
	pq, _ := run(t, Config{Inputs: inputs, Format: FormatParquet, Paths: benchPaths})
	js, _ := run(t, Config{Inputs: inputs, Format: FormatJSONL, Paths: benchPaths})
	want := decodeRows(t, js)
	got, err := parquet.Read[Row](bytes.NewReader(pq), int64(len(pq)))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("parquet has %d rows, JSON Lines %d", len(got), len(want))
	}
	for i := range got {
		g, _ := json.Marshal(got[i])
		w, _ := json.Marshal(want[i])
		if !bytes.Equal(g, w) {
			t.Fatalf("row %d:\nparquet %s\njsonl   %s", i, g, w)
		}
	}
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
