package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/robotstxt-go/robotstxt/internal/termesc"
	"github.com/robotstxt-go/robotstxt/lint"
)

const lintHelp = `usage: robotstxt lint [-json] [-lines] [-all] FILE|-

Lint reports what looks wrong in a robots.txt, one finding a line, as a
compiler does, then a summary:

	robots.txt:17: error: pattern "drafts/" can never match: ...

An error is a line that does not do what it seems to (a rule that can never
match, a rule outside any group, an HTML page served as robots.txt); a
warning is something crawlers read differently, or a likely mistake; an info
explains how a line was read. With -lines it first says what it saw on every
line. "-" reads the file from standard input.

Of a kind of finding that comes more than 10 times (thousands of patterns
that can never match, say), the first 5 are printed, then one line with the
count and the line range; -all prints every one, and -json holds them all.

` + exitStatuses + `
Examples:

	robotstxt lint robots.txt
	curl -s https://example.com/robots.txt | robotstxt lint -
	robotstxt lint -lines robots.txt
	robotstxt lint -json robots.txt
`

func (c *cli) lint(args []string) int {
	fs := c.newFlags("lint")
	asJSON := fs.Bool("json", false, "print one JSON object")
	lines := fs.Bool("lines", false, "say what was seen on every line")
	all := fs.Bool("all", false, "print every finding, even of a kind that comes many times")
	pos, status, ok := c.parse(fs, lintHelp, args)
	if !ok {
		return status
	}
	if len(pos) != 1 {
		return c.fail("robotstxt lint: give one robots.txt file, or - for stdin")
	}
	name, read := pos[0], func() ([]byte, error) { return os.ReadFile(pos[0]) }
	if name == "-" {
		name, read = "<stdin>", func() ([]byte, error) { return io.ReadAll(c.stdin) }
	}
	body, err := read()
	if err != nil {
		return c.fail("robotstxt lint: %v", err)
	}
	rep := lint.Diagnose(body)
	out := bufio.NewWriter(c.stdout)
	if *asJSON {
		err = writeLintJSON(out, name, rep, *lines)
	} else {
		writeLintText(out, name, rep, *lines, *all)
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return c.fail("robotstxt lint: %v", err)
	}
	if rep.Err() != nil {
		return exitNegative
	}
	return exitOK
}

func writeLintText(w io.Writer, name string, rep *lint.Report, lines, all bool) {
	if lines {
		width := len(strconv.Itoa(len(rep.Lines)))
		for _, l := range rep.Lines {
			fmt.Fprintf(w, "%*d  %s\n", width, l.Num, describeLine(l))
		}
		fmt.Fprintln(w)
	}
	for _, f := range summarize(rep.Findings, all) {
		fmt.Fprintln(w, f.render(name, "-all lists them"))
	}
	fmt.Fprintf(w, "%s: %s; %s\n", name, severitySummary(rep), countsSummary(rep.Counts))
}

// describeLine says what a line was read as, the group it belongs to, its
// key and value as written and its flags:
//
//	disallow    group 1  Dissallow: /tmp/  (typo, comment)
func describeLine(l lint.Line) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-10s", l.Kind)
	if l.Group > 0 {
		fmt.Fprintf(&b, "  group %d", l.Group)
	} else if l.Kind == lint.LineAllow || l.Kind == lint.LineDisallow || l.Kind == lint.LineOther {
		b.WriteString("  no group")
	}
	if l.Key != "" {
		b.WriteString("  " + termesc.Quote(l.Key) + ":")
		if l.Value != "" {
			b.WriteString(" " + termesc.Quote(l.Value))
		}
	}
	if f := lineFlags(l); len(f) > 0 && !(l.Kind == lint.LineComment && len(f) == 1) {
		b.WriteString("  (" + strings.Join(f, ", ") + ")")
	}
	return strings.TrimRight(b.String(), " ")
}

// lineFlags names the flags of a line.
func lineFlags(l lint.Line) []string {
	var f []string
	for _, x := range []struct {
		set  bool
		name string
	}{
		{l.Typo, "typo"},
		{l.NoColon, "no colon"},
		{l.Truncated, "truncated"},
		{l.Comment, "comment"},
		{l.NUL, "NUL"},
		{l.NonUTF8, "not UTF-8"},
		{l.PastLimit, "past 500 KiB"},
	} {
		if x.set {
			f = append(f, x.name)
		}
	}
	return f
}

func severityCounts(rep *lint.Report) (errs, warnings, infos int) {
	for _, e := range rep.Findings {
		switch e.Severity {
		case lint.SeverityError:
			errs++
		case lint.SeverityWarning:
			warnings++
		default:
			infos++
		}
	}
	return errs, warnings, infos
}

func severitySummary(rep *lint.Report) string {
	e, w, i := severityCounts(rep)
	s := plural(e, "error") + ", " + plural(w, "warning") + ", "
	if i == 1 {
		return s + "1 info"
	}
	return s + strconv.Itoa(i) + " infos"
}

func countsSummary(n lint.Counts) string {
	never := ""
	if n.NeverMatch > 0 {
		never = fmt.Sprintf(", %d never matching", n.NeverMatch)
	}
	return fmt.Sprintf("%s, %s, %s (%d allow, %d disallow%s), %s",
		plural(n.Lines, "line"), plural(n.Groups, "group"), plural(n.Allow+n.Disallow+n.NeverMatch, "rule"),
		n.Allow, n.Disallow, never, plural(n.Sitemaps, "sitemap"))
}

// lintJSON is the one JSON form of a lint result: what lint -json prints,
// and what /api/lint answers, which writeLint streams in this order with
// the fields marked for it: the counts of each kind of finding, the
// findings (at most pageKeep of a kind, then one that counts the rest), and
// the text of each line, numbered as the findings are.
type lintJSON struct {
	File     string        `json:"file"`
	Cut      int           `json:"cut,omitempty"` // /api/lint: the size of a file cut at 500 KiB
	Errors   int           `json:"errors"`
	Warnings int           `json:"warnings"`
	Infos    int           `json:"infos"`
	Counts   countsJSON    `json:"counts"`
	Kinds    []kindJSON    `json:"kinds,omitempty"` // /api/lint, always
	Findings []findingJSON `json:"findings"`
	Lines    []lineJSON    `json:"lines,omitempty"` // lint -json -lines
	Text     []string      `json:"text,omitempty"`  // /api/lint, always
}

type countsJSON struct {
	Lines      int `json:"lines"`
	Blank      int `json:"blank"`
	Comments   int `json:"comments"`
	Invalid    int `json:"invalid"`
	UserAgents int `json:"user_agents"`
	Groups     int `json:"groups"`
	Allow      int `json:"allow"`
	Disallow   int `json:"disallow"`
	NeverMatch int `json:"never_match"`
	Others     int `json:"others"`
	Outside    int `json:"outside"`
	Sitemaps   int `json:"sitemaps"`
}

type findingJSON struct {
	Line     int    `json:"line"`
	Severity string `json:"severity"`
	Cause    string `json:"cause"`
	Message  string `json:"message"`
	More     int    `json:"more,omitempty"` // a summary: this many findings of the kind are left out,
	Last     int    `json:"last,omitempty"` // up to this line
}

type lineJSON struct {
	Num   int      `json:"num"`
	Kind  string   `json:"kind"`
	Group int      `json:"group,omitempty"`
	Key   string   `json:"key,omitempty"`
	Value string   `json:"value,omitempty"`
	Flags []string `json:"flags,omitempty"`
}

// findingsJSON returns every finding of rep, for JSON.
func findingsJSON(rep *lint.Report) []findingJSON {
	out := make([]findingJSON, 0, len(rep.Findings))
	for _, e := range rep.Findings {
		out = append(out, findingJSON{e.Line, e.Severity.String(), e.Err.Error(), e.Msg, 0, 0})
	}
	return out
}

func writeLintJSON(w io.Writer, name string, rep *lint.Report, lines bool) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(newLintJSON(name, rep, lines))
}

// newLintJSON returns the report as lint -json prints it.
func newLintJSON(name string, rep *lint.Report, lines bool) lintJSON {
	n := rep.Counts
	j := lintJSON{
		File: name,
		Counts: countsJSON{n.Lines, n.Blank, n.Comments, n.Invalid, n.UserAgents, n.Groups,
			n.Allow, n.Disallow, n.NeverMatch, n.Others, n.Outside, n.Sitemaps},
		Findings: []findingJSON{},
	}
	j.Errors, j.Warnings, j.Infos = severityCounts(rep)
	j.Findings = findingsJSON(rep)
	if lines {
		for _, l := range rep.Lines {
			j.Lines = append(j.Lines, lineJSON{l.Num, l.Kind.String(), l.Group, l.Key, l.Value, lineFlags(l)})
		}
	}
	return j
}
