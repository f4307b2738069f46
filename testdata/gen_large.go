//go:build ignore

// gen_large writes testdata/large.txt, a large robots.txt shaped like those
// of big news, retail and documentation sites: a long comment header, many
// named crawler groups (some sharing a group, some blocked outright), one
// large "*" group with prefix rules, wildcards, '$' anchors, %-escapes,
// non-ASCII paths, index.html allows, inline comments, Crawl-delay and other
// keys, and a block of sitemaps. The output is deterministic: it depends only
// on the fixed seed below.
//
//	go run testdata/gen_large.go > testdata/large.txt
package main

import (
	"bufio"
	"fmt"
	"os"
)

// rng is a 64-bit linear congruential generator (Knuth's MMIX constants),
// spelled out so the output never depends on math/rand's algorithms.
type rng uint64

func (r *rng) next() uint64 {
	*r = *r*6364136223846793005 + 1442695040888963407
	return uint64(*r) >> 11
}

func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

func (r *rng) pick(s []string) string { return s[r.intn(len(s))] }

var (
	sections = []string{"news", "sport", "business", "opinion", "video", "live",
		"search", "account", "checkout", "cart", "api", "static", "media", "tag",
		"author", "archive", "print", "amp", "preview", "internal", "wp-admin",
		"cgi-bin", "docs", "products", "category", "collections", "promo",
		"de", "fr", "es", "ja", "zh-cn", "pt-br", "help", "community", "forum"}
	words = []string{"alpha", "beta", "gamma", "delta", "item", "page", "list",
		"detail", "print", "share", "comments", "gallery", "sort", "filter",
		"compare", "wishlist", "login", "logout", "register", "feed", "rss",
		"embed", "widget", "export", "download", "preview", "draft", "tmp"}
	params = []string{"sort", "order", "page", "filter", "q", "ref", "utm_source",
		"sessionid", "sid", "replytocom", "color", "size", "price", "view", "format"}
	exts    = []string{"pdf", "json", "xml", "php", "asp", "js", "css", "doc", "xls", "zip"}
	nonASCI = []string{"café", "über-uns", "größe", "niños", "ニュース", "新闻", "предметы", "ürün"}
	bots    = []string{"Googlebot", "Googlebot-Image", "Googlebot-News", "Bingbot",
		"Slurp", "DuckDuckBot", "Baiduspider", "YandexBot", "Applebot", "AdsBot-Google",
		"Mediapartners-Google", "facebookexternalhit", "Twitterbot", "LinkedInBot",
		"AhrefsBot", "SemrushBot", "MJ12bot", "DotBot", "PetalBot", "Bytespider",
		"GPTBot", "ChatGPT-User", "CCBot", "ClaudeBot", "anthropic-ai", "Google-Extended",
		"PerplexityBot", "Amazonbot", "Omgilibot", "Diffbot", "ImagesiftBot", "cohere-ai",
		"magpie-crawler", "YouBot", "Timpibot", "FacebookBot", "Meta-ExternalAgent",
		"AI2Bot", "Scrapy", "python-requests", "Wget", "HTTrack", "SiteSnagger",
		"WebCopier", "Zealbot", "MSIECrawler", "larbin", "libwww", "sitecheck.internetseer.com"}
)

func main() {
	r := rng(9309)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	p := func(format string, a ...any) { fmt.Fprintf(w, format+"\n", a...) }

	p("# robots.txt for www.example.com")
	p("#")
	for i := 0; i < 40; i++ {
		p("# %s %s %s %s: see https://www.example.com/%s/%s for the crawling policy.",
			r.pick(words), r.pick(words), r.pick(words), r.pick(words), r.pick(sections), r.pick(words))
	}
	p("")

	// Named crawlers: some get their own group, some share one, some are
	// blocked outright as many sites now do for AI crawlers.
	for i := 0; i < len(bots); {
		n := 1 + r.intn(3)
		for j := 0; j < n && i < len(bots); j++ {
			if r.intn(4) == 0 {
				p("User-agent: %s/%d.%d (+https://%s.example.org/bot.html)", bots[i], 1+r.intn(3), r.intn(10), bots[i])
			} else {
				p("User-agent: %s", bots[i])
			}
			i++
		}
		switch r.intn(4) {
		case 0:
			p("Disallow: /")
		case 1:
			p("Crawl-delay: %d", 1+r.intn(30))
			fallthrough
		default:
			for k := 0; k < 10+r.intn(60); k++ {
				rule(p, &r)
			}
		}
		p("")
	}

	// The big global group.
	p("User-agent: *")
	for k := 0; k < 6000; k++ {
		if k%200 == 0 {
			p("")
			p("# %s section", r.pick(sections))
		}
		rule(p, &r)
	}
	p("Crawl-delay: 2")
	p("Host: www.example.com")
	p("Clean-param: ref /%s/", r.pick(sections))
	p("")
	for i := 0; i < 120; i++ {
		p("Sitemap: https://www.example.com/sitemaps/%s-%d.xml.gz", r.pick(sections), i)
	}
}

// rule writes one Allow or Disallow line of a realistic shape.
func rule(p func(string, ...any), r *rng) {
	key := "Disallow"
	if r.intn(5) == 0 {
		key = "Allow"
	}
	s, w := r.pick(sections), r.pick(words)
	var v string
	switch r.intn(14) {
	case 0, 1, 2:
		v = fmt.Sprintf("/%s/%s/", s, w)
	case 3:
		v = fmt.Sprintf("/%s/%s-%d/%s", s, w, r.intn(10000), r.pick(words))
	case 4:
		key = "Disallow"
		v = fmt.Sprintf("/*?%s=", r.pick(params))
	case 5:
		v = fmt.Sprintf("/%s/*&%s=*", s, r.pick(params))
	case 6:
		v = fmt.Sprintf("/*.%s$", r.pick(exts))
	case 7:
		v = fmt.Sprintf("/%s/*/%s/*.%s$", s, w, r.pick(exts))
	case 8:
		v = fmt.Sprintf("/%s/%s%%2f%s%%3d%d", s, w, r.pick(words), r.intn(100))
	case 9:
		v = fmt.Sprintf("/%s/%s/", s, r.pick(nonASCI))
	case 10:
		key = "Allow"
		v = fmt.Sprintf("/%s/%s/index.html", s, w)
	case 11:
		v = fmt.Sprintf("/%s/%s/%d$", s, w, r.intn(1000))
	case 12:
		v = fmt.Sprintf("*/%s/%s*", w, r.pick(words))
	default:
		v = fmt.Sprintf("/%s/%s/%s.%s", s, w, r.pick(words), r.pick(exts))
	}
	switch r.intn(12) {
	case 0:
		p("%s: %s # %s %s", key, v, r.pick(words), r.pick(words))
	case 1:
		p("%s:%s", key, v)
	default:
		p("%s: %s", key, v)
	}
}
