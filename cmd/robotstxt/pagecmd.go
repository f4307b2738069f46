package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/fetch"
	"github.com/robotstxt-go/robotstxt/pagerules"
)

const pageHelp = `usage: robotstxt page [-agent A] [-user-agent H] URL

Page fetches URL as the crawler A does (its robots.txt first, then the page,
sending H or A as the User-Agent header) and says what the crawler may do
with the page, and where each answer comes from. The default agent "*"
stands for any crawler that no rule names: the group for "*", and the
X-Robots-Tag rules and robots meta tags addressed to every crawler; page
then fetches as robotstxt, and warns where the site names robotstxt.

  robots.txt   may the page be fetched at all, and the deciding line
  header       the X-Robots-Tag and Robots-Tag rules for A or for every
               crawler, and the Content-Usage header
  meta         the robots meta tags of the HTML head for A ("robots" or A's
               name), read up to the end of the head and at most 512 KiB
  answer       may index, may follow, snippet and preview limits,
               unavailable after; the rules add up, the stricter one wins
  usage        the usage preferences of robots.txt and Content-Usage,
               category by category (a "no" from either wins)
  warning      what to fix, such as a noindex on a page robots.txt
               disallows, which no crawler can see

The page is fetched even when robots.txt disallows it, to show what a
crawler would miss; a crawler does not fetch it.

Exit status: 0 when the page may be fetched and indexed, 1 when robots.txt
disallows it or its rules forbid indexing it, 2 for bad usage or a page that
cannot be fetched.

Examples:

	robotstxt page -agent Googlebot https://example.com/article
	robotstxt page -user-agent "Foobot/1.0 (+https://foo.example/bot)" https://example.com/
`

func (c *cli) page(args []string) int {
	fs := c.newFlags("page")
	agent := fs.String("agent", defaultAgent, "the crawler's product token `NAME`, such as Googlebot")
	userAgent := fs.String("user-agent", "", "send `HEADER` as the User-Agent header (default: the agent's token)")
	pos, status, ok := c.parse(fs, pageHelp, args)
	if !ok {
		return status
	}
	if len(pos) != 1 {
		return c.fail("robotstxt page: give exactly one URL, such as https://example.com/page")
	}
	token, header, err := identity(*agent, *userAgent)
	if err != nil {
		return c.fail("robotstxt page: %v", err)
	}
	asked := token
	if token == "*" {
		token = standIn
		if header == "" {
			header = standIn
		}
	}
	p, status, err := c.fetchPage(pos[0], token, header)
	if err != nil {
		return c.fail("robotstxt page: %v", err)
	}
	if asked == "*" {
		p.Agent = asked
		p.Warnings = append(p.Warnings, standInNamed(p)...)
	}
	now := time.Now() // one instant for the answer printed and the exit status
	if _, err := io.WriteString(c.stdout, pageText(p, status, header, now)); err != nil {
		return c.fail("robotstxt page: %v", err)
	}
	if !p.MayIndex(now) {
		return exitNegative
	}
	return exitOK
}

// standInNamed says where the site names standIn, under which page
// fetched a page for "*": there its answers are those for standIn, not
// for every crawler.
func standInNamed(p *pagerules.Page) []string {
	var w []string
	if p.RobotsTxt.Robots.NamesAgent(standIn) {
		w = append(w, fmt.Sprintf("robots.txt names %s, the name page fetches under for \"*\": the robots.txt answer is its group's, not the group for \"*\"", standIn))
	}
	for _, r := range []*pagerules.Rules{&p.Header, &p.Meta} {
		for x := pagerules.Rule(0); x < pagerules.NumRules; x++ {
			if r.Has(x) && r.Origin(x).Agent != "" {
				w = append(w, fmt.Sprintf("%s is addressed to %s, the name page fetches under for \"*\": it binds no other crawler", r.Origin(x), r.Origin(x).Agent))
			}
		}
	}
	return w
}

// fetchPage fetches the robots.txt of url's site and then url, as the
// crawler token does, sending header, and answers with pagerules.ReadPage.
func (c *cli) fetchPage(url, token, header string) (*pagerules.Page, int, error) {
	client := &http.Client{Timeout: netTimeout}
	cache := fetch.NewCache(&fetch.Options{Client: client, UserAgent: header, Agent: token})
	ctx := context.Background()
	// robots.txt first, as a crawler asks before it fetches.
	if _, err := cache.Decide(ctx, url); err != nil {
		return nil, 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("User-Agent", header)
	resp, err := client.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	p, err := pagerules.ReadPage(ctx, cache, resp)
	if err != nil {
		return nil, 0, err
	}
	return p, resp.StatusCode, nil
}

// pageText is what page prints.
func pageText(p *pagerules.Page, status int, header string, now time.Time) string {
	var b strings.Builder
	row := func(k, v string) { fmt.Fprintf(&b, "%-11s %s\n", k, v) }
	row("url", p.URL)
	row("agent", p.Agent)
	row("user-agent", header)
	row("status", strconv.Itoa(status))
	row("robots.txt", robotsAnswer(p.RobotsTxt))
	for _, line := range ruleLines(&p.Header) {
		row("header", line)
	}
	if p.Usage.Header != "" {
		row("header", "Content-Usage: "+p.Usage.Header)
	}
	switch {
	case !p.HTML:
		row("meta", "not read: the page is not HTML")
	default:
		for _, line := range ruleLines(&p.Meta) {
			row("meta", line)
		}
		end := "the head ended"
		if !p.MetaScan.Ended {
			end = "the head did not end"
		}
		row("meta", fmt.Sprintf("%s; %s read, %s seen", end, plural(int(p.MetaScan.Read), "byte"), plural(p.MetaScan.Tags, "meta tag")))
	}
	for _, line := range answerLines(p, now) {
		row("answer", line)
	}
	for c := robotstxt.Category(0); c < robotstxt.NumCategories; c++ {
		pr := p.Usage.Prefs[c]
		v := c.String() + ": " + pr.Pref.String()
		if src := pr.Source(); src != "" {
			v += "  (" + src + ")"
		}
		row("usage", v)
	}
	for _, w := range p.Warnings {
		row("warning", w)
	}
	return b.String()
}

// robotsAnswer says robots.txt's answer for the page, explained as
// sitemaps explains each page's.
func robotsAnswer(d fetch.Decision) string {
	return verdictWord(d.Allowed) + "  " + explainDecision(&d)
}

// ruleLines lists the rules of r, each with where it was written.
func ruleLines(r *pagerules.Rules) []string {
	var out []string
	for x := pagerules.Rule(0); x < pagerules.NumRules; x++ {
		if r.Has(x) {
			o := r.Origin(x)
			out = append(out, fmt.Sprintf("%s  (%s)", o.Text, o))
		}
	}
	for _, u := range r.Unknown {
		out = append(out, fmt.Sprintf("%s  (%s, not understood)", u.Origin.Text, u.Origin))
	}
	return out
}

// answerLines says what the rules add up to, with the rule that decided.
func answerLines(p *pagerules.Page, now time.Time) []string {
	from := func(x pagerules.Rule) string {
		if !p.Tags.Has(x) {
			return ""
		}
		o := p.Tags.Origin(x)
		return fmt.Sprintf("  (%s in %s)", o.Text, o)
	}
	yes := func(ok bool) string {
		if ok {
			return "yes"
		}
		return "no"
	}
	index := "index: " + yes(p.MayIndex(now))
	switch {
	case !p.RobotsTxt.Allowed:
		index += "  (robots.txt disallows fetching it)"
	case p.Tags.Has(pagerules.NoIndex):
		index += from(pagerules.NoIndex)
	case !p.MayIndex(now):
		index += from(pagerules.UnavailableAfter)
	}
	follow := "follow: " + yes(p.MayFollow())
	if p.RobotsTxt.Allowed {
		follow += from(pagerules.NoFollow)
	}
	out := []string{index, follow}
	switch n := p.Tags.SnippetLimit(); {
	case n == 0 && p.Tags.Has(pagerules.NoSnippet):
		out = append(out, "snippet: none"+from(pagerules.NoSnippet))
	case n < 0:
		out = append(out, "snippet: no limit")
	default:
		out = append(out, fmt.Sprintf("snippet: at most %s%s", plural(n, "character"), from(pagerules.MaxSnippet)))
	}
	if pv, ok := p.Tags.ImagePreview(); ok {
		out = append(out, "image preview: "+pv.String()+from(pagerules.MaxImagePreview))
	}
	switch n := p.Tags.VideoPreviewLimit(); {
	case n < 0:
	case n == 0:
		out = append(out, "video preview: a static image at most")
	default:
		out = append(out, fmt.Sprintf("video preview: at most %s%s", plural(n, "second"), from(pagerules.MaxVideoPreview)))
	}
	if t, ok := p.Tags.UnavailableAfter(); ok {
		out = append(out, "unavailable after: "+t.UTC().Format(time.RFC3339)+from(pagerules.UnavailableAfter))
	}
	for _, x := range []pagerules.Rule{pagerules.IndexIfEmbedded, pagerules.NoTranslate, pagerules.NoImageIndex, pagerules.NoArchive} {
		if p.Tags.Has(x) {
			out = append(out, x.String()+from(x))
		}
	}
	return out
}
