package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
	"github.com/robotstxt-go/robotstxt/internal/termesc"
	"github.com/robotstxt-go/robotstxt/lint"
)

const checkHelp = `usage: robotstxt check [-agent A] [-user-agent H] [-json] (-file F | -url U | -) [URL...]

Check says whether a crawler may fetch each URL, and which line of the
robots.txt decides:

	disallowed  https://example.com/private/x  line 6: Disallow: /private/

After an allowed URL it prints the usage preferences that the file's
Content-Usage and Content-Signal lines state for it, with their lines:

	allowed     https://example.com/a  line 2: Allow: /  [content-usage: train-ai=n (line 4)]

The robots.txt comes from a file (-file F), from standard input (-), or from
the web (-url U: the robots.txt of U's site, fetched as a crawler does). The
URLs come from the arguments or, when there are none, from standard input,
one a line (a crawl frontier; on a terminal, check first says so on standard
error, and Ctrl-D ends the list); with -url and no URLs, U itself is
checked.
The agent is a product token such as Googlebot; the default "*" stands for
any crawler that no group names. -user-agent gives the User-Agent header
sent with -url; without -agent, the agent is the token found in it. An
agent that is not a product token (Googlebot/2.1, a whole header), or a
token and a header that name two crawlers, are refused with exit status 2
rather than answered for the "*" group. A URL is an absolute URL or a path
that starts with '/'; anything else is an error. It is asked about as a
crawler sends it (robotstxt.NormalizeURL): non-ASCII bytes, spaces and the
other bytes no URL holds raw %-encoded, escapes upper-cased.

Before the answers, check prints to standard error the errors that
"robotstxt lint" finds in the file (an HTML page, UTF-16, binary data, a
rule that can never match...), the first few of a kind, and whether the
file goes on past the 500 KiB that crawlers read (the rules past it are
ignored, as crawlers ignore them). With -json it prints one
object a line per URL, and the errors go to standard error as text.

` + exitStatuses + `
Examples:

	robotstxt check -file robots.txt -agent Googlebot https://example.com/private/x
	robotstxt check -file robots.txt -agent Googlebot < frontier.txt
	curl -s https://example.com/robots.txt | robotstxt check - /private/x /docs/
	robotstxt check -url https://example.com/private/x -agent Bingbot
	robotstxt check -json -file robots.txt /a /b
`

// source is a robots.txt and where it came from.
type source struct {
	name        string // file name, "<stdin>" or the robots.txt URL
	robots      *robotstxt.Robots
	report      *lint.Report // nil when there was no body to parse
	why         string       // when robots is not parsed: what stands for the rules
	unreachable bool         // the robots.txt could not be fetched: robots disallows everything
	cut         string       // when the file goes on past 500 KiB: the warning that says where it stops being read
}

func (c *cli) check(args []string) int {
	fs := c.newFlags("check")
	agent := fs.String("agent", defaultAgent, "the crawler's product token `NAME`, such as Googlebot")
	file := fs.String("file", "", "read the robots.txt from `FILE`")
	url := fs.String("url", "", "fetch the robots.txt of `URL`'s site, as a crawler does")
	userAgent := fs.String("user-agent", "", "with -url, send `HEADER` as the User-Agent header (default: the agent's token, or Go's default for \"*\")")
	asJSON := fs.Bool("json", false, "print one JSON object a line, one per URL")
	urls, status, ok := c.parse(fs, checkHelp, args)
	if !ok {
		return status
	}
	fromStdin := len(urls) > 0 && urls[0] == "-"
	if fromStdin {
		urls = urls[1:]
	}
	switch given := btoi(*file != "") + btoi(*url != "") + btoi(fromStdin); {
	case given == 0:
		return c.fail("robotstxt check: no robots.txt given: use -file FILE, -url URL or - for stdin")
	case given > 1:
		return c.fail("robotstxt check: more than one robots.txt given: use only one of -file FILE, -url URL and -")
	}
	if len(urls) == 0 && fromStdin {
		return c.fail("robotstxt check: no URLs given: the robots.txt is read from stdin, so give the URLs as arguments")
	}
	if len(urls) == 0 && *url != "" {
		urls = []string{*url}
	}

	token, header, err := identity(*agent, *userAgent)
	if err != nil {
		return c.fail("robotstxt check: %v", err)
	}
	*agent = token

	var src *source
	switch {
	case *file != "":
		src, err = readFileSource(*file)
	case fromStdin:
		src, err = readSource("<stdin>", c.stdin, -1)
	default:
		src, err = c.fetchSource(header, *url)
	}
	if err != nil {
		return c.fail("robotstxt check: %s", describeURLError(err))
	}
	c.warnSource("robotstxt check", src)

	out := bufio.NewWriter(c.stdout)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	// As the tester page and the audit answer: a crawler that documents
	// another behaviour (AdsBot-Google ignores "*") is answered so.
	g, note := crawlers.Group(src.robots, *agent)
	if note != "" {
		fmt.Fprintf(c.stderr, "robotstxt check: %s\n", note)
	}
	anyDisallowed, badURL := false, false
	verdict := func(u string) error {
		if err := checkableURL(u); err != nil {
			badURL = true
			if *asJSON {
				return enc.Encode(urlErrorJSON{URL: u, Error: err.Error()})
			}
			// Flush the answers so far, so that on a terminal the
			// error comes between them in order.
			if err := out.Flush(); err != nil {
				return err
			}
			fmt.Fprintf(c.stderr, "robotstxt check: %v\n", err)
			return nil
		}
		if *url != "" {
			c.warnOrigin(src.name, u)
		}
		// Asked as a crawler sends it (NormalizeURL), as the cache and
		// the Transport of package fetch ask.
		us := g.Usage(robotstxt.NormalizeURL(u))
		d := us.Decision
		anyDisallowed = anyDisallowed || !d.Allowed
		if *asJSON {
			j := src.decisionJSON(u, d)
			j.Usage = usageOf(us)
			return enc.Encode(j)
		}
		_, err := fmt.Fprintf(out, "%-10s  %s  %s%s\n", verdictWord(d.Allowed), u, src.explain(u, d), usageText(us))
		return err
	}
	if len(urls) > 0 {
		for _, u := range urls {
			if err = verdict(u); err != nil {
				break
			}
		}
	} else {
		if isTerminal(c.stdin) {
			// Nothing else shows that check is waiting for input.
			fmt.Fprintln(c.stderr, "robotstxt check: reading URLs from standard input, one per line; Ctrl-D ends")
		}
		err = readLines(c.stdin, verdict)
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return c.fail("robotstxt check: %v", err)
	}
	return src.status(badURL, anyDisallowed)
}

// status is the exit status of check or fetch: see exitStatuses.
func (s *source) status(badURL, anyDisallowed bool) int {
	switch {
	case badURL:
		return exitFailure
	case s.robots.Kind() == robotstxt.DisallowAll && s.unreachable:
		return exitUnreachable
	case s.report != nil && unreadable(s.report):
		return exitNotRobots
	case anyDisallowed:
		return exitNegative
	}
	return exitOK
}

// warnSource prints, before the answers, what makes them other than the
// file seems to say: that the robots.txt is unreachable, or the errors in
// it.
func (c *cli) warnSource(prefix string, s *source) {
	if s.unreachable {
		fmt.Fprintf(c.stderr, "%s: %s %s (exit status %d)\n", prefix, s.name, strings.TrimPrefix(s.why, "robots.txt "), exitUnreachable)
	}
	if s.cut != "" {
		fmt.Fprintln(c.stderr, s.cut)
	}
	if s.report == nil {
		return
	}
	for _, f := range summarize(answerFindings(s.report), false) {
		fmt.Fprintln(c.stderr, f.render(s.name, "robotstxt lint -all lists them"))
	}
}

// urlErrorJSON is what check -json prints for a URL it cannot answer for.
type urlErrorJSON struct {
	URL   string `json:"url"`
	Error string `json:"error"`
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func verdictWord(allowed bool) string {
	if allowed {
		return "allowed"
	}
	return "disallowed"
}

// readFileSource reads the robots.txt in the file name: see readSource.
func readFileSource(name string) (*source, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(-1)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	return readSource(name, f, size)
}

// readSource reads and parses a robots.txt body from r, whose size is
// known when not -1. As a crawler does, it keeps what counts, the first
// 500 KiB: a 10 MB file costs what a 500 KiB one does. A stream of unknown
// size is read to its end without keeping the rest, so that a pipe's
// writer is not cut off and the size can be told.
func readSource(name string, r io.Reader, size int64) (*source, error) {
	body, err := io.ReadAll(io.LimitReader(r, grammar.MaxBodySize+1))
	if err != nil {
		return nil, err
	}
	src := &source{name: name}
	cut := len(body) > grammar.MaxBodySize
	if cut {
		if size < 0 {
			rest, err := io.Copy(io.Discard, r)
			if err != nil {
				return nil, err
			}
			size = int64(len(body)) + rest
		}
		body = body[:grammar.MaxBodySize]
	}
	// One pass over the lines gives the rules and the findings.
	src.report = lint.Diagnose(body)
	src.robots = src.report.Robots
	if cut {
		src.cut = cutWarning(name, body, size, src.report.Lines)
	}
	return src, nil
}

// cutWarning says where a body of size bytes, of which body is the first
// 500 KiB, stops being read: the line and the byte in it, numbered as the
// core numbers lines (lines, from lint.Diagnose).
func cutWarning(name string, body []byte, size int64, lines []lint.Line) string {
	line, start := 1, 0
	if len(lines) > 0 {
		line = lines[len(lines)-1].Num
	}
	if i := bytes.LastIndexAny(body, "\r\n"); i >= 0 {
		start = i + 1
		if start == len(body) {
			line++ // the cut falls at the start of the next line
		}
	}
	where := "from this line on"
	if start < len(body) {
		where = fmt.Sprintf("from byte %d of this line on", len(body)-start+1)
	}
	return fmt.Sprintf("%s:%d: warning: the file is %d bytes: Google's crawler reads only the first %d (500 KiB) and ignores the rest, %s",
		name, line, size, grammar.MaxBodySize, where)
}

// fetchSource fetches the robots.txt that applies to url, sending header as
// the User-Agent ("" for Go's default).
func (c *cli) fetchSource(header, url string) (*source, error) {
	res, err := c.fetcher.Fetch(context.Background(), header, url)
	if err != nil {
		return nil, err
	}
	return res.source(), nil
}

// identity returns the product token to answer for and the User-Agent
// header to send, from -agent and -user-agent: one identity, as in package
// fetch. A header gives its token (robotstxt.ProductToken); a token alone
// is sent as the header; "*" sends Go's default. An agent that is not a
// product token, a header whose token cannot be read, or a token and a
// header that disagree are errors: answering for the "*" group instead
// would print another crawler's verdict.
func identity(agent, header string) (token, send string, err error) {
	switch {
	case agent != "*" && !robotstxt.ValidAgent(agent):
		return "", "", errors.New(agentWarning(agent, "-agent "))
	case header == "":
		if agent == "*" {
			return agent, "", nil
		}
		return agent, agent, nil
	}
	found := robotstxt.ProductToken(header)
	switch {
	case agent == "*" && found == "":
		return "", "", fmt.Errorf("no product token found in -user-agent %q: give the token its robots.txt groups name with -agent NAME", header)
	case agent == "*":
		return found, header, nil
	case !grammar.EqualFold(found, agent):
		return "", "", fmt.Errorf("-agent %s and -user-agent %q name different crawlers (%q): a crawler obeys robots.txt under the name it sends", agent, header, found)
	}
	return agent, header, nil
}

// warnOrigin tells when u is on another site than the robots.txt fetched,
// whose rules then do not apply to it. Paths are taken as on the site.
func (c *cli) warnOrigin(robotsURL, u string) {
	if theirs, err := robotstxt.RobotsURL(u); err == nil && theirs != robotsURL {
		fmt.Fprintf(c.stderr, "robotstxt: %s is not on the site of %s: %s applies to it\n", u, robotsURL, theirs)
	}
}

// agentWarning says why an agent that is not a product token gets the
// rules for "*", and suggests use+token, or returns "" when it is one.
func agentWarning(agent, use string) string {
	if agent == "*" || robotstxt.ValidAgent(agent) {
		return ""
	}
	// A whole User-Agent header names its crawler's token in the middle.
	tok := robotstxt.ProductToken(agent)
	hint := ""
	if tok != "" {
		hint = "; use " + use + tok
	}
	return fmt.Sprintf("agent %q is not a product token (letters, '-' and '_'): it names no group and gets the rules for \"*\"%s", agent, hint)
}

// isTokenByte reports whether c may be part of a product token, as the
// core says (robotstxt.ValidAgent), not by a list of its own.
func isTokenByte(c byte) bool {
	return c < utf8.RuneSelf && robotstxt.ValidAgent(string(rune(c)))
}

// explain says why d was decided: the deciding line as written, or what
// stood for the rules.
func (s *source) explain(url string, d robotstxt.Decision) string {
	if s.robots.Kind() != robotstxt.Parsed {
		return s.why
	}
	if d.Line == 0 {
		if s.report != nil && unreadable(s.report) {
			return "no rule matched: crawlers read no rules from this file (see the error above)"
		}
		return "no rule matched"
	}
	key := "Disallow"
	if d.Allow {
		key = "Allow"
	}
	if s.report != nil && d.Line <= len(s.report.Lines) {
		key = s.report.Lines[d.Line-1].Key
	}
	line := "line " + strconv.Itoa(d.Line) + ": " + termesc.Quote(key) + ":"
	switch {
	case d.Rule == "":
		line += " (an empty rule allows everything)"
	default:
		line += " " + termesc.Quote(d.Rule)
		if dir, ok := indexFallback(url, d); ok {
			line += " (which also allows " + termesc.Quote(dir) + ")"
		}
	}
	return line
}

// indexFallback reports whether d was decided by the fallback of an Allow
// rule whose last segment starts with "/index.htm", which also allows the
// directory itself, and returns that directory.
func indexFallback(url string, d robotstxt.Decision) (string, bool) {
	slash := strings.LastIndexByte(d.Rule, '/')
	if !d.Allow || slash < 0 || !strings.HasPrefix(d.Rule[slash:], "/index.htm") {
		return "", false
	}
	return d.Rule[:slash+1], !strings.Contains(url, d.Rule[slash:])
}

// decisionJSON is what check -json prints per URL.
type decisionJSON struct {
	URL       string     `json:"url"`
	Allowed   bool       `json:"allowed"`
	Line      int        `json:"line,omitempty"`
	Directive string     `json:"directive,omitempty"` // "allow" or "disallow"
	Key       string     `json:"key,omitempty"`       // the key as written
	Rule      string     `json:"rule,omitempty"`      // the value as written
	Rules     string     `json:"rules,omitempty"`     // "allow-all" or "disallow-all" when no file was parsed
	Reason    string     `json:"reason,omitempty"`    // why, when no file was parsed
	Usage     *usageJSON `json:"usage,omitempty"`     // stated Content-Usage and Content-Signal preferences
}

// newDecisionJSON holds what every command prints of a decision: the URL,
// the verdict and the deciding line.
func newDecisionJSON(url string, d robotstxt.Decision) decisionJSON {
	j := decisionJSON{URL: url, Allowed: d.Allowed, Line: d.Line, Rule: d.Rule}
	if d.Line > 0 {
		j.Directive = "disallow"
		if d.Allow {
			j.Directive = "allow"
		}
	}
	return j
}

func (s *source) decisionJSON(url string, d robotstxt.Decision) decisionJSON {
	j := newDecisionJSON(url, d)
	if k := s.robots.Kind(); k != robotstxt.Parsed {
		j.Rules, j.Reason = k.String(), s.why
	}
	if d.Line > 0 && s.report != nil && d.Line <= len(s.report.Lines) {
		j.Key = s.report.Lines[d.Line-1].Key
	}
	return j
}
