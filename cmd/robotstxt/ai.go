package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/aiuse"
	"github.com/robotstxt-go/robotstxt/crawlers"
	"github.com/robotstxt-go/robotstxt/internal/termesc"
	"github.com/robotstxt-go/robotstxt/pagerules"
)

const aiHelp = `usage: robotstxt ai [-file F] [-page] [-user-agent H] [-json] URL

Ai prints the site's AI access matrix for URL: for every operator of the
crawler table that documents a use of pages (Google, OpenAI, Anthropic,
Apple, ...), and every use (training, search, ai-input, user-fetch),
whether the site lets the operator use the page, and the signal that
decided:

	operator   training                  search              ...
	Google     not allowed (line 11)     allowed (line 3)

The answers are read from the robots.txt groups of the token that governs
each use (Google-Extended for Gemini training, GPTBot for OpenAI's) and of
the crawlers that fetch for it, from their Content-Usage and Content-Signal
lines and, with -page or when URL has a path, from the page's own
Content-Usage and Content-Signal headers and its noindex. "not crawlable"
says robots.txt keeps the operator's crawler out of URL; "no token" that
the operator documents none for the use. Below the matrix, each cell's
deciding signal is listed.

The robots.txt is fetched as a crawler does (-user-agent gives the header;
Go's default otherwise), or read from a file with -file F.

` + exitStatuses + `
Examples:

	robotstxt ai https://example.com/
	robotstxt ai -page https://example.com/article
	robotstxt ai -file robots.txt /article
	robotstxt ai -json https://example.com/
`

func (c *cli) ai(args []string) int {
	fs := c.newFlags("ai")
	file := fs.String("file", "", "read the robots.txt from `FILE` instead of fetching it")
	page := fs.Bool("page", false, "fetch the page too, for its headers and meta tags (on when URL has a path)")
	userAgent := fs.String("user-agent", "", "send `HEADER` as the User-Agent header")
	asJSON := fs.Bool("json", false, "print the matrix as JSON")
	pos, status, ok := c.parse(fs, aiHelp, args)
	if !ok {
		return status
	}
	if len(pos) != 1 {
		return c.fail("robotstxt ai: give exactly one URL, such as https://example.com/")
	}
	target := pos[0]
	var src *source
	var err error
	if *file != "" {
		src, err = readFileSource(*file)
	} else {
		src, err = c.fetchSource(*userAgent, target)
	}
	if err != nil {
		return c.fail("robotstxt ai: %v", err)
	}
	c.warnSource("robotstxt ai", src)
	site := aiuse.Site{Robots: src.robots}
	u, perr := url.Parse(target)
	if perr == nil && u.IsAbs() && (*page || (u.Path != "" && u.Path != "/")) {
		p, err := c.fetchAIPage(target, *userAgent)
		if err != nil {
			return c.fail("robotstxt ai: %v", err)
		}
		site.Page = p
	}
	m := site.Matrix(target)
	if *asJSON {
		err = json.NewEncoder(c.stdout).Encode(newMatrixJSON(src, &m))
	} else {
		err = writeMatrix(c.stdout, src, &m)
	}
	if err != nil {
		return c.fail("robotstxt ai: %v", err)
	}
	if src.unreachable {
		return exitUnreachable
	}
	return exitOK
}

// fetchAIPage fetches url, sending header, and reads its signals: the
// headers, and the head of an HTML body.
func (c *cli) fetchAIPage(url, header string) (*aiuse.Page, error) {
	client := &http.Client{Timeout: netTimeout}
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	if header != "" {
		req.Header.Set("User-Agent", header)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var html []byte
	if pagerules.ReadContentType(resp.Header).HTML { // as the page join reads it, malformed parameters and all
		html, err = io.ReadAll(io.LimitReader(resp.Body, pagerules.DefaultHeadLimit))
		if err != nil {
			return nil, err
		}
	}
	return aiuse.ReadPage(resp.Header, html), nil
}

// cellText is a cell of the printed matrix: the verdict and the line or
// header that decided.
func cellText(a *aiuse.Answer) string {
	if a.Verdict == aiuse.NoToken {
		return "-"
	}
	s, ok := a.Decider()
	if !ok {
		return a.Verdict.String()
	}
	switch {
	case s.Line > 0:
		return fmt.Sprintf("%s (line %d)", a.Verdict, s.Line)
	case s.Kind == aiuse.RobotsRules:
		return a.Verdict.String() + " (robots.txt)"
	}
	return fmt.Sprintf("%s (%s)", a.Verdict, s.Kind)
}

// writeMatrix prints the matrix, then each cell's deciding signal and the
// content-use levels stated. Text from the site goes through show.
func writeMatrix(w io.Writer, src *source, m *aiuse.Matrix) error {
	var b strings.Builder
	fmt.Fprintf(&b, "AI access for %s (robots.txt: %s)\n\n", termesc.Quote(m.URL), termesc.Quote(src.name))
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "operator")
	for _, u := range m.Uses {
		fmt.Fprintf(tw, "\t%s", u)
	}
	fmt.Fprintln(tw)
	for i, op := range m.Operators {
		fmt.Fprint(tw, op)
		for j := range m.Uses {
			fmt.Fprintf(tw, "\t%s", cellText(&m.Cells[i][j]))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	b.WriteString("\nDeciding signals:\n")
	uses := map[string]bool{}
	for i := range m.Cells {
		for j := range m.Cells[i] {
			a := &m.Cells[i][j]
			if s, ok := a.Decider(); ok {
				fmt.Fprintf(&b, "  %s %s: %s\n", a.Operator, a.Use, termesc.Quote(s.String()))
			}
			for _, s := range a.Signals() {
				if s.Use != robotstxt.UseUnstated {
					s.Token = "" // one line of the file serves many tokens
					uses[termesc.Quote(s.String())] = true
				}
			}
		}
	}
	if len(uses) > 0 {
		b.WriteString("\nContent-use levels stated (reported, deciding nothing):\n")
		for _, s := range slices.Sorted(maps.Keys(uses)) {
			fmt.Fprintf(&b, "  %s\n", s)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// matrixJSON is what ai -json prints.
type matrixJSON struct {
	URL    string     `json:"url"`
	Robots string     `json:"robots"`
	Cells  []cellJSON `json:"cells"`
}

type cellJSON struct {
	Operator string       `json:"operator"`
	Use      crawlers.Use `json:"use"`
	Token    string       `json:"token,omitempty"`
	Verdict  string       `json:"verdict"`
	Decided  *signalJSON  `json:"decided,omitempty"`
	Signals  []signalJSON `json:"signals,omitempty"`
}

type signalJSON struct {
	Kind  string `json:"kind"`
	Token string `json:"token,omitempty"`
	Line  int    `json:"line,omitempty"`
	Says  string `json:"says"`
	Label string `json:"label,omitempty"`
	Use   string `json:"use,omitempty"`
	Text  string `json:"text"`
}

func newSignalJSON(s aiuse.Signal) signalJSON {
	j := signalJSON{Kind: s.Kind.String(), Token: s.Token, Line: int(s.Line), Says: s.Says.String(), Label: s.Label, Text: s.String()}
	if s.Use != robotstxt.UseUnstated {
		j.Use = s.Use.String()
	}
	return j
}

func newMatrixJSON(src *source, m *aiuse.Matrix) matrixJSON {
	out := matrixJSON{URL: m.URL, Robots: src.name}
	for i := range m.Cells {
		for j := range m.Cells[i] {
			a := &m.Cells[i][j]
			c := cellJSON{Operator: a.Operator, Use: a.Use, Token: a.Governs.Token, Verdict: a.Verdict.String()}
			for _, s := range a.Signals() {
				c.Signals = append(c.Signals, newSignalJSON(s))
			}
			if s, ok := a.Decider(); ok {
				d := newSignalJSON(s)
				c.Decided = &d
			}
			out.Cells = append(out.Cells, c)
		}
	}
	return out
}
