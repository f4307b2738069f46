package robotstxt

import (
	"strings"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// This file finds the product token in a User-Agent header: the name a
// crawler looks for in User-agent lines. The header is what a crawler sends
// with its requests (RFC 9110 §10.1.5); the product token is what Allowed
// takes (RFC 9309 §2.2.1). They differ for nearly every real crawler:
//
//	Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)  →  Googlebot
//	facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)  →  facebookexternalhit

// ProductToken returns the robots.txt product token named by a User-Agent
// header, or "" when the header names none. A User-Agent header is a list of
// products ("Name/Version") and parenthesised comments whose items are
// separated by ';' or ','. The token is found by the first rule that gives
// one:
//
//  1. A header that is a product token already is returned as it is:
//     "Foobot" → "Foobot".
//  2. When the header's first product is not "Mozilla" or "Opera", the
//     names browsers start with, that product names the crawler:
//     "Foobot/1.0 (+https://foo.example/bot)" → "Foobot",
//     "Googlebot-Image/1.0" → "Googlebot-Image".
//  3. Otherwise the header copies a browser's and names the crawler in
//     the rest of it, read item by item: a comment's items are separated
//     by ';' or ',', and so is the text between comments. The crawler is
//     the item after a "compatible" item, inside a comment, as in
//     "(compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)" or
//     "(KHTML, like Gecko; compatible; GPTBot/1.0; +https://openai.com/gptbot)",
//     or outside one, as OpenAI writes it:
//     "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot".
//     Without "compatible", it is a "Name/Version" item anywhere in the
//     first comment, as in "(X11; Linux x86_64; Storebot-Google/1.0)", or
//     the first item of a later comment, as in
//     "(Applebot/0.1; +http://www.apple.com/go/applebot)". Browser engines
//     ("Trident/7.0" of Internet Explorer's comment) name no crawler.
//
// The name found must be a valid product token ([ValidAgent]); when it is
// not, as in "(compatible; MSIE 9.0; Windows NT 6.1)" or "360Spider/1.0",
// the header names no token and ProductToken returns "". So does a
// browser's own header, such as "Mozilla/5.0 (X11; Linux x86_64)
// AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
// whose comments hold platforms and engines, not crawlers.
//
// The result is a substring of userAgent; ProductToken does not allocate.
func ProductToken(userAgent string) string {
	ua := trimHeaderSpace(userAgent)
	if ValidAgent(ua) {
		return ua
	}
	first, rest := nextProduct(ua)
	if name := productName(first); !isBrowserProduct(name) {
		if ValidAgent(name) {
			return name
		}
		return ""
	}
	return restToken(rest)
}

// restToken returns the token that the rest of a browser-like header names
// (rule 3 of [ProductToken]), or "".
func restToken(rest string) string {
	var it items
	for rest != "" {
		open := strings.IndexByte(rest, '(')
		if open != 0 {
			// Text outside comments: only an item after "compatible"
			// counts there.
			text := rest
			if open > 0 {
				text, rest = rest[:open], rest[open:]
			} else {
				rest = ""
			}
			if tok, done := it.scan(text, outside); done {
				return tok
			}
			continue
		}
		var comment string
		comment, rest = nextComment(rest)
		where := laterComment
		if it.comments == 0 {
			where = firstComment
		}
		it.comments++
		if tok, done := it.scan(comment, where); done {
			return tok
		}
	}
	return ""
}

// Where a run of items stands in a header.
const (
	outside = iota
	firstComment
	laterComment
)

// items reads the items of a header after its first product, remembering
// what the next one needs to know.
type items struct {
	comments        int  // comments read so far
	afterCompatible bool // the last item was "compatible"
}

// scan reads the items of text, which stands where says, and reports the
// token they name and true once an item decides, as rule 3 of
// [ProductToken] says.
func (it *items) scan(text string, where int) (string, bool) {
	first := true
	for text != "" {
		var item string
		if i := strings.IndexAny(text, ";,"); i >= 0 {
			item, text = trimHeaderSpace(text[:i]), text[i+1:]
		} else {
			item, text = trimHeaderSpace(text), ""
		}
		if item == "" {
			continue
		}
		switch {
		case it.afterCompatible:
			// The item after "compatible" names the crawler, with or
			// without a version, or nothing.
			return itemToken(item, false), true
		case grammar.EqualFold(item, "compatible"):
			it.afterCompatible = true
		case where == firstComment || where == laterComment && first:
			if tok := itemToken(item, true); tok != "" && !isBrowserProduct(tok) {
				return tok, true
			}
		}
		first = false
	}
	return "", false
}

// isBrowserProduct reports whether name is one of the products browsers
// write: the "Mozilla" or "Opera" a header starts with, or an engine or
// browser named in a comment, such as Internet Explorer's "Trident/7.0".
// Crawlers that pose as a browser start with such a product, and none of
// them is a crawler's name.
func isBrowserProduct(name string) bool {
	for _, b := range [...]string{"Mozilla", "Opera", "Trident", "Gecko", "AppleWebKit", "Presto", "KHTML"} {
		if grammar.EqualFold(name, b) {
			return true
		}
	}
	return false
}

// nextProduct returns the first product of a header, "Name" or
// "Name/Version" up to whitespace, '(' or ';', and what follows it.
func nextProduct(s string) (product, rest string) {
	i := strings.IndexAny(s, " \t(;")
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i:]
}

// productName returns the name of a product: what comes before '/'.
func productName(product string) string {
	name, _, _ := strings.Cut(product, "/")
	return name
}

// nextComment returns the text inside the next parenthesised comment of s
// and what follows the comment. Nested comments (RFC 9110 §5.6.5) stay part
// of the text; a comment that is never closed runs to the end of s. It
// returns "", "" when s has no comment.
func nextComment(s string) (comment, rest string) {
	open := strings.IndexByte(s, '(')
	if open < 0 {
		return "", ""
	}
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return s[open+1 : i], s[i+1:]
			}
		}
	}
	return s[open+1:], ""
}

// itemToken returns the name of a comment item that is one product, "Name"
// or "Name/Version", with no whitespace, when the name is a valid product
// token; needVersion requires the "/Version".
func itemToken(item string, needVersion bool) string {
	if strings.ContainsAny(item, " \t") {
		return ""
	}
	name, _, hasVersion := strings.Cut(item, "/")
	if needVersion && !hasVersion || !ValidAgent(name) {
		return ""
	}
	return name
}

// trimSpace trims ASCII spaces and tabs, as they separate the parts of a
// header.
func trimHeaderSpace(s string) string {
	return strings.Trim(s, " \t")
}
