package robotstxt

import (
	"fmt"
	"strings"
	"testing"
)

// productTokenTests are User-Agent headers as crawlers send them, from the
// crawlers' own documentation pages, and the token their robots.txt groups
// use.
var productTokenTests = []struct {
	ua     string
	want   string
	reason string
}{
	// Crawlers that pose as a browser and name themselves in a comment.
	{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot",
		"Googlebot desktop, classic form: the item after \"compatible\" (rule 3)"},
	{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/131.0.6778.69 Safari/537.36", "Googlebot",
		"Googlebot desktop, evergreen form: \"compatible\" in the middle of a comment, items split on ',' and ';'"},
	{"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.69 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot",
		"Googlebot smartphone: \"Nexus 5X Build/MMB29P\" has a space, so the first comment names nothing"},
	{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "bingbot",
		"bingbot, classic form; the case is kept, matching is case-insensitive"},
	{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36", "bingbot",
		"bingbot, evergreen form"},
	{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)", "GPTBot",
		"GPTBot"},
	{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)", "Applebot",
		"Applebot: no \"compatible\", the comment's first item is Name/Version"},
	{"Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", "YandexBot",
		"YandexBot"},
	{"Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)", "Baiduspider",
		"Baiduspider"},
	{"Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)", "AhrefsBot",
		"AhrefsBot"},
	{"Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)", "Bytespider",
		"after \"compatible\" a bare name without version counts"},
	{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot", "GPTBot",
		"issue 17 item 5: OpenAI writes \"compatible\" outside the comment"},
	{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot", "ChatGPT-User",
		"issue 17 item 5: ChatGPT-User, the same form"},
	{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot", "OAI-SearchBot",
		"issue 17 item 5: OAI-SearchBot, the same form"},
	{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36; compatible; OAI-SearchBot/1.3; +https://openai.com/searchbot", "OAI-SearchBot",
		"OpenAI's later form: \"compatible\" after the last product, outside any comment"},
	{"Mozilla/5.0 (X11; Linux x86_64; Storebot-Google/1.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.88 Safari/537.36", "Storebot-Google",
		"issue 17 item 5: Storebot-Google desktop, the third item of the first comment"},
	{"Mozilla/5.0 (Linux; Android 8.0; Pixel 2 Build/OPD3.170816.012; Storebot-Google/1.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/81.0.4044.138 Mobile Safari/537.36", "Storebot-Google",
		"Storebot-Google mobile: the last item of the first comment"},
	{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)", "ClaudeBot",
		"ClaudeBot"},
	{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)", "PerplexityBot",
		"PerplexityBot"},
	{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36", "Amazonbot",
		"Amazonbot"},
	{"meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)", "meta-externalagent",
		"meta-externalagent: its own product first"},
	{"CCBot/2.0 (https://commoncrawl.org/faq/)", "CCBot", "CCBot"},
	{"Mozilla/5.0 (compatible; Googlebot/2.1)", "Googlebot",
		"the short form a user may pass on the command line"},

	// Crawlers whose header starts with their own product.
	{"facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", "facebookexternalhit",
		"facebookexternalhit: the first product (rule 2)"},
	{"DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)", "DuckDuckBot",
		"DuckDuckBot: the product ends at ';'"},
	{"Googlebot-Image/1.0", "Googlebot-Image", "a product alone; '-' is part of a token"},
	{"Foobot/1.0 (+https://foo.example/bot)", "Foobot", "the shape RFC 9309 §2.2.1 suggests"},
	{"Foobot(+https://foo.example/bot)", "Foobot", "a comment straight after the name"},
	{"Foobot", "Foobot", "a product token is its own token (rule 1)"},
	{"  Foo_bot\t", "Foo_bot", "surrounding spaces and tabs are trimmed"},
	{"curl/8.5.0", "curl", "any first product that is not a browser's"},

	// Headers that name no product token.
	{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", "",
		"a plain browser: platform and engine comments name no crawler"},
	{"Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0", "",
		"Firefox"},
	{"Mozilla/5.0 (Linux; U; Android 4.0.3; ko-kr; LG-L160L Build/IML74K) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30", "",
		"a build item inside a platform comment has spaces"},
	{"Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.1; Trident/6.0)", "",
		"Internet Explorer: the item after \"compatible\" is \"MSIE 10.0\", not a token, so the comment names nothing"},
	{"Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko", "",
		"Internet Explorer 11: Trident/7.0 is a Name/Version item of the first comment, but a browser engine"},
	{"Opera/9.80 (X11; Linux x86_64; U; en) Presto/2.2.15 Version/10.00", "", "old Opera starts with its own name, like Mozilla"},
	{"Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)", "",
		"\"Yahoo! Slurp\" is no single token"},
	{"360Spider/1.0", "", "a digit is not a token byte, and robots.txt cannot name this crawler"},
	{"Foobot/1.0", "Foobot", "a version alone"},
	{"", "", "empty header"},
	{"Mozilla/5.0", "", "a browser product alone"},
	{"Mozilla/5.0 (compatible;", "", "a comment cut short names nothing"},
	{"Mozilla/5.0 (compatible; Foobot/1.0", "Foobot", "an unclosed comment runs to the end"},
	{"Mozilla/5.0 ((nested) ; compatible; Foobot/1.0)", "Foobot", "a nested comment does not end the outer one"},
	{"/1.0", "", "a version without a name"},
	{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko); Foobot/1.0", "",
		"outside a comment, a product counts only after \"compatible\""},
	{"Mozilla/5.0 (X11; Linux x86_64) (Foo; Foobot/1.0)", "",
		"in a later comment only the first item counts"},
	{"Mozilla/5.0 (Windows; Gecko/20100101)", "", "an engine in the first comment names no crawler"},
}

func TestProductToken(t *testing.T) {
	for _, tt := range productTokenTests {
		if tt.reason == "" {
			t.Fatalf("row %q has no reason", tt.ua)
		}
		got := ProductToken(tt.ua)
		if got != tt.want {
			t.Errorf("ProductToken(%q) = %q, want %q (%s)", tt.ua, got, tt.want, tt.reason)
		}
		if got != "" && !ValidAgent(got) {
			t.Errorf("ProductToken(%q) = %q, which is not a valid agent", tt.ua, got)
		}
	}
}

// TestProductTokenSelectsGroup checks the point of ProductToken: the token
// found in a crawler's header selects the crawler's group, where the header
// itself would silently select the global group.
func TestProductTokenSelectsGroup(t *testing.T) {
	r := Parse([]byte("User-agent: googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /all\n"))
	ua := "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	if !r.Allowed(ua, "/g") {
		t.Fatalf("the header as agent should fall to the global group (Allowed takes a token as given)")
	}
	if r.Allowed(ProductToken(ua), "/g") {
		t.Errorf("the header's token %q did not select the googlebot group", ProductToken(ua))
	}
}

func TestProductTokenNoAllocs(t *testing.T) {
	for _, tt := range productTokenTests {
		if n := testing.AllocsPerRun(100, func() { ProductToken(tt.ua) }); n != 0 {
			t.Errorf("ProductToken(%q): %v allocs, want 0", tt.ua, n)
		}
	}
}

// FuzzProductToken checks that ProductToken never panics and returns either
// "" or a valid product token that occurs in the header.
func FuzzProductToken(f *testing.F) {
	for _, tt := range productTokenTests {
		f.Add(tt.ua)
	}
	f.Fuzz(func(t *testing.T, ua string) {
		got := ProductToken(ua)
		if got != "" && (!ValidAgent(got) || !strings.Contains(ua, got)) {
			t.Fatalf("ProductToken(%q) = %q", ua, got)
		}
	})
}

// A crawler knows its User-Agent header; robots.txt groups name its product
// token. ProductToken finds the one in the other.
func ExampleProductToken() {
	for _, ua := range []string{
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)",
		"facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
		"Foobot",
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
	} {
		fmt.Printf("%q\n", ProductToken(ua))
	}
	// Output:
	// "Googlebot"
	// "GPTBot"
	// "facebookexternalhit"
	// "Foobot"
	// ""
}
