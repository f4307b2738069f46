package audit

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
	"github.com/robotstxt-go/robotstxt/verify"
)

// The generated site: four robots.txt versions over ten days, and crawlers
// of known behaviour.

var siteStart = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

type siteVersion struct {
	at     time.Duration // after siteStart
	status int
	body   string
}

var siteVersions = []siteVersion{
	{0, 200, "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n"},
	{3*24*time.Hour + 12*time.Hour, 200, "User-agent: *\nDisallow: /private/\nDisallow: /new-secret/\nCrawl-delay: 10\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /private/\nDisallow: /g-only/\n"},
	{6 * 24 * time.Hour, 503, ""},
	{6*24*time.Hour + 2*time.Hour, 200, "User-agent: *\nDisallow: /private/\nAllow: /private/open\n"},
}

// siteCrawler is how a generated crawler behaves.
type siteCrawler struct {
	ua      string
	token   string        // its crawler of the table (for the slow judge)
	ip      string        // where it requests from
	every   time.Duration // a request every
	refresh time.Duration // fetches robots.txt every (0: never)
	obeys   bool          // requests only what the copy it holds allows
	method  string        // "" for GET
}

var siteCrawlers = []siteCrawler{
	// compliant: fetches robots.txt twice a day and obeys its copy.
	{ua: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", token: "Googlebot", ip: "66.249.66.1", every: 7 * time.Minute, refresh: 12 * time.Hour, obeys: true},
	// shares Googlebot's robots.txt fetch and never fetches it itself.
	{ua: "Googlebot-Image/1.0", token: "Googlebot-Image", ip: "66.249.66.2", every: 41 * time.Minute, obeys: true},
	// ignores robots.txt.
	{ua: "Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)", token: "Bytespider", ip: "110.249.201.1", every: 13 * time.Minute, refresh: 24 * time.Hour},
	// keeps its copy 24 hours.
	{ua: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", token: "bingbot", ip: "40.77.167.1", every: 11 * time.Minute, refresh: 24 * time.Hour, obeys: true},
	// keeps its copy three days.
	{ua: "CCBot/2.0 (https://commoncrawl.org/faq/)", token: "CCBot", ip: "18.97.9.1", every: 17 * time.Minute, refresh: 72 * time.Hour, obeys: true},
	// never fetches robots.txt.
	{ua: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)", token: "ClaudeBot", ip: "3.1.2.3", every: 19 * time.Minute, obeys: true},
	// breaks Crawl-delay: two requests a few seconds apart, often.
	{ua: "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", token: "YandexBot", ip: "5.255.253.1", every: 4 * time.Minute, refresh: 6 * time.Hour, obeys: true},
	// GPTBot, kept out by its own group, obeys.
	{ua: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot", token: "GPTBot", ip: "20.171.207.1", every: 5 * time.Hour, refresh: 24 * time.Hour, obeys: true},
	// a forged Googlebot that ignores robots.txt.
	{ua: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", token: "Googlebot", ip: "203.0.113.9", every: 23 * time.Minute},
	// a crawler posting a form: counted, not judged.
	{ua: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", token: "Googlebot", ip: "66.249.66.3", every: 9 * time.Hour, method: "POST"},
}

var sitePaths = []string{"/", "/a.html", "/private/x", "/private/open/y", "/new-secret/z", "/g-only/q", "/Private/x", "/private%2fx", "/search?q=1"}

// siteRequest is a generated request.
type siteRequest struct {
	t       time.Time
	crawler int // index in siteCrawlers, -1 for a browser
	method  string
	target  string
	ua, ip  string
	status  int
}

func siteRobots() []*robotstxt.Robots {
	var out []*robotstxt.Robots
	for _, v := range siteVersions {
		out = append(out, robotstxt.FromStatus(v.status, []byte(v.body)))
	}
	return out
}

// generateSite makes the requests of the generated site, in time order.
func generateSite(seed uint64) []siteRequest {
	rng := rand.New(rand.NewPCG(seed, 7))
	robots := siteRobots()
	end := 10 * 24 * time.Hour
	liveAt := func(at time.Duration) int {
		v := -1
		for i, sv := range siteVersions {
			if sv.at <= at {
				v = i
			}
		}
		return v
	}
	var reqs []siteRequest
	for ci, c := range siteCrawlers {
		held := -1 // the version its copy is of
		var lastFetch time.Duration = -1
		for at := time.Duration(rng.Int64N(int64(c.every))); at < end; at += c.every + time.Duration(rng.Int64N(int64(c.every)/5+1)) {
			t := siteStart.Add(at)
			if c.refresh > 0 && (lastFetch < 0 || at-lastFetch >= c.refresh) {
				lastFetch = at
				held = liveAt(at)
				reqs = append(reqs, siteRequest{t: t, crawler: ci, method: "GET", target: "/robots.txt", ua: c.ua, ip: c.ip, status: 200})
				at += time.Second
				t = siteStart.Add(at)
			}
			path := sitePaths[rng.IntN(len(sitePaths))]
			if c.obeys {
				copyOf := held
				if c.refresh == 0 {
					copyOf = liveAt(at) // knows the rules some other way
				}
				if copyOf >= 0 && !crawlerAllowed(robots[copyOf], c.token, path) {
					continue
				}
			}
			m := c.method
			if m == "" {
				m = "GET"
			}
			reqs = append(reqs, siteRequest{t: t, crawler: ci, method: m, target: path, ua: c.ua, ip: c.ip, status: 200})
			if c.token == "YandexBot" && rng.IntN(3) == 0 {
				reqs = append(reqs, siteRequest{t: t.Add(2 * time.Second), crawler: ci, method: "GET", target: "/a.html", ua: c.ua, ip: c.ip, status: 200})
				at += 2 * time.Second
			}
		}
	}
	// Browsers and tools.
	for at := time.Duration(0); at < end; at += 3 * time.Minute {
		ua := []string{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", "curl/8.5.0", "-"}[rng.IntN(3)]
		reqs = append(reqs, siteRequest{t: siteStart.Add(at), crawler: -1, method: "GET", target: sitePaths[rng.IntN(len(sitePaths))], ua: ua, ip: "192.0.2.7", status: 200})
	}
	// Before the first version: nothing is judged.
	reqs = append(reqs, siteRequest{t: siteStart.Add(-time.Hour), crawler: 2, method: "GET", target: "/private/early", ua: siteCrawlers[2].ua, ip: siteCrawlers[2].ip, status: 200})
	sortRequests(reqs)
	return reqs
}

func sortRequests(reqs []siteRequest) {
	// Stable by time: the log is written in time order.
	for i := 1; i < len(reqs); i++ {
		for k := i; k > 0 && reqs[k].t.Before(reqs[k-1].t); k-- {
			reqs[k], reqs[k-1] = reqs[k-1], reqs[k]
		}
	}
}

func crawlerAllowed(r *robotstxt.Robots, token, path string) bool {
	c, ok := crawlers.Lookup(token)
	if !ok {
		panic(token)
	}
	g, _ := c.Group(r)
	return g.Allowed(path)
}

// slowRow is what the slow judge expects of a request.
type slowRow struct {
	Line     int64
	Crawler  string
	Verdict  string
	Line2    int32 // the deciding line of the version live
	Fetched  bool
	Breach   bool
	Identity string
}

// slowJudge judges the requests as the package documentation says, the
// obvious way: every version scanned for each request, every request
// before it scanned for robots.txt fetches and the previous judged request.
// Lines are numbered from 1 in request order.
// With a Verifier, each request's identity is what v.Verify says of it.
func slowJudge(reqs []siteRequest, v *verify.Verifier) (rows []slowRow, sums map[string]*LogSummary) {
	robots := siteRobots()
	sums = map[string]*LogSummary{}
	const day = 24 * time.Hour
	name := func(r siteRequest) (string, string, bool) {
		c := siteCrawlers[r.crawler]
		id := ""
		if v != nil {
			id = verifyDirectly(v, netip.MustParseAddr(r.ip), r.ua, r.t)
		}
		if id == IdentityForged {
			return "forged " + c.token, id, true
		}
		return c.token, id, false
	}
	fetchGroup := func(token string) string {
		if c, _ := crawlers.Lookup(token); c.Operator == "Google" {
			return "Google"
		}
		return token
	}
	type judged struct {
		t       time.Time
		crawler string
	}
	var done []judged
	var fetches []judged // robots.txt fetches, by fetch group (forged apart)
	for i, r := range reqs {
		if r.crawler < 0 {
			continue
		}
		c := siteCrawlers[r.crawler]
		who, id, forged := name(r)
		s := sums[who]
		if s == nil {
			op, _ := crawlers.Lookup(c.token)
			s = &LogSummary{Crawler: who, Operator: op.Operator}
			if forged {
				s.Operator = ""
			}
			sums[who] = s
		}
		s.Requests++
		switch id {
		case "":
		case IdentityVerified:
			s.Verified++
		case IdentityForged:
			s.Forged++
		default:
			s.Unknown++
		}
		group := fetchGroup(c.token)
		if forged {
			group = "forged " + group
		}
		if r.target == "/robots.txt" {
			s.RobotsFetches++
			fetches = append(fetches, judged{r.t, group})
			continue
		}
		if r.method != "GET" && r.method != "HEAD" {
			s.NotJudged++
			continue
		}
		live := -1
		for v, sv := range siteVersions {
			if !siteStart.Add(sv.at).After(r.t) {
				live = v
			}
		}
		if live < 0 {
			s.UnknownPolicy++
			continue
		}
		s.Judged++
		var inForce []int
		for v, sv := range siteVersions {
			from := siteStart.Add(sv.at)
			liveAtOld := v == len(siteVersions)-1 || siteStart.Add(siteVersions[v+1].at).After(r.t.Add(-day))
			if !from.After(r.t.Add(-day)) && liveAtOld {
				inForce = append(inForce, v) // live at t−24h
			}
			if from.After(r.t.Add(-day)) && !from.After(r.t) {
				inForce = append(inForce, v)
			}
		}
		cr, _ := crawlers.Lookup(c.token)
		g, _ := cr.Group(robots[live])
		d := g.Decide(r.target)
		verdict := VerdictAllowed
		if !d.Allowed {
			verdict = VerdictViolation
			for _, v := range inForce {
				g, _ := cr.Group(robots[v])
				if g.Allowed(r.target) {
					verdict = VerdictGrace
				}
			}
		}
		fetched := false
		for _, f := range fetches {
			if f.crawler == group && !f.t.After(r.t) && r.t.Sub(f.t) <= day {
				fetched = true
			}
		}
		breach := false
		if delay, ok := g.CrawlDelay(); ok {
			for k := len(done) - 1; k >= 0; k-- {
				if done[k].crawler == who {
					breach = r.t.Sub(done[k].t) < delay
					break
				}
			}
		}
		done = append(done, judged{r.t, who})
		if !fetched {
			s.NoRobotsFetch++
		}
		if breach {
			s.CrawlDelayBreach++
		}
		switch verdict {
		case VerdictAllowed:
			s.Allowed++
		case VerdictGrace:
			s.Grace++
		case VerdictViolation:
			s.Violations++
		}
		rows = append(rows, slowRow{Line: int64(i + 1), Crawler: who, Verdict: verdict, Line2: int32(d.Line), Fetched: fetched, Breach: breach, Identity: id})
	}
	return rows, sums
}

// writeCLF writes the requests as a Combined Log Format log, each time in
// the zone given.
func writeCLF(reqs []siteRequest, zone *time.Location) []byte {
	var b bytes.Buffer
	for _, r := range reqs {
		fmt.Fprintf(&b, "%s - - [%s] \"%s %s HTTP/1.1\" %d 512 \"-\" \"%s\"\n", r.ip, r.t.In(zone).Format("02/Jan/2006:15:04:05 -0700"),
			r.method, r.target, r.status, r.ua)
	}
	return b.Bytes()
}

// writeCaddy writes the requests as Caddy's JSON access log.
func writeCaddy(reqs []siteRequest) []byte {
	var b bytes.Buffer
	for _, r := range reqs {
		line, _ := json.Marshal(map[string]any{
			"level": "info", "ts": float64(r.t.UnixNano()) / 1e9, "logger": "http.log.access", "msg": "handled request",
			"request": map[string]any{"remote_ip": r.ip, "remote_port": "51234", "proto": "HTTP/1.1", "method": r.method, "host": "example.com",
				"uri": r.target, "headers": map[string][]string{"User-Agent": {r.ua}, "Accept": {"*/*"}}},
			"status": r.status, "size": 512,
		})
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// writeCloudflare writes the requests as Cloudflare Logpush lines, with
// EdgeStartTimestamp in RFC 3339.
func writeCloudflare(reqs []siteRequest) []byte {
	var b bytes.Buffer
	for _, r := range reqs {
		line, _ := json.Marshal(map[string]any{
			"ClientIP": r.ip, "ClientRequestHost": "example.com", "ClientRequestMethod": r.method, "ClientRequestURI": r.target,
			"ClientRequestUserAgent": r.ua, "EdgeStartTimestamp": r.t.Format(time.RFC3339), "EdgeResponseStatus": r.status, "RayID": "8f0000000000000a",
		})
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func siteHistory(t testing.TB) *RobotsHistory {
	t.Helper()
	dir := t.TempDir()
	var m strings.Builder
	m.WriteString("time\tstatus\tfile\n")
	for i, v := range siteVersions {
		file := "-"
		if v.body != "" {
			file = fmt.Sprintf("v%d.txt", i)
			if err := os.WriteFile(filepath.Join(dir, file), []byte(v.body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		fmt.Fprintf(&m, "%s\t%d\t%s\n", siteStart.Add(v.at).Format(time.RFC3339), v.status, file)
	}
	p := filepath.Join(dir, "history.tsv")
	if err := os.WriteFile(p, []byte(m.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	h, _, err := ReadRobotsHistory(context.Background(), p, "")
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func runLogs(t testing.TB, cfg LogConfig, logs ...[]byte) ([]LogRow, *LogResult) {
	t.Helper()
	dir := t.TempDir()
	for i, l := range logs {
		p := filepath.Join(dir, fmt.Sprintf("access%d.log", i))
		if err := os.WriteFile(p, l, 0o644); err != nil {
			t.Fatal(err)
		}
		cfg.Logs = append(cfg.Logs, p)
	}
	if cfg.History == nil {
		cfg.History = siteHistory(t)
	}
	cfg.RowsFormat = FormatJSONL
	var out bytes.Buffer
	res, err := RunLogs(context.Background(), cfg, &out)
	if err != nil {
		t.Fatal(err)
	}
	var rows []LogRow
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r LogRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	return rows, res
}

// TestLogsJudgedAsTheSlowJudge replays the generated site's log and checks
// every judged request, and each crawler's summary, against the slow judge.
func TestLogsJudgedAsTheSlowJudge(t *testing.T) {
	reqs := generateSite(1)
	for _, identify := range []bool{false, true} {
		for _, workers := range []int{1, 3} {
			t.Run(fmt.Sprintf("identify=%v/workers=%d", identify, workers), func(t *testing.T) {
				// Identity from a verify snapshot of the site's prefix
				// files, reverse DNS answered by the site's zone.
				var v *verify.Verifier
				cfg := LogConfig{All: true, Workers: workers}
				if identify {
					v = siteVerifier(t, true)
					cfg.Identifier = VerifierIdentifier(context.Background(), v)
				}
				want, wantSums := slowJudge(reqs, v)
				rows, res := runLogs(t, cfg, writeCLF(reqs, time.FixedZone("", -7*3600)))
				var got []slowRow
				for _, r := range rows {
					got = append(got, slowRow{Line: r.Line, Crawler: r.Crawler, Verdict: r.Verdict, Line2: r.RobotsLine, Fetched: r.RobotsFetched, Breach: r.CrawlDelayBreach, Identity: r.Identity})
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("rows differ from the slow judge's (-want +got):\n%s", diff)
				}
				gotSums := map[string]*LogSummary{}
				for i := range res.Crawlers {
					c := res.Crawlers[i]
					c.FirstSeen, c.LastSeen, c.first, c.last = "", "", 0, 0
					gotSums[c.Crawler] = &c
				}
				if diff := cmp.Diff(wantSums, gotSums, cmp.AllowUnexported(LogSummary{})); diff != "" {
					t.Errorf("summary differs from the slow judge's (-want +got):\n%s", diff)
				}
				if res.Malformed != 0 || res.Lines != int64(len(reqs)) {
					t.Errorf("%d lines, %d malformed; want %d, 0", res.Lines, res.Malformed, len(reqs))
				}
				// The behaviours the site was generated with show.
				s := wantSums
				check := func(cond bool, what string) {
					t.Helper()
					if !cond {
						t.Errorf("%s: %+v", what, s)
					}
				}
				check(s["Googlebot-Image"].NoRobotsFetch < s["Googlebot-Image"].Judged/10, "Googlebot-Image shares Googlebot's fetch")
				check(s["Bytespider"].Violations > 0, "Bytespider ignores robots.txt")
				check(s["bingbot"].Violations == 0, "bingbot keeps its copy 24 h: no violation")
				check(s["CCBot"].Violations > 0 && s["CCBot"].Grace >= 0, "CCBot keeps its copy 3 days: violations")
				check(s["ClaudeBot"].NoRobotsFetch == s["ClaudeBot"].Judged, "ClaudeBot never fetches robots.txt")
				check(s["YandexBot"].CrawlDelayBreach > 0, "YandexBot breaks Crawl-delay")
				check(s["GPTBot"].Violations == 0 && s["GPTBot"].Judged > 0, "GPTBot obeys Disallow: / and fetches once V3 opens")
				if identify {
					// Identity checked, the forged Googlebot that ignores
					// robots.txt is apart from the compliant one.
					check(s["Googlebot"].Violations == 0 && s["Googlebot"].Judged > 0, "the compliant Googlebot has no violation")
					check(s["forged Googlebot"] != nil && s["forged Googlebot"].Violations > 0 && s["forged Googlebot"].Forged == s["forged Googlebot"].Requests,
						"the forged Googlebot's violations are its own")
				}
			})
		}
	}
}

// TestLogFormatsAgree: the same requests logged as CLF (in two zones),
// Caddy's JSON and Cloudflare's give the same rows.
func TestLogFormatsAgree(t *testing.T) {
	reqs := generateSite(2)
	strip := func(rows []LogRow) []LogRow {
		for i := range rows {
			rows[i].Input = ""
			tm, err := time.Parse(time.RFC3339Nano, rows[i].Time)
			if err != nil {
				t.Fatal(err)
			}
			rows[i].Time = tm.UTC().Format(time.RFC3339)
		}
		return rows
	}
	clf, _ := runLogs(t, LogConfig{}, writeCLF(reqs, time.UTC))
	clf = strip(clf)
	if len(clf) == 0 {
		t.Fatal("no rows")
	}
	for name, log := range map[string][]byte{
		"clf +0530":  writeCLF(reqs, time.FixedZone("", 5*3600+1800)),
		"caddy":      writeCaddy(reqs),
		"cloudflare": writeCloudflare(reqs),
	} {
		rows, res := runLogs(t, LogConfig{}, log)
		if diff := cmp.Diff(clf, strip(rows)); diff != "" {
			t.Errorf("%s: rows differ from the CLF log's (-clf +%s):\n%s", name, name, diff)
		}
		if res.Malformed != 0 {
			t.Errorf("%s: %d lines do not parse: %v", name, res.Malformed, res.Problems)
		}
	}
}

// TestLogsMalformedLines: a line that does not parse is counted and
// reported with its file and line number; the lines around it are read.
func TestLogsMalformedLines(t *testing.T) {
	good := `66.249.66.1 - - [02/Mar/2026:10:00:00 +0000] "GET /private/x HTTP/1.1" 200 5 "-" "Googlebot/2.1"` + "\n"
	log := good +
		"garbage\n" +
		`1.2.3.4 - - [02/Mar/2026:10:00:00 +0000] "GET /x HTTP/1.1" 2000 5 "-" "Googlebot/2.1"` + "\n" +
		`1.2.3.4 - - [32/Mar/2026:10:00:00 +0000] "GET /x HTTP/1.1" 200 5 "-" "Googlebot/2.1"` + "\n" +
		`1.2.3.4 - - [02/Mar/2026:10:00:00 +0000] "GET /x HTTP/1.1 200 5 "-" "Googlebot/2.1` + "\n" +
		"\n" +
		good
	_, res := runLogs(t, LogConfig{All: true}, []byte(log))
	var lines []int64
	for _, p := range res.Problems {
		lines = append(lines, p.Line)
		if !strings.HasSuffix(p.Input, "access0.log") {
			t.Errorf("problem %v: input %q", p, p.Input)
		}
	}
	if diff := cmp.Diff([]int64{2, 3, 4, 5}, lines); diff != "" {
		t.Errorf("malformed lines (-want +got):\n%s", diff)
	}
	if res.Malformed != 4 || res.Parsed != 2 || res.Lines != 7 {
		t.Errorf("lines %d parsed %d malformed %d, want 7 2 4", res.Lines, res.Parsed, res.Malformed)
	}
	if len(res.Crawlers) != 1 || res.Crawlers[0].Violations != 2 {
		t.Errorf("crawlers %+v, want Googlebot with 2 violations", res.Crawlers)
	}
}

// TestParseCLF reads the fields of Combined and Common Log Format lines as
// Apache and nginx write them.
func TestParseCLF(t *testing.T) {
	tests := []struct {
		line                   string
		ip, method, target, ua string
		status                 int32
		utc                    string
		err                    bool
	}{
		{line: `127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326 "http://www.example.com/start.html" "Mozilla/4.08 [en] (Win98; I ;Nav)"`,
			ip: "127.0.0.1", method: "GET", target: "/apache_pb.gif", ua: "Mozilla/4.08 [en] (Win98; I ;Nav)", status: 200, utc: "2000-10-10T20:55:36Z"},
		// Common Log Format: no referer, no user-agent.
		{line: `::1 - - [01/Jan/2026:00:00:00 +0000] "HEAD / HTTP/1.1" 304 -`, ip: "::1", method: "HEAD", target: "/", status: 304, utc: "2026-01-01T00:00:00Z"},
		// Apache escapes a quote in the user-agent as \".
		{line: `1.2.3.4 - - [01/Jan/2026:00:00:00 +0100] "GET /a?b=\"c\" HTTP/1.1" 200 1 "-" "x \"quoted\" y"`, ip: "1.2.3.4", method: "GET",
			target: `/a?b=\"c\"`, ua: `x \"quoted\" y`, status: 200, utc: "2025-12-31T23:00:00Z"},
		// A target with a space (nginx logs it as sent) and extra fields after.
		{line: `1.2.3.4 - - [05/Feb/2026:12:00:00 +0000] "GET /a b HTTP/1.1" 404 1 "-" "Foobot/1.0" "extra" 0.001`, ip: "1.2.3.4", method: "GET",
			target: "/a b", ua: "Foobot/1.0", status: 404, utc: "2026-02-05T12:00:00Z"},
		// A request that is not HTTP: kept as it is.
		{line: `1.2.3.4 - - [05/Feb/2026:12:00:00 +0000] "\x16\x03\x01" 400 0 "-" "-"`, ip: "1.2.3.4", method: `\x16\x03\x01`, ua: "-", status: 400, utc: "2026-02-05T12:00:00Z"},
		{line: `1.2.3.4 - - [05/Feb/2026:12:00:00 +0000] "-" 408 0 "-" "-"`, ip: "1.2.3.4", method: "-", ua: "-", status: 408, utc: "2026-02-05T12:00:00Z"},
		{line: `1.2.3.4 - - [05/Feb/2026:12:00:00] "GET / HTTP/1.1" 200 0`, err: true},
		{line: `1.2.3.4 - - [05/Foo/2026:12:00:00 +0000] "GET / HTTP/1.1" 200 0`, err: true},
		{line: `1.2.3.4 - - [05/Feb/2026:12:00:00 +0000] "GET / HTTP/1.1" abc 0`, err: true},
		{line: `1.2.3.4 - - [05/Feb/2026:12:00:00 +0000] GET / 200 0`, err: true},
		{line: ``, err: true},
		// An empty time is no time (it once met an empty cache and read as 1970).
		{line: `0 [] "" 000`, err: true},
		// A year whose time in nanoseconds would not fit an int64.
		{line: `0 [01/Jan/0000:00:00:00 +0000] "GET / HTTP/1.1" 200 0`, err: true},
	}
	for _, tt := range tests {
		var rec logRecord
		var tc timeCache
		err := parseCLF([]byte(tt.line), &rec, &tc)
		if (err != nil) != tt.err {
			t.Errorf("%q: error %v, want error %v", tt.line, err, tt.err)
			continue
		}
		if err != nil {
			continue
		}
		utc := time.Unix(0, rec.nanos).UTC().Format(time.RFC3339)
		if rec.ip != tt.ip || rec.method != tt.method || rec.target != tt.target || rec.ua != tt.ua || rec.status != tt.status || utc != tt.utc {
			t.Errorf("%q: got %q %q %q %q %d %s", tt.line, rec.ip, rec.method, rec.target, rec.ua, rec.status, utc)
		}
	}
}

// TestCLFTimeAsTimeParse holds the hand-written time reader to time.Parse
// over many instants and zones.
func TestCLFTimeAsTimeParse(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		tm := time.Unix(rng.Int64N(8_000_000_000)-2_000_000_000, 0).In(time.FixedZone("", (rng.IntN(28*4)-14*4)*900))
		s := tm.Format("02/Jan/2006:15:04:05 -0700")
		nanos, zone, err := parseCLFTime([]byte(s))
		if err != nil || nanos != tm.UnixNano() {
			t.Fatalf("%s: %v %d, want %d", s, err, nanos, tm.UnixNano())
		}
		if _, off := tm.Zone(); int32(off) != zone {
			t.Fatalf("%s: zone %d, want %d", s, zone, off)
		}
	}
}

// TestRobotsWindow holds the versions in force to RFC 9309 §2.4's 24 hours.
func TestRobotsWindow(t *testing.T) {
	h := siteHistory(t)
	at := func(d time.Duration) int64 { return siteStart.Add(d).UnixNano() }
	const day = 24 * time.Hour
	v1 := siteVersions[1].at
	tests := []struct {
		at          time.Duration
		first, live int
	}{
		{-time.Second, 0, -1},
		{0, 0, 0},
		{v1 - time.Second, 0, 0},
		{v1, 0, 1},
		{v1 + day - time.Second, 0, 1}, // version 0 was live 24 h before
		{v1 + day, 1, 1},               // version 1 was live 24 h before; version 0 had gone
		{6*day + 3*time.Hour, 1, 3},    // versions 1 (live at t−24h), 2 and 3
		{7*day + 2*time.Hour, 3, 3},
	}
	for _, tt := range tests {
		first, live := h.window(at(tt.at))
		if first != tt.first || live != tt.live {
			t.Errorf("at %v: in force %d..%d, want %d..%d", tt.at, first, live, tt.first, tt.live)
		}
	}
}

// TestRobotsHistoryInputs reads the same history from a manifest, the
// audit's JSON Lines captures, a WARC of them, and a single file.
func TestRobotsHistoryInputs(t *testing.T) {
	dir := t.TempDir()
	var jl bytes.Buffer
	var warc bytes.Buffer
	for _, v := range siteVersions {
		date := siteStart.Add(v.at).Format(time.RFC3339)
		line, _ := json.Marshal(map[string]any{"url": "https://example.com/robots.txt", "status": v.status, "body": v.body, "date": date})
		jl.Write(line)
		jl.WriteByte('\n')
		warc.Write(warcRecord(t, capture{url: "https://example.com/robots.txt", status: v.status, body: v.body, date: date}))
	}
	// A capture of another site, and a redirect, are not versions.
	jl.WriteString(`{"url": "https://other.example/robots.txt", "status": 200, "body": "", "date": "2026-03-02T00:00:00Z"}` + "\n")
	jl.WriteString(`{"url": "https://example.com/robots.txt", "status": 301, "location": "https://www.example.com/robots.txt", "date": "2026-03-05T00:00:00Z"}` + "\n")
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	want := siteHistory(t)
	summary := func(h *RobotsHistory) []string {
		var out []string
		for _, v := range h.Versions {
			out = append(out, fmt.Sprintf("%s %d %s %x", v.Label(), v.Status, v.Rules.Kind(), v.sum[:4]))
		}
		return out
	}
	jpath := write("captures.jsonl", jl.Bytes())
	if _, _, err := ReadRobotsHistory(context.Background(), jpath, ""); err == nil || !strings.Contains(err.Error(), "-site") {
		t.Errorf("captures of two sites without -site: error %v", err)
	}
	h, problems, err := ReadRobotsHistory(context.Background(), jpath, "https://example.com")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(summary(want), summary(h)); diff != "" {
		t.Errorf("JSON Lines history (-manifest +jsonl):\n%s", diff)
	}
	if len(problems) != 1 || !strings.Contains(problems[0].Detail, "redirect") {
		t.Errorf("problems %v, want the redirect", problems)
	}
	h, _, err = ReadRobotsHistory(context.Background(), write("captures.warc", warc.Bytes()), "")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(summary(want), summary(h)); diff != "" {
		t.Errorf("WARC history (-manifest +warc):\n%s", diff)
	}
	h, _, err = ReadRobotsHistory(context.Background(), write("robots.txt", []byte(siteVersions[0].body)), "")
	if err != nil || len(h.Versions) != 1 || h.Versions[0].Label() != "always" {
		t.Fatalf("single file: %v %+v", err, h)
	}
	if first, live := h.window(0); first != 0 || live != 0 {
		t.Errorf("single file: in force %d..%d at 1970, want 0..0", first, live)
	}
}

// TestLogSummaryCSV writes the summary as CSV with the header and the
// counts.
func TestLogSummaryCSV(t *testing.T) {
	_, res := runLogs(t, LogConfig{}, writeCLF(generateSite(4), time.UTC))
	var b bytes.Buffer
	if err := WriteLogSummary(&b, FormatCSV, res.Crawlers); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(logSummaryHeader(), recs[0]); diff != "" {
		t.Errorf("header (-want +got):\n%s", diff)
	}
	if len(recs) != len(res.Crawlers)+1 {
		t.Fatalf("%d records for %d crawlers", len(recs), len(res.Crawlers))
	}
	for i, c := range res.Crawlers {
		if recs[i+1][0] != c.Crawler || recs[i+1][5] != strconv.FormatInt(c.Violations, 10) {
			t.Errorf("record %v for %+v", recs[i+1], c)
		}
	}
}

// TestEscapeTerminal: text from a log reaches a terminal without its
// control characters.
func TestEscapeTerminal(t *testing.T) {
	for in, want := range map[string]string{
		"Googlebot":    "Googlebot",
		"a\x1b[31mred": `a\x1b[31mred`,
		"bell\a\r\n":   `bell\a\r\n`,
		"c1\u009b2J":   `c1\u009b2J`,
		"bad\xffutf8":  `bad\xffutf8`,
		"back\\slash":  `back\\slash`,
		"héllo 世界":     "héllo 世界",
	} {
		if got := EscapeTerminal(in); got != want {
			t.Errorf("EscapeTerminal(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLogsShardsByDay: a log cut into days, each day replayed with the day
// before as context (LogConfig.Since), gives the rows and the counts of the
// whole log replayed at once.
func TestLogsShardsByDay(t *testing.T) {
	reqs := generateSite(5)
	whole, wres := runLogs(t, LogConfig{All: true}, writeCLF(reqs, time.UTC))
	days := map[int][]siteRequest{}
	first, last := 1<<30, -1<<30
	for _, r := range reqs {
		d := int(r.t.Sub(siteStart).Hours()+240) / 24 // days from 10 days before
		days[d] = append(days[d], r)
		first, last = min(first, d), max(last, d)
	}
	var rows []LogRow
	sums := map[string]*LogSummary{}
	for d := first; d <= last; d++ {
		since := siteStart.Add(time.Duration(d-10) * 24 * time.Hour)
		got, res := runLogs(t, LogConfig{All: true, Since: since}, writeCLF(days[d-1], time.UTC), writeCLF(days[d], time.UTC))
		rows = append(rows, got...)
		for _, c := range res.Crawlers {
			s := sums[c.Crawler]
			if s == nil {
				s = &LogSummary{Crawler: c.Crawler, Operator: c.Operator, FirstSeen: c.FirstSeen}
				sums[c.Crawler] = s
			}
			s.Requests += c.Requests
			s.Judged += c.Judged
			s.Allowed += c.Allowed
			s.Violations += c.Violations
			s.Grace += c.Grace
			s.NotJudged += c.NotJudged
			s.UnknownPolicy += c.UnknownPolicy
			s.RobotsFetches += c.RobotsFetches
			s.NoRobotsFetch += c.NoRobotsFetch
			s.CrawlDelayBreach += c.CrawlDelayBreach
			s.LastSeen = c.LastSeen
		}
	}
	key := func(rows []LogRow) []string {
		var out []string
		for _, r := range rows {
			r.Input, r.Line = "", 0
			b, _ := json.Marshal(r)
			out = append(out, string(b))
		}
		return out
	}
	if diff := cmp.Diff(key(whole), key(rows)); diff != "" {
		t.Errorf("the days' rows differ from the whole log's (-whole +days):\n%s", diff)
	}
	want := map[string]*LogSummary{}
	for i := range wres.Crawlers {
		c := wres.Crawlers[i]
		c.first, c.last = 0, 0
		want[c.Crawler] = &c
	}
	if diff := cmp.Diff(want, sums, cmp.AllowUnexported(LogSummary{})); diff != "" {
		t.Errorf("the days' summaries differ from the whole log's (-whole +days):\n%s", diff)
	}
}

// TestLogsGzipStdinLongLines: a gzipped log (told by its bytes) and a log
// on stdin give the rows of the plain file; a line longer than a block is
// reported with its number and the lines after it are read.
func TestLogsGzipStdinLongLines(t *testing.T) {
	reqs := generateSite(6)
	plain := writeCLF(reqs, time.UTC)
	want, _ := runLogs(t, LogConfig{All: true}, plain)
	strip := func(rows []LogRow) []LogRow {
		for i := range rows {
			rows[i].Input = ""
		}
		return rows
	}
	want = strip(want)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	got, _ := runLogs(t, LogConfig{All: true}, gz.Bytes())
	if diff := cmp.Diff(want, strip(got)); diff != "" {
		t.Errorf("gzipped (-plain +gzip):\n%s", diff)
	}
	got, _ = runLogs(t, LogConfig{All: true, Logs: []string{"-"}, Stdin: bytes.NewReader(gz.Bytes())})
	if diff := cmp.Diff(want, strip(got)); diff != "" {
		t.Errorf("stdin (-plain +stdin):\n%s", diff)
	}

	lines := bytes.SplitAfter(plain[:len(plain)-1], []byte("\n"))
	long := append([]byte(`1.2.3.4 - - [02/Mar/2026:10:00:00 +0000] "GET /`), bytes.Repeat([]byte("a"), 3*logBlockSize)...)
	long = append(long, " HTTP/1.1\" 200 5 \"-\" \"Googlebot/2.1\"\n"...)
	var withLong []byte
	for i, l := range lines {
		withLong = append(withLong, l...)
		if i == 100 {
			withLong = append(withLong, long...)
		}
	}
	withLong = append(withLong, '\n')
	got, res := runLogs(t, LogConfig{All: true}, withLong)
	if res.Malformed != 1 || len(res.Problems) != 1 || res.Problems[0].Line != 102 || !strings.Contains(res.Problems[0].Reason, "longer than") {
		t.Fatalf("a long line 102: %d malformed, %+v", res.Malformed, res.Problems)
	}
	for i := range got {
		if got[i].Line > 102 {
			got[i].Line-- // the long line shifts the lines after it
		}
	}
	if diff := cmp.Diff(want, strip(got)); diff != "" {
		t.Errorf("with a long line (-plain +long):\n%s", diff)
	}
}

// TestClassifyUserAgents: the crawler a User-Agent names, by its product
// token in the crawler table or the ai.robots.txt set, or by a name of
// that set that is no product token.
func TestClassifyUserAgents(t *testing.T) {
	agents, err := Agents("crawlers,ai.robots.txt")
	if err != nil {
		t.Fatal(err)
	}
	j := newLogJudge(siteHistory(t), agents, nil)
	var c uaCache
	for ua, want := range map[string]string{
		"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.139 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)": "Googlebot",
		"Googlebot-Image/1.0": "Googlebot-Image",
		"Mozilla/5.0 (compatible; Google-InspectionTool/1.0;)":                                                   "Google-InspectionTool",
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot": "GPTBot",
		"Mozilla/5.0 (compatible; AI2Bot/1.0; +https://www.allenai.org/crawler)":                                 "AI2Bot",
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36":  "",
		"curl/8.5.0": "",
		"-":          "",
		"":           "",
	} {
		a, kept := j.classify(&c, ua)
		got := ""
		if a >= 0 {
			got = agents[a].Name()
		}
		if got != want || kept != ua {
			t.Errorf("%q: %q (kept %q), want %q", ua, got, kept, want)
		}
		if a2, _ := j.classify(&c, ua); a2 != a {
			t.Errorf("%q: from the cache %d, then %d", ua, a, a2)
		}
	}
}

// TestLogsBlankStartThenJSON: a log whose first block is blank lines and
// whose lines then are JSON is read as JSON, with any number of workers.
func TestLogsBlankStartThenJSON(t *testing.T) {
	reqs := generateSite(7)
	want, _ := runLogs(t, LogConfig{All: true}, writeCaddy(reqs))
	blank := bytes.Repeat([]byte("\n"), logBlockSize+10)
	for _, workers := range []int{1, 3} {
		got, res := runLogs(t, LogConfig{All: true, Workers: workers}, append(blank, writeCaddy(reqs)...))
		if res.Malformed != 0 || len(got) != len(want) {
			t.Errorf("workers %d: %d rows, %d malformed; want %d rows", workers, len(got), res.Malformed, len(want))
		}
	}
}
