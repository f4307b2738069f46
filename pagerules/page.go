package pagerules

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/robotstxt-go/robotstxt/fetch"
)

// This file answers what a crawler may do with a page it fetched, from the
// three places that say it: robots.txt (may it fetch the URL, and its
// usage preferences), the response header (X-Robots-Tag, Robots-Tag,
// Content-Usage) and the robots meta tags of the HTML head.
//
// With net/http, call [ReadPage] on the response and read resp.Body
// as before. With colly, which reads the body itself, ask twice: the
// header alone when it arrives, to drop a body that will not be used, and
// the whole answer once the body is there (colly calls OnResponse before
// OnHTML, so the answer can gate link following):
//
//	c.OnResponseHeaders(func(r *colly.Response) {
//		var rules pagerules.Rules
//		rules.AddHeader(*r.Headers, cache.Agent())
//		if !rules.MayIndex(time.Now()) && !pagerules.ReadContentType(*r.Headers).HTML {
//			r.Request.Abort() // a PDF or image with noindex: skip the download
//		}
//	})
//	c.OnResponse(func(r *colly.Response) {
//		page, err := pagerules.PageOf(context.Background(), cache, r.Request.URL.String(), *r.Headers, r.Body)
//		if err != nil {
//			return
//		}
//		r.Ctx.Put("follow", page.MayFollow())
//		if page.IndexContent(time.Now()).May {
//			index(r.Request.URL, r.Body, page.Tags.SnippetLimit())
//		}
//	})
//	c.OnHTML("a[href]", func(e *colly.HTMLElement) {
//		if e.Request.Ctx.GetAny("follow") == true {
//			c.Visit(e.Request.AbsoluteURL(e.Attr("href"))) // not e.Request.Visit, whose requests share this Ctx
//		}
//	})
//
// The journey test TestCollyPageRules (journeys/pagerules_test.go) runs this
// recipe against a local site.

// Page is what a crawler may do with one fetched page, and where each
// answer came from.
type Page struct {
	// URL is the page's URL.
	URL string
	// Agent is the product token the answers are for: the cache's
	// ([fetch.Cache.Agent]).
	Agent string
	// RobotsTxt is robots.txt's answer for URL: may it be fetched, the
	// deciding line, and its usage preferences.
	RobotsTxt fetch.Decision
	// Header holds the rules of the X-Robots-Tag and Robots-Tag headers;
	// Meta those of the robots meta tags, read as MetaScan says. Tags is
	// both added up: the rules of the page's robots tags in effect.
	Header, Meta, Tags Rules
	// HTML reports whether the page is HTML, and so was read for meta
	// tags: its Content-Type read as [ReadContentType] reads it,
	// as a browser does. A malformed Content-Type is read all the same,
	// and named in Warnings.
	HTML     bool
	MetaScan MetaScan
	// Usage is the usage preferences of robots.txt and of the
	// Content-Usage header, combined category by category.
	Usage Usage
	// Warnings are what a crawler or a webmaster should know, in plain
	// words, such as "disallowed by robots.txt, so its noindex cannot be
	// seen".
	Warnings []string

	malformedType string // ContentType.Malformed of the response
}

// Answer is one answer about a page in search results, and the signal
// that decided it.
type Answer struct {
	// May is the answer.
	May bool
	// RobotsTxt reports whether robots.txt decided, by disallowing the
	// URL; Line is then the deciding line of Page.RobotsTxt, 0 when none
	// decided (an unreachable robots.txt disallows everything, RFC 9309
	// §2.3.1.4).
	RobotsTxt bool
	Line      int
	// Tag is the rule of the page's robots tags that decided, NoIndex or
	// UnavailableAfter, and Origin where it was written: an X-Robots-Tag or
	// Robots-Tag line, or a meta tag. Origin is the zero Origin when no
	// such rule decided.
	Tag    Rule
	Origin Origin

	robots string // the robots.txt signal, as Source names it
}

// Source names the signal that decided: "robots.txt line 2 (Disallow:
// "/private/")", "X-Robots-Tag line 1: noindex", "meta tag 2 (foobot):
// unavailable_after: 2020-01-01"; "" when no signal decided and the answer
// is the default, yes. The site's text is quoted when it holds a byte that
// is not printable.
func (a Answer) Source() string {
	switch {
	case a.RobotsTxt:
		return a.robots
	case a.Origin.Source != 0:
		text := a.Origin.Text
		if strings.ContainsFunc(text, func(r rune) bool { return !unicode.IsPrint(r) }) {
			text = strconv.Quote(text)
		}
		return a.Origin.String() + ": " + text
	}
	return ""
}

// IndexContent answers whether the page's content may be indexed at time
// now: no when robots.txt disallows the URL (a crawler does not fetch the
// content), no when the page's rules say noindex or an unavailable_after
// date has passed, yes otherwise. The answer says which signal decided.
func (p *Page) IndexContent(now time.Time) Answer {
	if !p.RobotsTxt.Allowed {
		return p.robotsAnswer(false)
	}
	return p.rulesAnswer(now)
}

// ShowURL answers whether the page's URL may appear in search results at
// time now, as Google reads the signals: a URL that robots.txt disallows
// may still be shown, without its content, from the links to it (its
// noindex is never seen: developers.google.com/search/docs/crawling-indexing/block-indexing),
// so the answer is yes, decided by robots.txt; for a page the crawler may
// fetch, a noindex or a passed unavailable_after removes it.
func (p *Page) ShowURL(now time.Time) Answer {
	if !p.RobotsTxt.Allowed {
		return p.robotsAnswer(true)
	}
	return p.rulesAnswer(now)
}

// robotsAnswer is the answer may when robots.txt disallows the page.
func (p *Page) robotsAnswer(may bool) Answer {
	return Answer{May: may, RobotsTxt: true, Line: p.RobotsTxt.Line, robots: robotsSignal(&p.RobotsTxt)}
}

// rulesAnswer is the answer of the page's rules, for a page robots.txt
// allows: both questions have one answer then.
func (p *Page) rulesAnswer(now time.Time) Answer {
	if p.Tags.MayIndex(now) {
		return Answer{May: true}
	}
	x := NoIndex
	if !p.Tags.Has(x) {
		x = UnavailableAfter
	}
	return Answer{Tag: x, Origin: p.Tags.Origin(x)}
}

// robotsSignal names robots.txt's disallow of d: its line and rule, or why
// there is none.
func robotsSignal(d *fetch.Decision) string {
	switch {
	case d.Line > 0:
		return fmt.Sprintf("robots.txt line %d (Disallow: %q)", d.Line, d.Rule)
	case d.Source == fetch.Unreachable:
		return "robots.txt (unreachable: everything is disallowed)"
	}
	return "robots.txt"
}

// MayIndex reports IndexContent(now).May: whether the page's content may
// be indexed.
//
// Deprecated: MayIndex answers false for a URL that robots.txt disallows,
// which Google may still show in results. Use [Page.IndexContent] for the
// content and [Page.ShowURL] for the URL; each says which signal decided.
func (p *Page) MayIndex(now time.Time) bool {
	return p.IndexContent(now).May
}

// MayFollow reports whether the page's links may be followed: robots.txt
// allows fetching it and no nofollow applies.
func (p *Page) MayFollow() bool { return p.RobotsTxt.Allowed && p.Tags.MayFollow() }

// ReadPage answers for a response the crawler got, without taking its body
// from it: it reads at most DefaultHeadLimit bytes of an HTML
// body, up to the end of the head, and replaces resp.Body with a reader
// that gives those bytes again and then the rest, closing the original
// body when closed. The crawler reads resp.Body as if nothing had been
// read. The URL is resp.Request.URL's (after redirects). A non-HTML
// response is not read at all.
//
// The answers are for the crawler of cache ([fetch.Cache.Agent]). The
// error is [fetch.Cache.Decide]'s for the URL (an *AgentError, a
// *RetryError when its robots.txt is unreachable, a *robotstxt.URLError,
// or ctx's), or the body's read error.
func ReadPage(ctx context.Context, cache *fetch.Cache, resp *http.Response) (*Page, error) {
	if resp == nil || resp.Request == nil || resp.Request.URL == nil {
		return nil, fmt.Errorf("pagerules: ReadPage: response without a request URL")
	}
	p, err := page(ctx, cache, resp.Request.URL.String(), resp.Header)
	if err != nil {
		return nil, err
	}
	if p.HTML && resp.Body != nil {
		var prefix bytes.Buffer
		scanErr := p.readMeta(io.TeeReader(resp.Body, &prefix))
		resp.Body = &replayBody{Reader: io.MultiReader(&prefix, resp.Body), Closer: resp.Body}
		if scanErr != nil {
			return p, scanErr
		}
	}
	p.finish(time.Now())
	return p, nil
}

// PageOf answers for a page whose header and body the crawler already
// holds, as crawler frameworks hand them over (colly's OnResponse gives
// *r.Headers and r.Body): rawURL is the page's URL, body what has been
// read of it. It reads at most DefaultHeadLimit bytes of body. The answers
// and errors are those of [ReadPage].
func PageOf(ctx context.Context, cache *fetch.Cache, rawURL string, h http.Header, body []byte) (*Page, error) {
	p, err := page(ctx, cache, rawURL, h)
	if err != nil {
		return nil, err
	}
	if p.HTML {
		if err := p.readMeta(bytes.NewReader(body)); err != nil {
			return p, err
		}
	}
	p.finish(time.Now())
	return p, nil
}

// page gathers what the header and robots.txt say.
func page(ctx context.Context, cache *fetch.Cache, rawURL string, h http.Header) (*Page, error) {
	d, err := cache.Decide(ctx, rawURL)
	if err != nil {
		return nil, err
	}
	ct := ReadContentType(h)
	p := &Page{URL: rawURL, Agent: cache.Agent(), RobotsTxt: d, HTML: ct.HTML, malformedType: ct.Malformed}
	p.Header.AddHeader(h, p.Agent)
	p.Usage = JoinUsage(d.Usage(), h)
	return p, nil
}

// readMeta reads the meta tags of the page from body.
func (p *Page) readMeta(body io.Reader) error {
	scan, err := p.Meta.AddMeta(body, p.Agent, DefaultHeadLimit)
	p.MetaScan = scan
	return err
}

// finish adds the rules up and writes the warnings.
func (p *Page) finish(now time.Time) {
	p.Tags = Rules{}
	p.Tags.Merge(&p.Header)
	p.Tags.Merge(&p.Meta)
	p.Warnings = pageWarnings(p, now)
}

// pageWarnings writes what a crawler or a webmaster should know about p.
func pageWarnings(p *Page, now time.Time) []string {
	var w []string
	if !p.RobotsTxt.Allowed {
		where := robotsSignal(&p.RobotsTxt)
		w = append(w, fmt.Sprintf("disallowed by %s: a crawler does not fetch this page, so the page's own rules below are never read", where))
		if p.Tags.Has(NoIndex) {
			w = append(w, fmt.Sprintf("disallowed by robots.txt, so its noindex cannot be seen (%s): the URL may still be indexed from links to it; allow it in robots.txt for the noindex to work",
				p.Tags.Origin(NoIndex)))
		}
	}
	if p.malformedType != "" {
		w = append(w, p.malformedType)
	}
	if p.HTML && !p.MetaScan.Ended && p.MetaScan.Read > 0 {
		w = append(w, fmt.Sprintf("the HTML head did not end within the first %d bytes: meta tags after them are not read", p.MetaScan.Read))
	}
	for _, u := range p.Tags.Unknown {
		w = append(w, fmt.Sprintf("rule %q in %s is not understood: ignored", u.Origin.Text, u.Origin))
	}
	if p.Tags.Has(IndexIfEmbedded) && !p.Tags.Has(NoIndex) {
		w = append(w, "indexifembedded has no effect without noindex")
	}
	if t, ok := p.Tags.UnavailableAfter(); ok && now.After(t) {
		w = append(w, fmt.Sprintf("unavailable_after %s has passed (%s): the page is not to be shown in results",
			t.UTC().Format(time.RFC3339), p.Tags.Origin(UnavailableAfter)))
	}
	if p.Usage.Header != "" && !p.Usage.HeaderOK {
		w = append(w, fmt.Sprintf("Content-Usage header %q does not parse (draft-ietf-aipref-vocab-08 §6.5): it states nothing", p.Usage.Header))
	}
	return w
}

// replayBody gives back the bytes read ahead of the crawler, then the rest
// of the original body, which Close closes.
type replayBody struct {
	io.Reader
	io.Closer
}
