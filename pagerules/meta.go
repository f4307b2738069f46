package pagerules

import (
	"bytes"
	"errors"
	"io"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// This file reads the robots meta tags of an HTML head with the streaming
// tokenizer of golang.org/x/net/html: it reads the page as far as the end
// of its head and never further than a bound, so that a crawler can learn
// the rules before it decides to read, keep or drop the rest.

// DefaultHeadLimit is the bound [Rules.AddMeta] takes when given none: the
// most bytes of a page it reads to find the end of the head. Heads rarely
// pass a few tens of KiB; inline scripts and styles make some reach a few
// hundred.
const DefaultHeadLimit = 512 << 10

// MetaScan says how a head was read.
type MetaScan struct {
	// Read is how many bytes were read from the page, never more than the
	// bound. The tokenizer reads ahead into its buffer (4 KiB, larger
	// after a long token such as an inline script), so it can pass the end
	// of the head by that much.
	Read int64
	// Tags is the number of meta tags seen in the head, robots or not.
	Tags int
	// Ended reports whether the head ended within the bound: a </head>,
	// the start of the body (a <body> tag, or an element or text that
	// only a body holds), or the end of the page.
	Ended bool
}

// AddMeta reads the HTML page from body up to the end of its head, reading
// at most limit bytes (DefaultHeadLimit when limit <= 0), and adds the
// rules of its robots meta tags that apply to agent: those of
// <meta name="robots"> and those of <meta name="AGENT">, the name compared
// ignoring ASCII case as Google does. The content attribute is a
// comma-separated list of rules, as an X-Robots-Tag line is, without the
// "name:" addresses.
//
// A head that has not ended within the bound leaves MetaScan.Ended false:
// the rules of the meta tags after the bound are not seen. The error is
// the reader's, other than io.EOF.
func (r *Rules) AddMeta(body io.Reader, agent string, limit int) (MetaScan, error) {
	if limit <= 0 {
		limit = DefaultHeadLimit
	}
	cr := &countingReader{r: io.LimitReader(body, int64(limit))}
	z := html.NewTokenizer(cr)
	var scan MetaScan
	var raw atom.Atom // the element whose text is being read: title, script, style...
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			scan.Read = cr.n
			err := z.Err()
			if errors.Is(err, io.EOF) {
				// The end of the page, or of the bound.
				scan.Ended = !cr.limited
				return scan, nil
			}
			return scan, err
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			switch a {
			case atom.Meta:
				scan.Tags++
				if hasAttr {
					r.addMetaTag(z, agent, scan.Tags)
				}
			case atom.Title, atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Noframes:
				if tt == html.StartTagToken {
					raw = a
				}
			case atom.Html, atom.Head, atom.Link, atom.Base, atom.Basefont, atom.Bgsound:
			default: // <body>, or an element only a body holds
				scan.Read, scan.Ended = cr.n, true
				return scan, nil
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch a := atom.Lookup(name); {
			case a == raw:
				raw = 0
			case a == atom.Head || a == atom.Html || a == atom.Body:
				scan.Read, scan.Ended = cr.n, true
				return scan, nil
			}
		case html.TextToken:
			text := bytes.Trim(bytes.TrimPrefix(z.Raw(), bom), " \t\r\n\f")
			if cr.limited && len(text) > 0 && text[0] == '<' {
				// A tag cut by the bound comes out as text: the head
				// has not ended.
				continue
			}
			if raw == 0 && len(text) > 0 {
				// Text outside the elements of a head starts the body.
				scan.Read, scan.Ended = cr.n, true
				return scan, nil
			}
		}
	}
}

// addMetaTag adds the rules of the meta tag the tokenizer is on, the n-th,
// when it is a robots meta tag that applies to agent.
func (r *Rules) addMetaTag(z *html.Tokenizer, agent string, n int) {
	var name, content []byte
	hasContent := false
	for more := true; more; {
		var k, v []byte
		k, v, more = z.TagAttr() // keys come lower case
		switch string(k) {
		case "name":
			name = v
		case "content":
			content, hasContent = v, true
		}
	}
	name = bytes.Trim(name, " \t\r\n\f")
	o := Origin{Source: FromMeta, N: n}
	switch {
	case !hasContent:
		return
	case grammar.EqualFold(name, "robots"):
	case len(name) > 0 && len(agent) == len(name) && grammar.EqualFold(name, agent):
		o.Agent = string(name)
	default:
		return
	}
	r.addList(string(content), agent, o, false)
}

// bom is the UTF-8 byte order mark, which may open a page.
var bom = []byte("\xef\xbb\xbf")

// countingReader counts the bytes read through it, and notes when the
// limit below it was what ended the page.
type countingReader struct {
	r       io.Reader
	n       int64
	limited bool
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if lr, ok := c.r.(*io.LimitedReader); ok && err == io.EOF && lr.N == 0 {
		c.limited = true
	}
	return n, err
}
