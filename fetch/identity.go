package fetch

import (
	"errors"
	"strconv"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/internal/grammar"
)

// This file holds the crawler's identity: the User-Agent header it sends and
// the product token it obeys robots.txt as. The two differ for nearly every
// crawler ("Mozilla/5.0 (compatible; Foobot/1.0; +https://foo.example/bot)"
// and "Foobot"), and the header passed where the token belongs silently
// selects the global group of every file, so questions with anything but a
// product token are refused.

// errInvalidAgent is what every [*AgentError] unwraps to. Callers match
// the type, with errors.As.
var errInvalidAgent = errors.New("not a product token")

// AgentError is the error of a question whose agent is not a product token
// (see [robotstxt.ValidAgent]): such an agent names no group of any file,
// and answering for the global group instead would hide the mistake.
type AgentError struct {
	// Agent is the agent as given; "" when none was given or configured.
	Agent string
	// Token is the product token that [robotstxt.ProductToken] finds in
	// Agent, the likely intent, or "" when it finds none.
	Token string
	// UserAgent is the crawler's User-Agent header (Options.UserAgent)
	// when Agent is "" because no product token could be read in it.
	UserAgent string
}

func newAgentError(agent string) *AgentError {
	return &AgentError{Agent: agent, Token: robotstxt.ProductToken(agent)}
}

func (e *AgentError) Error() string {
	if e.Agent == "" && e.UserAgent != "" {
		return "robotstxt: no product token found in the User-Agent header " + strconv.Quote(e.UserAgent) +
			": a product token is made of " + tokenRule + ", so a crawler whose name has a digit or another character" +
			" is named by no robots.txt group (" + googleReads + "); set Options.Agent to the token your crawler's" +
			" robots.txt groups name, such as \"Foobot\""
	}
	if e.Agent == "" {
		return "robotstxt: no agent: set Options.UserAgent to the crawler's User-Agent header, or Options.Agent to its product token"
	}
	msg := "robotstxt: agent " + strconv.Quote(e.Agent) + " is not a product token, which is made of " + tokenRule
	switch {
	case e.Token != "":
		// A version or a whole header where the token belongs.
		return msg + "; its product token is " + strconv.Quote(e.Token)
	case grammar.IsGlobalAgent([]byte(e.Agent)):
		return msg + "; \"*\" names the global group, which answers for the crawlers no group names"
	}
	read := "no name at all"
	if tok := grammar.AgentToken([]byte(e.Agent)); len(tok) > 0 {
		read = strconv.Quote(string(tok))
	}
	return msg + ", so no robots.txt group can name it (" + googleReads + ", and " +
		strconv.Quote("User-agent: "+e.Agent) + " as " + read + "); name the crawler with letters, '-' and '_' only"
}

// tokenRule is the rule for a product token, as the errors state it (the
// rule itself is [robotstxt.ValidAgent]'s), and googleReads why it
// matters: robots.txt parsers read a User-agent value up to its first
// other character, as Google's does and this module's does.
const (
	tokenRule   = "letters, '-' and '_' only (RFC 9309 §2.2.1)"
	googleReads = "Google's parser reads \"User-agent: MJ12bot\" as \"MJ\""
)

// Unwrap returns errInvalidAgent.
func (e *AgentError) Unwrap() error { return errInvalidAgent }

// identityError returns the error of every question for the crawler's own
// product token, agent, found in or beside the User-Agent header
// userAgent: nil when agent is a product token ([robotstxt.ValidAgent]),
// and otherwise an [*AgentError] that states the rule, and names the
// header when no token could be read in it.
func identityError(userAgent, agent string) *AgentError {
	if robotstxt.ValidAgent(agent) {
		return nil
	}
	e := newAgentError(agent)
	if agent == "" {
		e.UserAgent = userAgent
	}
	return e
}

// IdentityErr returns the error that every question of the cache
// ([Cache.Allowed], [Cache.Decide], [Cache.DecideNow], [Cache.Check], a
// [Transport]'s requests and a [Pacer]'s turns) fails with, before any
// robots.txt is fetched, or nil when the Options give a valid product
// token. NewCache checks the
// identity once, as it cannot return an error itself: a crawler that asks
// for its own token calls IdentityErr right after NewCache to fail at
// start-up, with the rule stated, rather than at its first request. The
// error is an [*AgentError] when the token is not made of letters, '-'
// and '_' (RFC 9309 §2.2.1), as for a crawler named "MJ12bot" or
// "nc5bot", or when no token can be read in Options.UserAgent, or when
// neither Agent nor UserAgent is set. A cache without an identity still
// answers for the agents of its views ([Cache.For]); a view's IdentityErr
// is the [*AgentError] of an agent that is not a product token.
func (c *Cache) IdentityErr() error {
	if c.identErr == nil {
		return nil
	}
	return c.identErr
}

// userAgent returns the User-Agent header o configures: UserAgent, or else
// the product token Agent, so that a crawler that gives only its token
// still sends it rather than Go's default.
func (o *Options) userAgent() string {
	if o.UserAgent != "" {
		return o.UserAgent
	}
	return o.Agent
}

// UserAgent returns the User-Agent header the crawler sends: the one its
// robots.txt requests carry, and the one a [Transport] sends with every
// request, in place of any other. It is Options.UserAgent, or
// Options.Agent when that is "", or "" when neither is set; for a view
// made by [Cache.For], the view's agent.
func (c *Cache) UserAgent() string {
	return c.userAgent
}

// agent returns the product token o configures: Agent, or else the token
// that UserAgent names.
func (o *Options) agent() string {
	if o.Agent != "" {
		return o.Agent
	}
	return robotstxt.ProductToken(o.UserAgent)
}
