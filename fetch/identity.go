package fetch

import (
	"errors"
	"strconv"

	"github.com/robotstxt-go/robotstxt"
)

// This file holds the crawler's identity: the User-Agent header it sends and
// the product token it obeys robots.txt as. The two differ for nearly every
// crawler ("Mozilla/5.0 (compatible; Foobot/1.0; +https://foo.example/bot)"
// and "Foobot"), and the header passed where the token belongs silently
// selects the global group of every file, so questions with anything but a
// product token are refused.

// ErrInvalidAgent is the cause of every [*AgentError]: match it with
// errors.Is.
var ErrInvalidAgent = errors.New("not a product token")

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
			": set Options.Agent to the token your crawler's robots.txt groups name, such as \"Foobot\""
	}
	if e.Agent == "" {
		return "robotstxt: no agent: set Options.UserAgent to the crawler's User-Agent header, or Options.Agent to its product token"
	}
	msg := "robotstxt: agent " + strconv.Quote(e.Agent) + " is not a product token (letters, '-' and '_' only)"
	if e.Token != "" {
		msg += "; its product token is " + strconv.Quote(e.Token)
	}
	return msg
}

// Unwrap returns ErrInvalidAgent.
func (e *AgentError) Unwrap() error { return ErrInvalidAgent }

// agentError returns the error of a question for agent, which is not a
// product token; when it is the crawler's own, the error names the header
// no token was found in.
func (c *Cache) agentError(agent string) *AgentError {
	e := newAgentError(agent)
	if agent == "" && c.f.agent == "" {
		e.UserAgent = c.f.userAgent
	}
	return e
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
// Options.Agent when that is "", or "" when neither is set.
func (c *Cache) UserAgent() string {
	return c.f.userAgent
}

// agent returns the product token o configures: Agent, or else the token
// that UserAgent names.
func (o *Options) agent() string {
	if o.Agent != "" {
		return o.Agent
	}
	return robotstxt.ProductToken(o.UserAgent)
}
