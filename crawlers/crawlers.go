// Package crawlers is a table of well-known web crawlers: the product token
// each obeys robots.txt as, the User-Agent header its operator publishes,
// what it crawls for, and the documentation that says so.
//
// The table is data beside package robotstxt, not part of it: the core
// answers exactly as Google's parser for any agent it is given, and knows no
// crawler by name. Tools that audit files for many crawlers at once, or that
// model a crawler's documented behaviour (such as AdsBot-Google ignoring the
// `*` group), read it from here so that they agree.
package crawlers

import "github.com/robotstxt-go/robotstxt/internal/grammar"

// Purpose says what a crawler fetches pages for, as its operator documents it.
type Purpose string

// The purposes of the crawlers in the table.
const (
	// Search crawlers index pages for a search engine.
	Search Purpose = "search"
	// AITraining crawlers collect pages to train AI models.
	AITraining Purpose = "ai-training"
	// AISearch crawlers index pages for an AI product's search and answers.
	AISearch Purpose = "ai-search"
	// AIUser agents fetch a page when a user of an AI product asks for it.
	AIUser Purpose = "ai-user"
	// AIControl tokens fetch nothing: robots.txt groups naming them tell
	// their operator whether pages fetched by its other crawlers may be used
	// for AI (Google-Extended, Applebot-Extended).
	AIControl Purpose = "ai-control"
	// Ads crawlers check the quality of pages that advertisements link to.
	Ads Purpose = "ads"
	// Archive crawlers build public web archives and datasets.
	Archive Purpose = "archive"
	// Commerce crawlers check shopping pages.
	Commerce Purpose = "commerce"
)

// Crawler is one crawler of the table.
type Crawler struct {
	// Token is the product token the crawler looks for in User-agent
	// lines; it is a valid agent for robotstxt.Allowed.
	Token string
	// Operator is the company or project that runs the crawler.
	Operator string
	// Purpose says what the crawler fetches pages for.
	Purpose Purpose
	// UserAgent is a User-Agent header the operator publishes for the
	// crawler, as it appears in the documentation (version numbers in it
	// change over time). It is "" for a token that is never sent, such as
	// Google-Extended.
	UserAgent string
	// IgnoresGlobal reports that the crawler does not obey the `*` group:
	// only groups that name it apply, and with none it may fetch every URL
	// (Google documents this for AdsBot-Google and AdsBot-Google-Mobile).
	IgnoresGlobal bool
	// Source is the address of the operator's documentation of the
	// crawler, where the token, header and behaviour above are stated.
	Source string
	// Uses lists the uses of pages that the operator documents for the
	// token (see uses.go): those its group governs.
	Uses []Use
	// FetchedBy lists, for a control token that fetches nothing, the
	// crawlers whose fetches its group governs (Google-Extended:
	// Googlebot).
	FetchedBy []string
	// RobotsMayNotApply reports that the operator says the crawler may
	// not follow robots.txt, as for fetches a user asks for.
	RobotsMayNotApply bool
	// Obeys lists the tokens whose groups the crawler obeys, in order: the
	// first that a group of a file names decides (see [Group]). The first
	// is always Token; a crawler that obeys no other token lists only it.
	Obeys []Obeyed
	// Verify is what the operator documents for telling the crawler's
	// requests from others that carry its name. Its zero value documents
	// nothing.
	Verify Verification
}

// Verification lists the ways an operator documents for a site to check
// that a request naming its crawler comes from it, and the page that says
// so. Package verify reads it.
type Verification struct {
	// Ranges are the addresses of the operator's published files of IP
	// prefixes the crawler sends requests from (JSON, with "creationTime"
	// and "prefixes": [{"ipv4Prefix" | "ipv6Prefix"}]).
	Ranges []string
	// ReverseDNS are the domains the host names of the crawler's addresses
	// end in: a reverse lookup of the address gives a name under one of
	// them, and a lookup of that name gives the address back.
	ReverseDNS []string
	// SignatureAgent is the origin the crawler names in the
	// Signature-Agent header of requests it signs with HTTP Message
	// Signatures (RFC 9421), whose key directory is at
	// /.well-known/http-message-signatures-directory.
	SignatureAgent string
	// Source is the address of the operator's page that documents the
	// above.
	Source string
}

// Documented reports whether v documents any way to verify the crawler.
func (v Verification) Documented() bool {
	return len(v.Ranges) > 0 || len(v.ReverseDNS) > 0 || v.SignatureAgent != ""
}

// Obeyed is a token a crawler obeys and the documentation that says so.
type Obeyed struct {
	Token  string
	Source string
}

// All returns the table, ordered by operator and then by token. The slice
// is a copy: changing it changes nothing here.
func All() []Crawler {
	out := append([]Crawler(nil), table...)
	for i := range out {
		out[i] = copyCrawler(out[i])
	}
	return out
}

// Lookup returns the crawler whose token equals token, compared without
// regard to ASCII case as robots.txt compares agents.
func Lookup(token string) (Crawler, bool) {
	i := find(token)
	if i < 0 {
		return Crawler{}, false
	}
	return copyCrawler(table[i]), true
}

// copyCrawler returns c with its own copies of the table's slices.
func copyCrawler(c Crawler) Crawler {
	c.Obeys = append([]Obeyed(nil), c.Obeys...)
	c.Verify.Ranges = append([]string(nil), c.Verify.Ranges...)
	c.Verify.ReverseDNS = append([]string(nil), c.Verify.ReverseDNS...)
	return c
}

// find returns the index in the table of the crawler whose token equals
// token (as Lookup compares), or -1.
func find(token string) int {
	for i := range table {
		if table[i].Token == token {
			return i // the table's own spelling, as its tools pass it
		}
	}
	for i := range table {
		if grammar.EqualFold(table[i].Token, token) {
			return i
		}
	}
	return -1
}
