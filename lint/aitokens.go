package lint

import (
	"errors"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// This file holds the checks of [Diagnose] that read the crawler table's
// uses (package crawlers): lines that mean nothing for a control token,
// and a file that keeps an operator's search crawler out while letting its
// training crawler in.

// Causes of the findings on AI tokens.
var (
	ErrControlTokenLine = errors.New("line that means nothing for a control token")      // it fetches nothing
	ErrSearchNotTrain   = errors.New("search crawler blocked, training crawler allowed") // likely the reverse of what was meant
)

// aiTokens runs the checks of this file once the whole file is read.
func (d *diagnoser) aiTokens(r *robotstxt.Robots) {
	for _, g := range d.groups {
		if g.delayLine == 0 || len(g.agents) == 0 {
			continue // Summarize keeps no agents
		}
		if fetchers, ok := controlOnly(g.agents); ok {
			d.add(g.delayLine, SeverityWarning, ErrControlTokenLine,
				"crawl-delay for %s paces nothing: the token fetches nothing, %s fetches for it under its own group; put the delay in that group",
				lazy(func() string { return quoteList(g.agents) }), fetchers)
		}
	}
	if d.quiet() {
		return
	}
	d.searchNotTrain(r)
}

// controlOnly reports whether every agent of a group is a control token of
// the table, and names the crawlers that fetch for the first.
func controlOnly(agents []string) (fetchers string, ok bool) {
	for _, a := range agents {
		c, found := crawlers.Lookup(string(grammar.AgentToken([]byte(a))))
		if !found || len(c.FetchedBy) == 0 {
			return "", false
		}
		if fetchers == "" {
			fetchers = c.FetchedBy[0]
		}
	}
	return fetchers, true
}

// searchNotTrain reports a file whose group naming an operator's search
// crawler disallows the whole site while the operator's training crawler
// may fetch it: the site stays out of the operator's search and is still
// used to train its models, most often the reverse of what was meant
// (OpenAI documents the two settings as independent). Control tokens are
// left out: with their fetcher blocked, they govern nothing.
func (d *diagnoser) searchNotTrain(r *robotstxt.Robots) {
	for _, op := range crawlers.UseOperators() {
		search, ok1 := crawlers.GovernsFor(op, crawlers.UseSearch)
		train, ok2 := crawlers.GovernsFor(op, crawlers.UseTraining)
		if !ok1 || !ok2 || len(train.FetchedBy) > 0 || search.Token == train.Token {
			continue
		}
		_, sg, named := crawlers.Deciding(r, search.Token)
		sd := sg.Decide("/")
		if !named || sd.Allowed || sd.Line == 0 {
			continue
		}
		if _, tg, _ := crawlers.Deciding(r, train.Token); !tg.Allowed("/") {
			continue
		}
		d.add(sd.Line, SeverityWarning, ErrSearchNotTrain,
			"%s (%s's search) may fetch nothing, but %s (%s's training) may fetch the site: the site is kept out of %s's search and still used to train its models; if the reverse was meant, disallow %s too (%s)",
			search.Token, op, train.Token, op, op, train.Token, train.Source)
	}
}
