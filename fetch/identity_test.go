package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/robotstxt-go/robotstxt/fetch/fetchtest"
)

const foobotRules = "User-agent: foobot\nDisallow: /foo/\n\nUser-agent: *\nDisallow: /all/\n"

func foobotSites() *fetchtest.Sites {
	return fetchtest.NewSites(map[string]fetchtest.Answer{
		"example.com": {Body: foobotRules + "Disallow: /ü/\n"},
	}, nil)
}

// TestCacheAgentValidation checks that a question whose agent is no product
// token fails with an error naming the problem, instead of being answered
// silently for the global group.
func TestCacheAgentValidation(t *testing.T) {
	tests := []struct {
		agent   string
		allowed bool
		token   string // AgentError.Token, when an error is wanted
		err     bool
		reason  string
	}{
		{"Foobot", false, "", false, "a product token selects its group"},
		{"FOOBOT", false, "", false, "matched without case, as the core does"},
		{"Barbot", true, "", false, "a token no group names gets the global group: that is no mistake"},
		{"Foobot/1.0", false, "Foobot", true, "a version makes it no token; the error suggests the token"},
		{"Mozilla/5.0 (compatible; Foobot/1.0; +https://foo.example/bot)", false, "Foobot", true, "a whole User-Agent header"},
		{"Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0.0.0 Safari/537.36", false, "", true, "a browser header names no token"},
		{"", false, "", true, "the empty agent"},
		{"*", false, "", true, "'*' is the global group's name, not a crawler's"},
		{"foo bot", false, "foo", true, "a space"},
		{"Foo2bot", false, "", true, "a digit: robots.txt reduces \"Foo2bot\" to \"Foo\", so no file can name it"},
	}
	c := NewCache(&Options{Client: foobotSites().Client()})
	for _, tt := range tests {
		ok, err := c.For(tt.agent).Allowed(context.Background(), "http://example.com/foo/x")
		if !tt.err {
			if err != nil || ok != tt.allowed {
				t.Errorf("Allowed(%q) = %v, %v; want %v, nil (%s)", tt.agent, ok, err, tt.allowed, tt.reason)
			}
			continue
		}
		var ae *AgentError
		if !errors.As(err, &ae) || !errors.Is(err, errInvalidAgent) || ok {
			t.Errorf("Allowed(%q) = %v, %v; want false and an *AgentError (%s)", tt.agent, ok, err, tt.reason)
			continue
		}
		if ae.Agent != tt.agent || ae.Token != tt.token {
			t.Errorf("Allowed(%q): AgentError{%q, %q}, want {%q, %q} (%s)", tt.agent, ae.Agent, ae.Token, tt.agent, tt.token, tt.reason)
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "robotstxt: ") || tt.token != "" && !strings.Contains(msg, `"`+tt.token+`"`) {
			t.Errorf("Allowed(%q): message %q should start with the package and name the token %q (%s)", tt.agent, msg, tt.token, tt.reason)
		}
	}
	if c.Len() != 1 {
		t.Errorf("%d origins cached; an invalid agent should fetch nothing more", c.Len())
	}
}

// TestCacheIdentity checks that the crawler states its identity once: the
// token comes from Options.Agent, or from the User-Agent header.
func TestCacheIdentity(t *testing.T) {
	tests := []struct {
		userAgent, agent string
		want             string
		reason           string
	}{
		{"Foobot/1.0 (+https://foo.example/bot)", "", "Foobot", "the token is found in the header"},
		{"Mozilla/5.0 (compatible; Foobot/1.0; +https://foo.example/bot)", "", "Foobot", "a browser-like header"},
		{"Mozilla/5.0 (compatible; Foobot/1.0)", "Barbot", "Barbot", "Agent, when set, is the token"},
		{"", "", "", "no identity at all"},
		{"Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0.0.0 Safari/537.36", "", "", "a browser header gives no token"},
		{"", "Foobot/1.0", "Foobot/1.0", "an invalid Agent is kept as given, to be refused"},
	}
	for _, tt := range tests {
		c := NewCache(&Options{Client: foobotSites().Client(), UserAgent: tt.userAgent, Agent: tt.agent})
		if got := c.Agent(); got != tt.want {
			t.Errorf("UserAgent %q, Agent %q: Agent() = %q, want %q (%s)", tt.userAgent, tt.agent, got, tt.want, tt.reason)
		}
		d, err := c.Decide(context.Background(), "http://example.com/foo/x")
		switch {
		case tt.want == "Foobot":
			if err != nil || d.Allowed || d.Line != 2 {
				t.Errorf("%q: Decide = %v line %d, %v; want the foobot group's line 2 (%s)", tt.userAgent, d.Allowed, d.Line, err, tt.reason)
			}
		case tt.want == "Barbot":
			if err != nil || !d.Allowed {
				t.Errorf("%q: Decide = %v, %v; want the global group's answer (%s)", tt.agent, d.Allowed, err, tt.reason)
			}
		default:
			if !errors.Is(err, errInvalidAgent) {
				t.Errorf("%q, %q: Decide error %v, want errInvalidAgent (%s)", tt.userAgent, tt.agent, err, tt.reason)
			}
		}
	}
}

// TestCacheAllowedOwnAgent checks that the cache answers for its own token.
func TestCacheAllowedOwnAgent(t *testing.T) {
	sites := foobotSites()
	c := NewCache(&Options{Client: sites.Client(), UserAgent: "Foobot/1.0"})
	ok, err := c.Allowed(context.Background(), "http://example.com/foo/x")
	if ok || err != nil {
		t.Errorf("Allowed = %v, %v; want false, nil by the foobot group", ok, err)
	}
	_, err = NewCache(&Options{Client: sites.Client()}).Allowed(context.Background(), "http://example.com/")
	if !errors.Is(err, errInvalidAgent) || !strings.Contains(err.Error(), "no agent") {
		t.Errorf("Allowed without identity: %v, want an error saying there is no agent", err)
	}
}

// TestCacheNormalizes checks that the cache matches URLs in the form the
// rules are stored in.
func TestCacheNormalizes(t *testing.T) {
	c := NewCache(&Options{Client: foobotSites().Client(), UserAgent: "Barbot/1.0"})
	tests := []struct {
		url     string
		allowed bool
		reason  string
	}{
		{"http://example.com/ü/x", false, "a raw non-ASCII href meets Disallow: /ü/"},
		{"http://example.com/%c3%bc/x", false, "lower-case escapes meet it too"},
		{"http://example.com/%C3%BC/x", false, "the stored form itself"},
		{"http://example.com/u/x", true, "another path"},
		{"http://example.com/%2Fall/x", true, "escapes are not decoded: %2F is no '/'"},
	}
	for _, tt := range tests {
		ok, err := c.Allowed(context.Background(), tt.url)
		if err != nil || ok != tt.allowed {
			t.Errorf("Allowed(%q) = %v, %v; want %v (%s)", tt.url, ok, err, tt.allowed, tt.reason)
		}
	}
}

// TestCacheAllowedOwnAgentNoAllocs checks that asking for the cache's own token costs
// no allocation on a cached origin.
func TestCacheAllowedOwnAgentNoAllocs(t *testing.T) {
	c := NewCache(&Options{Client: foobotSites().Client(), UserAgent: "Foobot/1.0"})
	ctx := context.Background()
	const u = "http://example.com/foo/y?z"
	if _, err := c.Allowed(ctx, u); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(1000, func() { c.Allowed(ctx, u) }); n != 0 {
		t.Errorf("Allowed on a cached origin: %v allocs, want 0", n)
	}
}

// TestTransportSendsOneIdentity checks issue 17 item 1 against a real
// server: the crawler states its User-Agent once, in the cache's Options,
// and every request the server gets carries it, robots.txt and pages
// alike; a request that sets another header, as colly sets its own on
// every request, goes out with the crawler's instead (#27).
func TestTransportSendsOneIdentity(t *testing.T) {
	const ua = "ExampleBot/1.0 (+https://example.com/bot)"
	var mu sync.Mutex
	got := map[string]string{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got[r.URL.Path] = r.UserAgent()
		mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: ExampleBot\nDisallow: /private\n")
		}
	}))
	defer srv.Close()
	cache := NewCache(&Options{UserAgent: ua})
	client := &http.Client{Transport: NewTransport(nil, cache)}
	for _, p := range []string{"/a", "/b?q=1", "/c"} {
		resp, err := client.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/own", nil)
	req.Header.Set("User-Agent", "Special/2.0")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if _, err := client.Get(srv.URL + "/private/x"); !errors.Is(err, ErrDisallowed) {
		t.Errorf("GET /private/x: %v, want ErrDisallowed: the rules are chosen for ExampleBot", err)
	}
	want := map[string]string{"/robots.txt": ua, "/a": ua, "/b": ua, "/c": ua, "/own": ua}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("User-Agent per path (-want +got):\n%s", diff)
	}
	if req.Header.Get("User-Agent") != "Special/2.0" || len(req.Header) != 1 {
		t.Errorf("the caller's request was modified: %v", req.Header)
	}
}

// TestUnreadableHeader checks issue 17 item 5's last sentence: a header in
// which no product token can be read fails with an error that says so and
// how to set the token.
func TestUnreadableHeader(t *testing.T) {
	const ua = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36"
	cache := NewCache(&Options{Client: foobotSites().Client(), UserAgent: ua})
	_, err := cache.Allowed(context.Background(), "http://example.com/")
	var ae *AgentError
	if !errors.As(err, &ae) || ae.UserAgent != ua {
		t.Fatalf("Allowed: %v, want an AgentError naming the header", err)
	}
	for _, want := range []string{"no product token", strconv.Quote(ua), "Options.Agent"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	_, err = (&http.Client{Transport: NewTransport(foobotSites(), cache)}).Get("http://example.com/")
	if !errors.As(err, &ae) || ae.UserAgent != ua {
		t.Errorf("Transport: %v, want the same AgentError", err)
	}
	cache = NewCache(&Options{Client: foobotSites().Client(), UserAgent: ua, Agent: "Foobot"})
	if _, err := cache.Allowed(context.Background(), "http://example.com/"); err != nil {
		t.Errorf("with Options.Agent set: %v", err)
	}
}

// TestCacheFor checks that a view for another agent answers by that
// agent's group, shares the cache's fetches, and leaves the cache's own
// identity as it was.
func TestCacheFor(t *testing.T) {
	sites := foobotSites()
	c := NewCache(&Options{Client: sites.Client(), UserAgent: "Foobot/1.0"})
	ctx := context.Background()
	const u = "http://example.com/foo/x"
	tests := []struct {
		c       *Cache
		agent   string
		allowed bool
		reason  string
	}{
		{c, "Foobot", false, "the cache's own token: the foobot group disallows /foo/"},
		{c.For("Barbot"), "Barbot", true, "another token: the global group, which does not name /foo/"},
		{c.For("Barbot").For("FOOBOT"), "FOOBOT", false, "a view of a view answers for its own agent, compared ignoring case"},
	}
	for _, tt := range tests {
		ok, err := tt.c.Allowed(ctx, u)
		if err != nil || ok != tt.allowed || tt.c.Agent() != tt.agent {
			t.Errorf("%s: Allowed = %v, %v; Agent() = %q; want %v, %q (%s)", tt.agent, ok, err, tt.c.Agent(), tt.allowed, tt.agent, tt.reason)
		}
	}
	if n := sites.Fetches("example.com"); n != 1 {
		t.Errorf("robots.txt fetched %d times, want once for the cache and its views", n)
	}
	if v := c.For("Barbot"); v.UserAgent() != "Barbot" || c.UserAgent() != "Foobot/1.0" {
		t.Errorf("UserAgent: view %q, cache %q; want the view's agent and the cache's header", v.UserAgent(), c.UserAgent())
	}
}
