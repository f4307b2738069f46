package robotstxt

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// concurrentBody has several groups, merged and global agents, wildcards,
// anchors, escapes, the "/index.htm" fallback, sitemaps and other lines, so
// that concurrent queries go through every part of a Robots.
const concurrentBody = `# robots.txt for concurrent use
User-agent: Googlebot
User-agent: bingbot
Disallow: /private/
Allow: /private/press/
Allow: /d/index.html
Crawl-delay: 2

User-agent: *
Disallow: /*.pdf$
Disallow: /search?q=*
Allow: /caf%c3%a9/
Disallow: /café
Host: example.com

Sitemap: https://example.com/a.xml
User-agent: googlebot
Disallow: /*/tmp/*
Disallow:
Sitemap: https://example.com/b.xml
Sitemap: https://example.com/a.xml
Clean-param: ref /d/
`

// TestConcurrentUse has many goroutines share one Robots and its Group
// values and ask them everything at once, comparing each answer with the
// one computed serially beforehand. Run with -race, it shows that queries
// write nothing shared and that returned slices are the caller's own.
func TestConcurrentUse(t *testing.T) {
	r := Parse([]byte(concurrentBody))
	agents := []string{"Googlebot", "googlebot", "BINGBOT", "GPTBot", "", "Googlebot/2.1"}
	urls := []string{
		"/", "https://example.com/private/x", "/private/press/y", "/d/", "/d/index.html",
		"/a/b.pdf", "/a/b.pdf?x", "/search?q=go", "/caf%C3%A9/menu", "/café", "/x/tmp/y",
		"https://example.com?q", ";p",
	}

	want := make([]concurrentAnswers, len(agents))
	for i, a := range agents {
		g := r.Group(a)
		want[i] = concurrentAnswers{group: g, rules: g.Rules(), others: g.Others()}
		want[i].delay, want[i].delayOK = g.CrawlDelay()
		for _, u := range urls {
			want[i].decisions = append(want[i].decisions, r.Decide(a, u))
		}
	}
	sitemaps := r.Sitemaps()

	const goroutines, rounds = 32, 50
	var wg sync.WaitGroup
	for n := range goroutines {
		wg.Go(func() {
			for round := range rounds {
				if err := askAll(r, agents, urls, want, sitemaps, n+round); err != nil {
					t.Errorf("goroutine %d, round %d: %v", n, round, err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// concurrentAnswers are what one agent gets, computed serially, and the
// Group that the goroutines share.
type concurrentAnswers struct {
	group     Group
	decisions []Decision // one per URL
	rules     []Rule
	others    []Other
	delay     time.Duration
	delayOK   bool
}

// askAll asks every question once, starting at a different agent and URL
// for each offset so that goroutines do not move in step, and compares the
// answers with want. It scribbles over the slices it gets back, which must
// not change what anyone else sees.
func askAll(r *Robots, agents, urls []string, want []concurrentAnswers, sitemaps []string, offset int) error {
	for k := range agents {
		i := (k + offset) % len(agents)
		a, w := agents[i], want[i]
		for l := range urls {
			j := (l + offset) % len(urls)
			u := urls[j]
			if got := r.Decide(a, u); got != w.decisions[j] {
				return fmt.Errorf("Decide(%q, %q) = %+v, want %+v", a, u, got, w.decisions[j])
			}
			if got := r.Allowed(a, u); got != w.decisions[j].Allowed {
				return fmt.Errorf("Allowed(%q, %q) = %v, want %v", a, u, got, w.decisions[j].Allowed)
			}
			if got := w.group.Decide(u); got != w.decisions[j] {
				return fmt.Errorf("shared Group(%q).Decide(%q) = %+v, want %+v", a, u, got, w.decisions[j])
			}
		}
		if got := w.group.Rules(); !slices.Equal(got, w.rules) {
			return fmt.Errorf("Group(%q).Rules() = %+v, want %+v", a, got, w.rules)
		} else if len(got) > 0 {
			got[0].Pattern = "scribbled"
		}
		if got := r.Group(a).Others(); !slices.Equal(got, w.others) {
			return fmt.Errorf("Group(%q).Others() = %+v, want %+v", a, got, w.others)
		} else if len(got) > 0 {
			got[0].Value = "scribbled"
		}
		if d, ok := r.CrawlDelay(a); d != w.delay || ok != w.delayOK {
			return fmt.Errorf("CrawlDelay(%q) = %v, %v, want %v, %v", a, d, ok, w.delay, w.delayOK)
		}
	}
	got := r.Sitemaps()
	if !slices.Equal(got, sitemaps) {
		return fmt.Errorf("Sitemaps() = %q, want %q", got, sitemaps)
	}
	if len(got) > 0 {
		got[0] = "scribbled"
	}
	return nil
}
