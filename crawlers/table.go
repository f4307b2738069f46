package crawlers

// The sources below were read for the tokens, headers and behaviours they
// document; a header's version numbers are the ones shown there. Anthropic
// names its tokens but publishes no header; ClaudeBot's is the one its
// requests carry. Every header here must give its row's token through
// robotstxt.ProductToken (TestProductTokenCrawlers in the robotstxt
// package), so that a crawler configured with its own published header
// obeys robots.txt under its own name.
const (
	googleCommon  = "https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers"
	googleSpecial = "https://developers.google.com/search/docs/crawling-indexing/google-special-case-crawlers"
)

// apple is Apple's page on Applebot, which says that a file naming
// Googlebot but not Applebot is obeyed as for Googlebot.
const apple = "https://support.apple.com/en-us/119829"

// table lists the crawlers; each one's Obeys is completed by init from
// also.
var table = []Crawler{
	{Token: "Amazonbot", Operator: "Amazon", Purpose: AISearch,
		UserAgent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36",
		Source:    "https://developer.amazon.com/amazonbot"},
	{Token: "Claude-SearchBot", Operator: "Anthropic", Purpose: AISearch,
		Source: "https://support.anthropic.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler"},
	{Token: "Claude-User", Operator: "Anthropic", Purpose: AIUser,
		Source: "https://support.anthropic.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler"},
	{Token: "ClaudeBot", Operator: "Anthropic", Purpose: AITraining,
		UserAgent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
		Source:    "https://support.anthropic.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler"},
	{Token: "Applebot", Operator: "Apple", Purpose: Search,
		UserAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
		Source:    apple},
	{Token: "Applebot-Extended", Operator: "Apple", Purpose: AIControl,
		Source: apple},
	{Token: "Baiduspider", Operator: "Baidu", Purpose: Search,
		UserAgent: "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)",
		Source:    "https://www.baidu.com/search/spider.html"},
	{Token: "Bytespider", Operator: "ByteDance", Purpose: AITraining,
		UserAgent: "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)",
		Source:    "https://bytedance.com/en/"},
	{Token: "CCBot", Operator: "Common Crawl", Purpose: Archive,
		UserAgent: "CCBot/2.0 (https://commoncrawl.org/faq/)",
		Source:    "https://commoncrawl.org/ccbot"},
	{Token: "DuckDuckBot", Operator: "DuckDuckGo", Purpose: Search,
		UserAgent: "DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)",
		Source:    "https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot"},
	{Token: "AdsBot-Google", Operator: "Google", Purpose: Ads,
		UserAgent:     "AdsBot-Google (+http://www.google.com/adsbot.html)",
		IgnoresGlobal: true, Source: googleSpecial},
	{Token: "AdsBot-Google-Mobile", Operator: "Google", Purpose: Ads,
		UserAgent:     "Mozilla/5.0 (iPhone; CPU iPhone OS 14_7_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/14.1.2 Mobile/15E148 Safari/604.1 (compatible; AdsBot-Google-Mobile; +http://www.google.com/mobile/adsbot.html)",
		IgnoresGlobal: true, Source: googleSpecial},
	{Token: "Google-Extended", Operator: "Google", Purpose: AIControl, Source: googleCommon},
	{Token: "Google-InspectionTool", Operator: "Google", Purpose: Search,
		UserAgent: "Mozilla/5.0 (compatible; Google-InspectionTool/1.0;)", Source: googleCommon},
	{Token: "Googlebot", Operator: "Google", Purpose: Search,
		UserAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		Source:    googleCommon},
	{Token: "Googlebot-Image", Operator: "Google", Purpose: Search,
		UserAgent: "Googlebot-Image/1.0", Source: googleCommon},
	// Googlebot-News sends Googlebot's headers: it has none of its own.
	{Token: "Googlebot-News", Operator: "Google", Purpose: Search, Source: googleCommon},
	{Token: "Googlebot-Video", Operator: "Google", Purpose: Search,
		UserAgent: "Googlebot-Video/1.0", Source: googleCommon},
	{Token: "Storebot-Google", Operator: "Google", Purpose: Commerce,
		UserAgent: "Mozilla/5.0 (X11; Linux x86_64; Storebot-Google/1.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.88 Safari/537.36",
		Source:    googleCommon},
	{Token: "meta-externalagent", Operator: "Meta", Purpose: AITraining,
		UserAgent: "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
		Source:    "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers"},
	{Token: "bingbot", Operator: "Microsoft", Purpose: Search,
		UserAgent: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
		Source:    "https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0"},
	{Token: "ChatGPT-User", Operator: "OpenAI", Purpose: AIUser,
		UserAgent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
		Source:    "https://platform.openai.com/docs/bots"},
	{Token: "GPTBot", Operator: "OpenAI", Purpose: AITraining,
		UserAgent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot",
		Source:    "https://platform.openai.com/docs/bots"},
	{Token: "OAI-SearchBot", Operator: "OpenAI", Purpose: AISearch,
		UserAgent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot",
		Source:    "https://platform.openai.com/docs/bots"},
	{Token: "Perplexity-User", Operator: "Perplexity", Purpose: AIUser,
		UserAgent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)",
		Source:    "https://docs.perplexity.ai/guides/bots"},
	{Token: "PerplexityBot", Operator: "Perplexity", Purpose: AISearch,
		UserAgent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
		Source:    "https://docs.perplexity.ai/guides/bots"},
	{Token: "YandexBot", Operator: "Yandex", Purpose: Search,
		UserAgent: "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
		Source:    "https://yandex.com/support/webmaster/robot-workings/check-yandex-robots.html"},
}

// also lists, per crawler, the tokens it obeys after its own, in order,
// with the page that documents it: Google's list of common crawlers gives
// Googlebot-Image the tokens "Googlebot-Image, Googlebot" (a file without a
// group for Googlebot-Image is obeyed as for Googlebot), and the same for
// Googlebot-News, Googlebot-Video and Google-InspectionTool; Apple's page
// says Applebot follows a file's Googlebot rules when none name Applebot.
var also = map[string][]Obeyed{
	"Googlebot-Image":       {{Token: "Googlebot", Source: googleCommon}},
	"Googlebot-News":        {{Token: "Googlebot", Source: googleCommon}},
	"Googlebot-Video":       {{Token: "Googlebot", Source: googleCommon}},
	"Google-InspectionTool": {{Token: "Googlebot", Source: googleCommon}},
	"Applebot":              {{Token: "Googlebot", Source: apple}},
}

func init() {
	for i := range table {
		c := &table[i]
		c.Obeys = append([]Obeyed{{Token: c.Token, Source: c.Source}}, also[c.Token]...)
	}
}
