package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
	"github.com/robotstxt-go/robotstxt/fetch"
	"github.com/robotstxt-go/robotstxt/lint"
)

const fetchHelp = `usage: robotstxt fetch [-agent A] [-user-agent H] [-json] URL

Fetch does what a crawler does before it fetches URL: it fetches the
robots.txt of URL's site (following redirects, reading at most 500 KiB) and
reports where it was, the User-Agent header sent, the HTTP status, the
redirects, the bytes read, the rules that apply (the parsed file, or
allow-all or disallow-all as RFC 9309 prescribes for the status), the
Crawl-delay of the agent's group and the file's Sitemap lines, how long a
crawler may cache them and the errors "robotstxt lint" finds in the file;
then whether the agent may fetch URL, and which line decides. With -json
the findings are all there, with their line numbers.

The User-Agent header is the agent's product token (Go's default for "*")
unless -user-agent gives one: some firewalls answer 403 to Go's default,
which makes a site look as if it had no robots.txt.

` + exitStatuses + `
Examples:

	robotstxt fetch https://example.com/private/x
	robotstxt fetch -agent Googlebot -json https://example.com/private/x
	robotstxt fetch -user-agent "Mozilla/5.0 (compatible; Foobot/1.0)" https://example.com/
`

// robotsFetcher fetches the robots.txt that applies to a URL, as a crawler
// does, sending header as the User-Agent ("" for Go's default). A failure
// to reach the server is a result (disallow-all), not an error; errors are
// for URLs that have no robots.txt, such as relative ones.
type robotsFetcher interface {
	Fetch(ctx context.Context, header, url string) (*fetched, error)
}

// goDefaultUA is the User-Agent header net/http sends when none is set.
const goDefaultUA = "Go-http-client/1.1"

// fetched is what fetching a robots.txt gave.
type fetched struct {
	RobotsURL string
	UserAgent string   // the User-Agent header sent; "" for Go's default
	Status    int      // the final HTTP status; 0 when no response came
	Redirects []string // the URLs redirected to, in order
	Body      []byte   // what was read of a 2xx body, at most fetch.MaxBodySize bytes
	Bytes     int      // len(Body), or what was read when Body is unknown
	Truncated bool     // the body was longer than what was read
	Robots    *robotstxt.Robots
	TTL       time.Duration // how long the result may be cached
	Err       error         // the network failure that left no usable response, if any
}

// why says what stands for the rules when no file was parsed.
func (f *fetched) why() string {
	const unreachable = "robots.txt unreachable (%s): RFC 9309 has crawlers disallow everything until they can fetch it"
	switch f.Robots.Kind() {
	case robotstxt.AllowAll:
		switch {
		case f.Err != nil:
			return fmt.Sprintf("%s: everything is allowed", networkCause(f.Err))
		case f.Status == 401 || f.Status == 403:
			return fmt.Sprintf("no robots.txt (HTTP %d): everything is allowed; a %d may also be a firewall refusing the User-Agent header sent (%s): try -user-agent",
				f.Status, f.Status, f.header())
		}
		return fmt.Sprintf("no robots.txt (HTTP %d): everything is allowed", f.Status)
	case robotstxt.DisallowAll:
		switch {
		case f.Err != nil:
			return fmt.Sprintf(unreachable, networkCause(f.Err))
		case f.Status == 0:
			return fmt.Sprintf(unreachable, "no response")
		}
		return fmt.Sprintf(unreachable, "HTTP "+strconv.Itoa(f.Status))
	}
	return ""
}

// header returns the User-Agent header sent, as the server saw it.
func (f *fetched) header() string {
	if f.UserAgent == "" {
		return goDefaultUA + ", Go's default"
	}
	return f.UserAgent
}

// source returns the robots.txt fetched as a source of answers, with the
// findings of its body.
func (f *fetched) source() *source {
	src := &source{name: f.RobotsURL, robots: f.Robots, why: f.why()}
	src.unreachable = f.Robots.Kind() == robotstxt.DisallowAll
	if f.Robots.Kind() == robotstxt.Parsed {
		src.report = lint.Diagnose(f.Body)
	}
	return src
}

// newFetcher returns the fetcher the command uses: package fetch over the
// network.
func newFetcher() robotsFetcher { return httpFetcher{base: http.DefaultTransport} }

// netTimeout bounds each fetch the commands send: a robots.txt, and the
// page of page and ai. It is the bound package fetch gives a robots.txt
// fetch when left to its default.
const netTimeout = 30 * time.Second

// httpFetcher fetches with [fetch.Fetch]. Its Result holds neither the body
// nor the URLs redirected to, which the command shows, so a recorder between
// the client and the network keeps them.
type httpFetcher struct {
	base    http.RoundTripper
	timeout time.Duration // of the whole fetch; 0 for netTimeout
}

func (h httpFetcher) Fetch(ctx context.Context, header, url string) (*fetched, error) {
	rec := &recorder{base: h.base}
	timeout := h.timeout
	if timeout == 0 {
		timeout = netTimeout
	}
	client := &http.Client{Transport: rec, Timeout: timeout}
	res, err := fetch.Fetch(ctx, client, header, url)
	if err != nil {
		return nil, err
	}
	f := &fetched{
		RobotsURL: res.RobotsURL,
		UserAgent: header,
		Status:    res.StatusCode,
		Bytes:     res.Bytes,
		Truncated: res.Truncated,
		Robots:    res.Robots,
		TTL:       res.TTL,
		Err:       res.Err,
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.urls) > 1 {
		f.Redirects = rec.urls[1:]
	}
	if res.Robots.Kind() == robotstxt.Parsed && rec.last != nil && rec.last.Len() >= res.Bytes {
		f.Body = rec.last.Bytes()[:res.Bytes]
	}
	return f, nil
}

// recorder is an http.RoundTripper that keeps the URL of every request and
// the bytes read of the last response's body.
type recorder struct {
	base http.RoundTripper
	mu   sync.Mutex
	urls []string
	last *bytes.Buffer
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	buf := new(bytes.Buffer)
	r.mu.Lock()
	r.urls = append(r.urls, req.URL.String())
	r.last = buf
	r.mu.Unlock()
	resp, err := r.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = &teeBody{ReadCloser: resp.Body, mu: &r.mu, buf: buf}
	return resp, nil
}

// teeBody copies what is read of a body into buf.
type teeBody struct {
	io.ReadCloser
	mu  *sync.Mutex
	buf *bytes.Buffer
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	t.mu.Lock()
	t.buf.Write(p[:n])
	t.mu.Unlock()
	return n, err
}

func (c *cli) fetch(args []string) int {
	fs := c.newFlags("fetch")
	agent := fs.String("agent", defaultAgent, "the crawler's product token `NAME`, such as Googlebot")
	userAgent := fs.String("user-agent", "", "send `HEADER` as the User-Agent header (default: the agent's token, or Go's default for \"*\")")
	asJSON := fs.Bool("json", false, "print one JSON object")
	pos, status, ok := c.parse(fs, fetchHelp, args)
	if !ok {
		return status
	}
	if len(pos) != 1 {
		return c.fail("robotstxt fetch: give exactly one URL, such as https://example.com/page")
	}
	url := pos[0]
	token, header, err := identity(*agent, *userAgent)
	if err != nil {
		return c.fail("robotstxt fetch: %v", err)
	}
	*agent = token
	res, err := c.fetcher.Fetch(context.Background(), header, url)
	if err != nil {
		return c.fail("robotstxt fetch: %s", describeURLError(err))
	}
	src := res.source()
	// Asked as a crawler sends it, as package fetch asks, of the group the
	// crawler documents it obeys, as check and the tester page ask.
	g, note := crawlers.Group(res.Robots, *agent)
	if note != "" {
		fmt.Fprintf(c.stderr, "robotstxt fetch: %s\n", note)
	}
	us := g.Usage(robotstxt.NormalizeURL(url))
	d := us.Decision
	if *asJSON {
		err = c.fetchJSON(url, *agent, res, src, g, us)
	} else {
		err = c.fetchText(url, *agent, res, src, g, us)
	}
	if err != nil {
		return c.fail("robotstxt fetch: %v", err)
	}
	return src.status(false, !d.Allowed)
}

func (c *cli) fetchText(url, agent string, res *fetched, src *source, g robotstxt.Group, us robotstxt.Usage) error {
	d := us.Decision
	var b strings.Builder
	row := func(k, v string) { fmt.Fprintf(&b, "%-11s %s\n", k, v) }
	row("url", url)
	row("robots.txt", res.RobotsURL)
	row("user-agent", res.header())
	if res.Status > 0 {
		row("status", strconv.Itoa(res.Status))
	} else {
		row("status", "no response")
	}
	if res.Err != nil {
		row("error", networkCause(res.Err))
	}
	if len(res.Redirects) == 0 {
		row("redirects", "none")
	}
	for i, r := range res.Redirects {
		row("redirects", fmt.Sprintf("%d: %s", i+1, r))
	}
	n := strconv.Itoa(res.Bytes)
	if res.Truncated {
		n += fmt.Sprintf(" (the rest, past %d, is ignored)", fetch.MaxBodySize)
	}
	row("bytes", n)
	row("rules", rulesSummary(res.Robots, src))
	if res.Robots.Kind() == robotstxt.Parsed {
		if d, line := g.CrawlDelayLine(); line > 0 {
			row("crawl-delay", fmt.Sprintf("%v (line %d)", d, line))
		} else {
			row("crawl-delay", "none")
		}
		maps := res.Robots.Sitemaps()
		for i, m := range maps {
			if len(maps) > summaryOver && i == summaryKeep {
				row("sitemap", fmt.Sprintf("and %d more (-json lists them; robotstxt sitemaps follows them)", len(maps)-i))
				break
			}
			row("sitemap", m)
		}
	}
	if src.report != nil {
		for _, f := range summarize(answerFindings(src.report), false) {
			row("lint", "line "+strings.TrimPrefix(f.render("", "robotstxt lint -all lists them"), ":"))
		}
		if e, w, i := severityCounts(src.report); e+w+i > 0 {
			row("lint", fmt.Sprintf("%s, %s, %s in all: curl -s %s | robotstxt lint - lists them",
				plural(e, "error"), plural(w, "warning"), plural(i, "info"), res.RobotsURL))
		}
	}
	row("cache", res.TTL.String())
	row("agent", agent)
	row("verdict", verdictWord(d.Allowed)+"  "+src.explain(url, d)+usageText(us))
	_, err := fmt.Fprint(c.stdout, b.String())
	return err
}

// rulesSummary says what the rules are: the parsed file's counts, or
// allow-all or disallow-all and why.
func rulesSummary(r *robotstxt.Robots, src *source) string {
	if r.Kind() != robotstxt.Parsed {
		return r.Kind().String() + ": " + src.why
	}
	n := src.report.Counts
	return fmt.Sprintf("parsed: %s, %s, %s",
		plural(n.Groups, "group"), plural(n.Allow+n.Disallow, "rule"), plural(n.Sitemaps, "sitemap"))
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// fetchJSON is what fetch -json prints.
type fetchJSON struct {
	URL       string        `json:"url"`
	RobotsURL string        `json:"robots_url"`
	UserAgent string        `json:"user_agent"` // the User-Agent header sent
	Status    int           `json:"status"`
	Error     string        `json:"error,omitempty"`
	Redirects []string      `json:"redirects"`
	Bytes     int           `json:"bytes"`
	Truncated bool          `json:"truncated"`
	Rules     string        `json:"rules"`                         // parsed, allow-all or disallow-all
	Reason    string        `json:"reason,omitempty"`              // why, when no file was parsed
	Delay     float64       `json:"crawl_delay_seconds,omitempty"` // the agent's group's Crawl-delay
	DelayLine int           `json:"crawl_delay_line,omitempty"`    // its line; absent when there is none
	Sitemaps  []string      `json:"sitemaps"`                      // the Sitemap lines, in file order
	CacheSecs float64       `json:"cache_seconds"`
	Agent     string        `json:"agent"`
	Decision  decisionJSON  `json:"decision"`
	Errors    int           `json:"errors"` // findings of severity error
	Warnings  int           `json:"warnings"`
	Infos     int           `json:"infos"`
	Findings  []findingJSON `json:"findings"` // all of them, as robotstxt lint -json prints them
}

func (c *cli) fetchJSON(url, agent string, res *fetched, src *source, g robotstxt.Group, us robotstxt.Usage) error {
	enc := json.NewEncoder(c.stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(newFetchJSON(url, agent, res, src, g, us))
}

// newFetchJSON returns what fetch -json prints: the decision with its
// usage preferences, as check -json prints them, and the Crawl-delay of
// the agent's group g and the file's Sitemap lines.
func newFetchJSON(url, agent string, res *fetched, src *source, g robotstxt.Group, us robotstxt.Usage) fetchJSON {
	d := us.Decision
	j := fetchJSON{
		URL:       url,
		RobotsURL: res.RobotsURL,
		UserAgent: res.UserAgent,
		Status:    res.Status,
		Redirects: res.Redirects,
		Bytes:     res.Bytes,
		Truncated: res.Truncated,
		Rules:     res.Robots.Kind().String(),
		Reason:    src.why,
		CacheSecs: res.TTL.Seconds(),
		Agent:     agent,
		Decision:  src.decisionJSON(url, d),
		Findings:  []findingJSON{},
	}
	j.Decision.Usage = usageOf(us)
	if d, line := g.CrawlDelayLine(); line > 0 {
		j.Delay, j.DelayLine = d.Seconds(), line
	}
	j.Sitemaps = res.Robots.Sitemaps()
	if j.Sitemaps == nil {
		j.Sitemaps = []string{}
	}
	if j.UserAgent == "" {
		j.UserAgent = goDefaultUA
	}
	if j.Redirects == nil {
		j.Redirects = []string{}
	}
	if res.Err != nil {
		j.Error = networkCause(res.Err)
	}
	if src.report != nil {
		j.Errors, j.Warnings, j.Infos = severityCounts(src.report)
		j.Findings = findingsJSON(src.report)
	}
	return j
}
