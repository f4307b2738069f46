package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/fetch"
	"github.com/robotstxt-go/robotstxt/internal/termesc"
	"github.com/robotstxt-go/robotstxt/sitemap"
)

const sitemapsHelp = `usage: robotstxt sitemaps [-agent A] [-user-agent H] [-json] [-delay D] [-max-sitemaps N] URL

Follow the sitemaps of a site as a crawler does, and print each page they
list with the crawler's robots.txt decision for it:

	allowed     https://example.com/products/1  line 5: Allow: /
	disallowed  https://example.com/drafts/x  line 4: Disallow: /drafts/

URL is a site (https://example.com/: the sitemaps its robots.txt names, or
/sitemap.xml) or a sitemap. The default agent "*" stands for any crawler
that no group names: sitemaps then fetches as robotstxt, and says so where
a robots.txt names robotstxt. Sitemaps are fetched under the crawler's
identity, paced per site (Crawl-delay, or -delay), and only where robots.txt
allows; an index is followed one level down. Each file is read as a
stream, with the limits of sitemaps.org enforced (50,000 URLs, 50 MB
uncompressed, gzip bombs included). What is wrong (an HTML page, malformed
XML, a URL the sitemap may not list, a loop) is printed on standard error
as it is found, the first ten of each kind, and the counts at the end. With -json, standard output is
JSON Lines: one object per page ("entry"), finding, sitemap read, and a
"summary" at the end. On a terminal, a progress line on standard error
counts the sitemaps and pages read.

Examples:

	robotstxt sitemaps -agent Googlebot https://example.com/
	robotstxt sitemaps -json https://example.com/sitemap_index.xml | jq -c 'select(.type=="entry")'

sitemaps exits as check does: 0 when every page listed is allowed, 1 when
some page is disallowed, 2 on bad usage or when the walk cannot go on.

` + exitStatuses

// sitemapsRun is the state of one sitemaps command.
type sitemapsRun struct {
	c        *cli
	asJSON   bool
	enc      *json.Encoder
	progress bool
	last     time.Time // when the progress line was last drawn
	shown    bool      // a progress line is on the terminal

	sitemaps, entries, disallowed, findings int
	byCode                                  map[sitemap.Code]int

	standingIn bool            // answering for "*" under the name standIn
	named      map[string]bool // the robots.txt URLs found to name standIn
}

func (c *cli) sitemaps(args []string) int {
	fs := c.newFlags("sitemaps")
	agent := fs.String("agent", defaultAgent, "the crawler's product token `NAME`, whose rules decide; \"*\" fetches as robotstxt and answers for any crawler that no group names")
	userAgent := fs.String("user-agent", "", "send `HEADER` as the User-Agent header (default: the agent's token)")
	asJSON := fs.Bool("json", false, "print JSON Lines: entries, findings, sitemaps and a summary")
	delay := fs.Duration("delay", 0, "space requests to a site by `D` when its robots.txt has no Crawl-delay (default: one second)")
	maxSitemaps := fs.Int("max-sitemaps", sitemap.DefaultMaxSitemaps, "read at most `N` sitemaps, indexes included")
	timeout := fs.Duration("timeout", sitemap.DefaultTimeout, "bound the fetch and reading of each sitemap by `D`")
	progress := fs.Bool("progress", isTerminal(c.terminal), "draw a progress line on standard error (default: when it is a terminal)")
	pos, status, ok := c.parse(fs, sitemapsHelp, args)
	if !ok {
		return status
	}
	if len(pos) != 1 {
		return c.fail("robotstxt sitemaps: give exactly one URL, a site (https://example.com/) or a sitemap")
	}
	token, header, err := identity(*agent, *userAgent)
	if err != nil {
		return c.fail("robotstxt sitemaps: %v", err)
	}
	standingIn := token == "*"
	if standingIn {
		// Package fetch fetches as one crawler, named by its token.
		token = standIn
		if header == "" {
			header = standIn
		}
	}
	cache := fetch.NewCache(&fetch.Options{UserAgent: header, Agent: token})
	pacer := fetch.NewPacer(&fetch.PacerOptions{Cache: cache, Delay: *delay})
	transport := fetch.NewTransport(http.DefaultTransport, cache).WithPacer(pacer)

	s := &sitemapsRun{c: c, asJSON: *asJSON, progress: *progress, byCode: map[sitemap.Code]int{}, standingIn: standingIn}
	if s.asJSON {
		s.enc = json.NewEncoder(c.stdout)
		s.enc.SetEscapeHTML(false)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	o := &sitemap.WalkOptions{
		Cache: cache, Transport: transport, Decide: true,
		MaxSitemaps: *maxSitemaps, Timeout: *timeout,
		OnFinding: s.finding, OnSitemap: s.visit,
	}
	for e, err := range sitemap.Walk(ctx, pos[0], o) {
		if err != nil {
			s.clearProgress()
			return c.fail("robotstxt sitemaps: %v", err)
		}
		if err := s.entry(e); err != nil {
			return c.fail("robotstxt sitemaps: %v", err)
		}
	}
	s.clearProgress()
	s.summary()
	if s.disallowed > 0 {
		return exitNegative
	}
	return exitOK
}

// isTerminal reports whether f, standard input or standard error, is a
// terminal (a character device).
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	if !ok {
		return false
	}
	fi, err := file.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// entry prints a page and its decision.
func (s *sitemapsRun) entry(e sitemap.WalkEntry) error {
	s.entries++
	d := e.Decision
	if !d.Allowed {
		s.disallowed++
	}
	if s.standingIn && d.Robots.NamesAgent(standIn) && d.Result != nil && !s.named[d.Result.RobotsURL] {
		if s.named == nil {
			s.named = map[string]bool{}
		}
		s.named[d.Result.RobotsURL] = true
		s.clearProgress()
		fmt.Fprintf(s.c.stderr, "robotstxt sitemaps: %s names %s, the name fetched under for \"*\": its pages are answered by that group, not by the group for \"*\"\n",
			d.Result.RobotsURL, standIn)
	}
	s.drawProgress()
	if s.asJSON {
		return s.enc.Encode(sitemapEntryJSON{
			Type: "entry", URL: e.Loc, LastMod: e.LastMod, ChangeFreq: e.ChangeFreq, Priority: e.Priority,
			Sitemap: e.Sitemap, Line: e.Line, Decision: decisionOf(e.Loc, d),
		})
	}
	s.clearProgress()
	_, err := fmt.Fprintf(s.c.stdout, "%-10s  %s  %s\n", verdictWord(d.Allowed), e.Loc, explainDecision(d))
	return err
}

// explainDecision says what decided, as check does: the deciding line, or
// why no file's rules apply.
func explainDecision(d *fetch.Decision) string {
	switch d.Source {
	case fetch.Unreachable:
		return d.Result.RobotsURL + " unreachable: RFC 9309 has crawlers disallow everything until they can fetch it"
	case fetch.GaveUp:
		return d.Result.RobotsURL + " unreachable for too long: everything allowed"
	}
	if k := d.Robots.Kind(); k != robotstxt.Parsed {
		return d.Result.RobotsURL + ": " + k.String()
	}
	if d.Line == 0 {
		return "no rule matched"
	}
	key := "Disallow"
	if d.Allow {
		key = "Allow"
	}
	return fmt.Sprintf("line %d: %s: %s", d.Line, key, termesc.Quote(d.Rule))
}

// decisionOf is the decision as check -json prints it.
func decisionOf(url string, d *fetch.Decision) decisionJSON {
	j := newDecisionJSON(url, d.Decision)
	if k := d.Robots.Kind(); k != robotstxt.Parsed || d.Source == fetch.Unreachable || d.Source == fetch.GaveUp {
		j.Rules, j.Reason = k.String(), explainDecision(d)
	}
	return j
}

// finding prints a finding as it is found.
func (s *sitemapsRun) finding(f sitemap.Finding) {
	s.findings++
	s.byCode[f.Code]++
	if s.asJSON {
		s.enc.Encode(sitemapFindingJSON{Type: "finding", Sitemap: f.Sitemap, Line: f.Line, Code: string(f.Code),
			Message: f.Message, URL: f.URL, Stops: f.Code.Stops()})
		return
	}
	switch n := s.byCode[f.Code]; {
	case n <= maxPrinted:
		s.clearProgress()
		fmt.Fprintln(s.c.stderr, f)
	case n == maxPrinted+1:
		s.clearProgress()
		fmt.Fprintf(s.c.stderr, "robotstxt sitemaps: more %s findings are counted below, not printed (-json prints every one)\n", f.Code)
	}
}

// maxPrinted is how many findings of one code are printed as text: a
// sitemap can have 50,000 of one kind.
const maxPrinted = 10

// visit counts a sitemap read.
func (s *sitemapsRun) visit(v sitemap.Visit) {
	s.sitemaps++
	if s.asJSON {
		j := sitemapVisitJSON{Type: "sitemap", URL: v.URL, Parent: v.Parent, NamedBy: v.NamedBy, Status: v.Status,
			Format: v.Kind.String(), Entries: v.Entries, Findings: v.Findings}
		if v.Err != nil {
			j.Error = v.Err.Error()
		}
		s.enc.Encode(j)
	}
	s.drawProgress()
}

// drawProgress redraws the progress line, at most five times a second.
func (s *sitemapsRun) drawProgress() {
	if !s.progress || time.Since(s.last) < 200*time.Millisecond {
		return
	}
	s.last = time.Now()
	fmt.Fprintf(s.c.term(), "\r\033[K%d sitemaps, %d pages (%d disallowed), %d findings…", s.sitemaps, s.entries, s.disallowed, s.findings)
	s.shown = true
}

// clearProgress erases the progress line before other output.
func (s *sitemapsRun) clearProgress() {
	if s.shown {
		fmt.Fprint(s.c.term(), "\r\033[K")
		s.shown = false
		s.last = time.Time{}
	}
}

// summary prints the counts.
func (s *sitemapsRun) summary() {
	codes := make([]string, 0, len(s.byCode))
	for c := range s.byCode {
		codes = append(codes, string(c))
	}
	slices.Sort(codes)
	if s.asJSON {
		by := make(map[string]int, len(codes))
		for _, c := range codes {
			by[c] = s.byCode[sitemap.Code(c)]
		}
		s.enc.Encode(sitemapSummaryJSON{Type: "summary", Sitemaps: s.sitemaps, Entries: s.entries,
			Allowed: s.entries - s.disallowed, Disallowed: s.disallowed, Findings: s.findings, ByCode: by})
		return
	}
	var parts []string
	for _, c := range codes {
		parts = append(parts, fmt.Sprintf("%d %s", s.byCode[sitemap.Code(c)], c))
	}
	line := fmt.Sprintf("%s, %s: %d allowed, %d disallowed; %s", plural(s.sitemaps, "sitemap"), plural(s.entries, "page"),
		s.entries-s.disallowed, s.disallowed, plural(s.findings, "finding"))
	if len(parts) > 0 {
		line += " (" + strings.Join(parts, ", ") + ")"
	}
	fmt.Fprintln(s.c.stderr, line)
}

// The objects of sitemaps -json, one per line.
type (
	sitemapEntryJSON struct {
		Type       string       `json:"type"` // "entry"
		URL        string       `json:"url"`
		LastMod    string       `json:"lastmod,omitempty"`
		ChangeFreq string       `json:"changefreq,omitempty"`
		Priority   string       `json:"priority,omitempty"`
		Sitemap    string       `json:"sitemap"`
		Line       int          `json:"line"`
		Decision   decisionJSON `json:"decision"`
	}
	sitemapFindingJSON struct {
		Type    string `json:"type"` // "finding"
		Sitemap string `json:"sitemap,omitempty"`
		Line    int    `json:"line,omitempty"`
		Code    string `json:"code"`
		Message string `json:"message"`
		URL     string `json:"url,omitempty"`
		Stops   bool   `json:"stops"` // the file was not read past it
	}
	sitemapVisitJSON struct {
		Type     string `json:"type"` // "sitemap"
		URL      string `json:"url"`
		Parent   string `json:"parent,omitempty"`
		NamedBy  string `json:"named_by,omitempty"`
		Status   int    `json:"status"`
		Format   string `json:"format"`
		Entries  int    `json:"entries"`
		Findings int    `json:"findings"`
		Error    string `json:"error,omitempty"`
	}
	sitemapSummaryJSON struct {
		Type       string         `json:"type"` // "summary"
		Sitemaps   int            `json:"sitemaps"`
		Entries    int            `json:"entries"`
		Allowed    int            `json:"allowed"`
		Disallowed int            `json:"disallowed"`
		Findings   int            `json:"findings"`
		ByCode     map[string]int `json:"by_code"`
	}
)
