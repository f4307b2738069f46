package aiuse

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
	"github.com/robotstxt-go/robotstxt/pagerules"
)

// Page is what one page's response says about its use, read once by
// [ReadPage] for every question about it.
type Page struct {
	// ContentUsage is the Content-Usage header as received, its lines
	// joined with ", ", or "" when there was none; UsageOK reports whether
	// it parsed (one that does not states nothing).
	ContentUsage string
	UsageOK      bool
	usage        [robotstxt.NumCategories]robotstxt.Pref
	// ContentSignal is the Content-Signal header as received, its lines
	// joined with ", ", or "".
	ContentSignal string
	sigs          [robotstxt.NumSignals]robotstxt.Pref
	use           robotstxt.Use
	// noindex holds, by the token of a crawler that fetches for a search
	// use, where the page told it not to index the page ("meta tag 1").
	noindex map[string]string
}

// ReadPage reads the signals of a page's response: its header h and, when
// the response is HTML, its body html (nil otherwise: the caller knows the
// Content-Type and read the body; the robots meta tags are read from the
// head within pagerules.DefaultHeadLimit bytes). The Content-Usage and
// Content-Signal headers are read as their robots.txt lines are
// (robotstxt.ParseContentUsage, robotstxt.ParseContentSignal); the
// X-Robots-Tag header and the robots meta tags are read for each crawler
// of the table that fetches for a search use, as package pagerules reads
// them, and a noindex there says no to that operator's search use (a
// noindex can be read only on a page that was fetched).
func ReadPage(h http.Header, html []byte) *Page {
	p := &Page{noindex: map[string]string{}}
	if v := h.Values("Content-Usage"); len(v) > 0 {
		p.ContentUsage = strings.Join(v, ", ")
		p.usage, p.UsageOK = robotstxt.ParseContentUsage(p.ContentUsage)
	}
	if v := h.Values("Content-Signal"); len(v) > 0 {
		p.ContentSignal = strings.Join(v, ", ")
		p.sigs, p.use = robotstxt.ParseContentSignal(p.ContentSignal)
	}
	for _, g := range crawlers.AllGoverns() {
		if g.Use != crawlers.UseSearch {
			continue
		}
		for _, f := range g.Fetchers() {
			var r pagerules.Rules
			r.AddHeader(h, f)
			if html != nil {
				r.AddMeta(bytes.NewReader(html), f, 0)
			}
			if r.Has(pagerules.NoIndex) {
				o := r.Origin(pagerules.NoIndex)
				o.Agent = "" // the answer names the crawler it was read for
				p.noindex[f] = o.String()
			}
		}
	}
	return p
}

// signals adds what the page says of use u, by crawlers fetchers, for
// category cat and signal sig.
func (p *Page) signals(a *Answer, u crawlers.Use, fetchers []string, cat robotstxt.Category, sig robotstxt.Signal) {
	if p.ContentUsage != "" && p.UsageOK {
		if pr := p.usage[cat]; pr != robotstxt.PrefUnknown {
			a.add(Signal{Kind: ContentUsageHeader, Says: prefSays(pr), Label: cat.String()})
		}
	}
	if p.ContentSignal != "" {
		if pr := p.sigs[sig]; pr != robotstxt.PrefUnknown {
			a.add(Signal{Kind: ContentSignalHeader, Says: prefSays(pr), Label: sig.String()})
		}
		if p.use != robotstxt.UseUnstated {
			a.add(Signal{Kind: ContentSignalHeader, Label: "use", Use: p.use})
		}
	}
	if u != crawlers.UseSearch {
		return
	}
	for _, f := range fetchers {
		if o, ok := p.noindex[f]; ok {
			a.add(Signal{Kind: PageRobotsRules, Token: f, Says: NotAllowed, Label: o})
		}
	}
}
