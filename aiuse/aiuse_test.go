package aiuse

import (
	"net/http"
	"strings"
	"testing"

	"github.com/robotstxt-go/robotstxt"
	"github.com/robotstxt-go/robotstxt/crawlers"
)

// TestAsk pins the answers, each row on the page, draft section or
// choice (package doc) it follows.
func TestAsk(t *testing.T) {
	const cfManaged = "User-agent: *\nContent-Signal: search=yes,ai-train=no,use=reference\nAllow: /\n"
	tests := []struct {
		why     string
		robots  string
		header  http.Header
		html    string
		op      string
		use     crawlers.Use
		url     string
		want    Verdict
		decider string // the deciding signal's String, or ""
	}{
		{"Google's Google-Extended page: disallowing it keeps Gemini training out",
			"User-agent: Google-Extended\nDisallow: /\n", nil, "", "Google", crawlers.UseTraining, "/a",
			NotAllowed, "robots.txt line 2 (Google-Extended): Disallow: /"},
		{"Google's Google-Extended page: ... and Google Search is not affected",
			"User-agent: Google-Extended\nDisallow: /\n", nil, "", "Google", crawlers.UseSearch, "/a",
			NotStated, ""},
		{"Google's page: grounding is governed by Google-Extended too",
			"User-agent: Google-Extended\nDisallow: /\n", nil, "", "Google", crawlers.UseAIInput, "/a",
			NotAllowed, "robots.txt line 2 (Google-Extended): Disallow: /"},
		{"a control token's use needs its fetcher: Googlebot kept out makes Gemini training not crawlable",
			"User-agent: Googlebot\nDisallow: /\n", nil, "", "Google", crawlers.UseTraining, "/a",
			NotCrawlable, "robots.txt line 2 (Googlebot): Disallow: /"},
		{"choice: a * disallow binds Google-Extended, a token like any other",
			"User-agent: Googlebot\nAllow: /\nUser-agent: *\nDisallow: /\n", nil, "", "Google", crawlers.UseTraining, "/a",
			NotAllowed, "robots.txt line 4 (Google-Extended): Disallow: /"},
		{"choice: a group naming the token that allows the URL says yes",
			"User-agent: GPTBot\nAllow: /\n", nil, "", "OpenAI", crawlers.UseTraining, "/a",
			Allowed, "robots.txt line 2 (GPTBot): Allow: /"},
		{"choice: an allow by * says nothing of the use",
			"User-agent: *\nAllow: /\n", nil, "", "OpenAI", crawlers.UseTraining, "/a",
			NotStated, ""},
		{"OpenAI's bots page: disallowing GPTBot keeps training out; its crawler cannot fetch",
			"User-agent: GPTBot\nDisallow: /\n", nil, "", "OpenAI", crawlers.UseTraining, "/a",
			NotCrawlable, "robots.txt line 2 (GPTBot): Disallow: /"},
		{"OpenAI's bots page: each setting is independent: search unaffected",
			"User-agent: GPTBot\nDisallow: /\n", nil, "", "OpenAI", crawlers.UseSearch, "/a",
			NotStated, ""},
		{"Cloudflare's managed robots.txt: ai-train=no says no to training",
			cfManaged, nil, "", "Anthropic", crawlers.UseTraining, "/a",
			NotAllowed, "robots.txt Content-Signal line 2 (ClaudeBot): ai-train=no"},
		{"Cloudflare's managed robots.txt: search=yes says yes to search",
			cfManaged, nil, "", "Anthropic", crawlers.UseSearch, "/a",
			Allowed, "robots.txt Content-Signal line 2 (Claude-SearchBot): search=yes"},
		{"Content Signals Policy: an omitted signal neither grants nor restricts",
			cfManaged, nil, "", "Google", crawlers.UseAIInput, "/a",
			NotStated, ""},
		{"vocab-08 §5.1: a disallow wins over an allow",
			"User-agent: GPTBot\nAllow: /\nContent-Usage: train-ai=n\n", nil, "", "OpenAI", crawlers.UseTraining, "/a",
			NotAllowed, "robots.txt Content-Usage line 3 (GPTBot): train-ai=n"},
		{"vocab-08 §4.3: a search use reads the search preference alone",
			"User-agent: *\nContent-Usage: train-ai=n, ai-use=n, search=y\n", nil, "", "Microsoft", crawlers.UseSearch, "/a",
			Allowed, "robots.txt Content-Usage line 2 (bingbot): search=y"},
		{"choice: a user's fetch reads ai-use",
			"User-agent: *\nContent-Usage: ai-use=n\n", nil, "", "Anthropic", crawlers.UseUserFetch, "/a",
			NotAllowed, "robots.txt Content-Usage line 2 (Claude-User): ai-use=n"},
		{"choice: the fetcher's group's usage lines count for a control token's use",
			"User-agent: Googlebot\nContent-Usage: train-ai=n\n", nil, "", "Google", crawlers.UseTraining, "/a",
			NotAllowed, "robots.txt Content-Usage line 2 (Googlebot): train-ai=n"},
		{"attach-05 §2: the Content-Usage header",
			"", http.Header{"Content-Usage": {"train-ai=n"}}, "", "OpenAI", crawlers.UseTraining, "/a",
			NotAllowed, "Content-Usage header: train-ai=n"},
		{"Content-Signal as a response header, read like the line",
			"", http.Header{"Content-Signal": {"ai-train=yes, search=yes, ai-input=yes"}}, "", "OpenAI", crawlers.UseTraining, "/a",
			Allowed, "Content-Signal header: ai-train=yes"},
		{"Google's robots meta tag page: noindex keeps a page out of Search",
			"", nil, `<html><head><meta name="robots" content="noindex"></head></html>`, "Google", crawlers.UseSearch, "/a",
			NotAllowed, "page robots rules meta tag 1 (Googlebot): noindex"},
		{"X-Robots-Tag for another crawler does not reach Googlebot",
			"", http.Header{"X-Robots-Tag": {"bingbot: noindex"}}, "", "Google", crawlers.UseSearch, "/a",
			NotStated, ""},
		{"attach-05 §3.1: a URL that may not be fetched has no preference",
			"User-agent: *\nDisallow: /p\nContent-Signal: ai-train=yes\n", http.Header{"Content-Usage": {"train-ai=y"}}, "", "OpenAI", crawlers.UseTraining, "/p",
			NotCrawlable, "robots.txt line 2 (GPTBot): Disallow: /p"},
		{"RFC 9309 §2.3.1.4: an unreachable robots.txt disallows every crawler",
			"5xx", nil, "", "OpenAI", crawlers.UseSearch, "/a",
			NotCrawlable, "robots.txt (OAI-SearchBot): not crawlable"},
		{"RFC 9309 §2.3.1.3: no robots.txt states nothing of a use",
			"4xx", nil, "", "OpenAI", crawlers.UseSearch, "/a",
			NotStated, ""},
		{"Apple's page: Applebot obeys Googlebot's group when none names it",
			"User-agent: Googlebot\nDisallow: /x\n", nil, "", "Apple", crawlers.UseTraining, "/x/1",
			NotCrawlable, "robots.txt line 2 (Googlebot): Disallow: /x"},
		{"Perplexity's bots page: PerplexityBot is not used for training",
			"", nil, "", "Perplexity", crawlers.UseTraining, "/a",
			NoToken, ""},
	}
	for _, tt := range tests {
		site := Site{Robots: robotsOf(tt.robots)}
		if tt.header != nil || tt.html != "" {
			var html []byte
			if tt.html != "" {
				html = []byte(tt.html)
			}
			site.Page = ReadPage(tt.header, html)
		}
		a := site.Ask(tt.op, tt.use, tt.url)
		got := ""
		if s, ok := a.Decider(); ok {
			got = s.String()
		}
		if a.Verdict != tt.want || got != tt.decider {
			t.Errorf("%s\nAsk(%s, %s, %s) = %v decided by %q, want %v by %q\nsignals: %v",
				tt.why, tt.op, tt.use, tt.url, a.Verdict, got, tt.want, tt.decider, signalsText(a.Signals()))
		}
	}
}

// robotsOf reads a test's robots.txt: "4xx" and "5xx" stand for those
// statuses, anything else is a body.
func robotsOf(s string) *robotstxt.Robots {
	switch s {
	case "4xx":
		return robotstxt.FromStatus(404, nil)
	case "5xx":
		return robotstxt.FromStatus(503, nil)
	}
	return robotstxt.Parse([]byte(s))
}

func signalsText(ss []Signal) string {
	var out []string
	for _, s := range ss {
		out = append(out, s.String()+" ["+s.Says.String()+"]")
	}
	return strings.Join(out, "; ")
}

// TestContentUseReported: the content-use level is reported with its
// meaning and decides nothing (package doc).
func TestContentUseReported(t *testing.T) {
	site := Site{Robots: robotstxt.Parse([]byte("User-agent: *\nContent-Signal: use=immediate\n"))}
	a := site.Ask("OpenAI", crawlers.UseTraining, "/a")
	if a.Verdict != NotStated {
		t.Errorf("verdict %v, want not stated", a.Verdict)
	}
	found := false
	for _, s := range a.Signals() {
		if s.Use == robotstxt.UseImmediate {
			found = true
			if want := "robots.txt Content-Signal line 2 (GPTBot): use=immediate (interact with the content; store and reuse none of it)"; s.String() != want {
				t.Errorf("signal %q, want %q", s.String(), want)
			}
		}
	}
	if !found {
		t.Errorf("use=immediate not reported: %v", signalsText(a.Signals()))
	}
}
