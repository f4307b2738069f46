package audit

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// Agent is a crawler the audit asks about.
type Agent struct {
	// Tokens are the product tokens the crawler obeys; with several, its
	// rules are those of Robots.GroupFor.
	Tokens   []string
	Operator string
	Purpose  string
	Source   string
	// Listed is the crawler's name as an agent set lists it when that is
	// not its token ("AI2Bot", asked as "AI"; see [AgentSet]), or "".
	Listed string

	// crawler is the crawler of package crawlers' table that a one-token
	// agent is: it is answered as that crawler documents (Crawler.Group).
	crawler *crawlers.Crawler
}

// Name is the agent as the output names it: the name a set lists, or its
// tokens joined by "+".
func (a Agent) Name() string {
	if a.Listed != "" {
		return a.Listed
	}
	return strings.Join(a.Tokens, "+")
}

// BuiltinAgents returns the crawlers of package crawlers, in its order.
func BuiltinAgents() []Agent {
	var out []Agent
	for _, c := range crawlers.All() {
		out = append(out, agentOf(c))
	}
	return out
}

func agentOf(c crawlers.Crawler) Agent {
	return Agent{Tokens: []string{c.Token}, Operator: c.Operator, Purpose: string(c.Purpose), Source: c.Source, crawler: &c}
}

// tokenAgent returns the agent for a list of tokens: a single token of
// package crawlers' table is that crawler; several take the operator,
// purpose and source of the first that is in the table.
func tokenAgent(toks []string) Agent {
	if len(toks) == 1 {
		if c, ok := crawlers.Lookup(toks[0]); ok {
			a := agentOf(c)
			a.Tokens = toks // as written
			return a
		}
	}
	a := Agent{Tokens: toks}
	for _, t := range toks {
		if c, ok := crawlers.Lookup(t); ok {
			a.Operator, a.Purpose, a.Source = c.Operator, string(c.Purpose), c.Source
			break
		}
	}
	return a
}

// ReadAgents reads a list of crawlers, one a line: its product tokens
// separated by spaces or commas. Blank lines and '#' comments are skipped.
// A crawler of one token that is in package crawlers' table is that
// crawler, answered as it documents; with several tokens, the first that
// is in the table gives the operator, purpose and source.
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
		out = append(out, tokenAgent(toks))
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no agents")
	}
	return out, nil
}

// Agents returns the crawlers that spec names: a file of crawlers
// (ReadAgents) when a file of that name exists, else the agent sets it
// lists, separated by commas ("crawlers,ai.robots.txt"), in that order; a
// crawler that an earlier set has (its name compared without regard to
// ASCII case) is not repeated.
func Agents(spec string) ([]Agent, error) {
	if st, err := os.Stat(spec); err == nil && !st.IsDir() {
		f, err := os.Open(spec)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		as, err := ReadAgents(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", spec, err)
		}
		return as, nil
	}
	var out []Agent
	seen := map[string]bool{}
	for _, name := range strings.Split(spec, ",") {
		set, err := AgentSet(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		for _, a := range set {
			k := grammar.LowerString(a.Name())
			if !seen[k] {
				seen[k] = true
				out = append(out, a)
			}
		}
	}
	return out, nil
}
