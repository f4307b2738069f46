package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
)

// TestIdentityRuleStated checks the error of a crawler whose name is no
// product token, such as "nc5bot" (the real MJ12bot has a digit too): one
// message, the first the crawler sees, states the rule (letters, '-' and
// '_' only, RFC 9309 §2.2.1) and why it matters (Google's parser reads
// "User-agent: MJ12bot" as "MJ"), whether the name came in the User-Agent
// header or in Options.Agent; the cache and the Transport give the same
// one, and nothing is sent to the site.
func TestIdentityRuleStated(t *testing.T) {
	rule := []string{"letters, '-' and '_' only", "RFC 9309 §2.2.1", `"User-agent: MJ12bot"`, `"MJ"`}
	tests := []struct {
		name      string
		userAgent string
		agent     string
		says      []string // besides the rule
		reason    string
	}{
		{"header with a digit", "nc5bot/1.0 (+https://nc.example/bot)", "", []string{`"nc5bot/1.0 (+https://nc.example/bot)"`, "Options.Agent"},
			"the first error a crawler named nc5bot meets: it must say why, not only that no token was found"},
		{"MJ12bot's own header", "Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)", "", []string{"MJ12bot/v1.4.8"},
			"a browser-like header naming a crawler with a digit"},
		{"Agent with a digit", "nc5bot/1.0", "nc5bot", []string{`"nc5bot"`, `as "nc"`},
			"Options.Agent set to the same name: the same rule, with what Google reads it as"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newRobotsServer(t, func(w http.ResponseWriter, r *http.Request) {})
			cache := NewCache(&Options{UserAgent: tt.userAgent, Agent: tt.agent})
			built := cache.IdentityErr() // at construction, before any question
			tr := NewTransport(nil, cache)
			if built == nil || tr.Err() == nil || tr.Err().Error() != built.Error() {
				t.Fatalf("IdentityErr() = %v, Transport.Err() = %v; want the error at construction (%s)", built, tr.Err(), tt.reason)
			}
			_, cacheErr := cache.Allowed(context.Background(), srv.URL+"/page")
			resp, trErr := (&http.Client{Transport: tr}).Get(srv.URL + "/page")
			if resp != nil {
				resp.Body.Close()
			}
			var ae *AgentError
			if !errors.As(cacheErr, &ae) || !errors.Is(cacheErr, errInvalidAgent) || cacheErr.Error() != built.Error() {
				t.Fatalf("Allowed: %v, want an *AgentError (%s)", cacheErr, tt.reason)
			}
			msg := cacheErr.Error()
			for _, want := range append(rule, tt.says...) {
				if !strings.Contains(msg, want) {
					t.Errorf("the error does not say %s (%s):\n%s", want, tt.reason, msg)
				}
			}
			if trErr == nil || !strings.HasSuffix(trErr.Error(), msg) {
				t.Errorf("Transport: %v\nwant the cache's error: %s", trErr, msg)
			}
			if n := srv.count(); n != 0 {
				t.Errorf("%d robots.txt requests; an identity that no group can name sends none", n)
			}
		})
	}
}

// TestIdentityRuleFixed checks the way out the error gives: the header
// may keep its name, and Options.Agent names the token the crawler's
// robots.txt groups use; then nothing is refused.
func TestIdentityRuleFixed(t *testing.T) {
	srv := newRobotsServer(t, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: ncbot\nDisallow: /private\n")
	})
	cache := NewCache(&Options{UserAgent: "nc5bot/1.0 (+https://nc.example/bot)", Agent: "ncbot"})
	tr := NewTransport(nil, cache)
	if err := cache.IdentityErr(); err != nil || tr.Err() != nil {
		t.Fatalf("IdentityErr() = %v, Transport.Err() = %v; want nil with Options.Agent set", err, tr.Err())
	}
	if _, err := (&http.Client{Transport: tr}).Get(srv.URL + "/private/x"); !errors.Is(err, ErrDisallowed) {
		t.Errorf("GET /private/x: %v, want the ncbot group's Disallow", err)
	}
}

// TestIdentityRuleReason holds the reason the errors give, on this
// module's own parser, which reads User-agent values as Google's does: the
// group written "User-agent: MJ12bot" is the group of "MJ", and of no
// crawler that asks as "MJ12bot"; "nc5bot" likewise is read as "nc".
func TestIdentityRuleReason(t *testing.T) {
	for _, tt := range []struct{ written, readAs string }{{"MJ12bot", "MJ"}, {"nc5bot", "nc"}} {
		r := robotstxt.Parse([]byte("User-agent: " + tt.written + "\nDisallow: /\n"))
		if r.Allowed(tt.readAs, "/x") || !r.Allowed("Otherbot", "/x") {
			t.Errorf("\"User-agent: %s\" is not read as %q", tt.written, tt.readAs)
		}
	}
}
