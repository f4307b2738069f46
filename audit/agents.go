package audit

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
)

// Agent is a crawler the audit asks about.
type Agent struct {
	// Tokens are the product tokens the crawler obeys; with several, its
	// rules are those of Robots.GroupFor.
	Tokens   []string
	Operator string
	Purpose  string
	Source   string
	// IgnoresGlobal: the crawler does not obey the "*" group (see
	// crawlers.Crawler.IgnoresGlobal).
	IgnoresGlobal bool
}

// Name is the agent as the output names it: its tokens joined by "+".
func (a Agent) Name() string { return strings.Join(a.Tokens, "+") }

// BuiltinAgents returns the crawlers of package crawlers, in its order.
func BuiltinAgents() []Agent {
	var out []Agent
	for _, c := range crawlers.All() {
		out = append(out, agentOf(c))
	}
	return out
}

func agentOf(c crawlers.Crawler) Agent {
	return Agent{Tokens: []string{c.Token}, Operator: c.Operator, Purpose: string(c.Purpose), Source: c.Source, IgnoresGlobal: c.IgnoresGlobal}
}

// ReadAgents reads a list of crawlers, one a line: its product tokens
// separated by spaces or commas. Blank lines and '#' comments are skipped.
// A crawler whose first token is in package crawlers' table takes its
// operator, purpose and source from there.
func ReadAgents(r io.Reader) ([]Agent, error) {
	var out []Agent
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line, _, _ := strings.Cut(sc.Text(), "#")
		toks := strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
		if len(toks) == 0 {
			continue
		}
		for _, t := range toks {
			if !robotstxt.ValidAgent(t) {
				return nil, fmt.Errorf("line %d: %q is not a product token (letters, '-' and '_')", n, t)
			}
		}
		a := Agent{Tokens: toks, IgnoresGlobal: true}
		for i, t := range toks {
			c, ok := crawlers.Lookup(t)
			a.IgnoresGlobal = a.IgnoresGlobal && ok && c.IgnoresGlobal // as crawlers.GroupFor reads the table
			if ok && i == 0 {
				b := agentOf(c)
				a.Operator, a.Purpose, a.Source = b.Operator, b.Purpose, b.Source
			}
		}
		out = append(out, a)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no agents")
	}
	return out, nil
}
