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

// The pages where operators document how a site can tell their crawlers'
// requests from others that carry the same name, and the facts read there.
// Google moved its prefix files on 2026-03-31 to googleRanges below
// (common-crawlers.json was googlebot.json); the old addresses still answer
// 200, with files that hold no prefix. Google documents the host names of
// common crawlers under googlebot.com (geo.googlebot.com for some), of
// special-case crawlers under google.com, and of user-triggered fetchers
// under google.com and googleusercontent.com; no row below is a
// user-triggered fetcher. DuckDuckGo lists DuckDuckBot's addresses only as
// text on its help page, with no file to read and no host names, so its row
// documents no method here.
const (
	googleVerify = "https://developers.google.com/search/docs/crawling-indexing/verifying-googlebot"
	googleRanges = "https://developers.google.com/static/crawling/ipranges/"
	openAIBots   = "https://platform.openai.com/docs/bots"
	// openAIAgent says that ChatGPT agent signs its requests (RFC 9421)
	// with a Signature-Agent of "https://chatgpt.com"; ChatGPT-User's row
	// holds that origin.
	openAIAgent    = "https://help.openai.com/en/articles/11845367-chatgpt-agent-allowlisting"
	anthropicBots  = "https://support.anthropic.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler"
	perplexityBots = "https://docs.perplexity.ai/guides/bots"
)

var (
	googleCommonVerify = Verification{
		Ranges:     []string{googleRanges + "common-crawlers.json"},
		ReverseDNS: []string{"googlebot.com", "geo.googlebot.com"},
		Source:     googleVerify}
	googleSpecialVerify = Verification{
		Ranges:     []string{googleRanges + "special-crawlers.json"},
		ReverseDNS: []string{"google.com"},
		Source:     googleVerify}
	anthropicVerify = Verification{Ranges: []string{"https://claude.com/crawling/bots.json"}, Source: anthropicBots}
)

// table lists the crawlers; each one's Obeys is completed by init from
// also.
var table = []Crawler{
	{Token: "Amazonbot", Operator: "Amazon", Purpose: AISearch,
		UserAgent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36",
		Source:    "https://developer.amazon.com/amazonbot",
		Verify:    Verification{ReverseDNS: []string{"crawl.amazonbot.amazon"}, Source: "https://developer.amazon.com/amazonbot"}},
	{Token: "Claude-SearchBot", Operator: "Anthropic", Purpose: AISearch,
		Source: "https://support.anthropic.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler",
		Verify: anthropicVerify},
	{Token: "Claude-User", Operator: "Anthropic", Purpose: AIUser,
		Source: "https://support.anthropic.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler",
		Verify: anthropicVerify},
	{Token: "ClaudeBot", Operator: "Anthropic", Purpose: AITraining,
		UserAgent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
		Source:    "https://support.anthropic.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler",
		Verify:    anthropicVerify},
	{Token: "Applebot", Operator: "Apple", Purpose: Search,
		UserAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
		Source:    apple,
		Verify:    Verification{Ranges: []string{"https://search.developer.apple.com/applebot.json"}, ReverseDNS: []string{"applebot.apple.com"}, Source: apple}},
	{Token: "Applebot-Extended", Operator: "Apple", Purpose: AIControl,
		Source: apple},
	{Token: "Baiduspider", Operator: "Baidu", Purpose: Search,
		UserAgent: "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)",
		Source:    "https://www.baidu.com/search/spider.html",
		Verify:    Verification{ReverseDNS: []string{"baidu.com", "baidu.jp"}, Source: "https://www.baidu.com/search/spider.html"}},
	{Token: "Bytespider", Operator: "ByteDance", Purpose: AITraining,
		UserAgent: "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)",
		Source:    "https://bytedance.com/en/"},
	{Token: "CCBot", Operator: "Common Crawl", Purpose: Archive,
		UserAgent: "CCBot/2.0 (https://commoncrawl.org/faq/)",
		Source:    "https://commoncrawl.org/ccbot",
		Verify:    Verification{Ranges: []string{"https://index.commoncrawl.org/ccbot.json"}, ReverseDNS: []string{"crawl.commoncrawl.org"}, Source: "https://commoncrawl.org/ccbot"}},
	{Token: "DuckDuckBot", Operator: "DuckDuckGo", Purpose: Search,
		UserAgent: "DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)",
		Source:    "https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot"},
	{Token: "AdsBot-Google", Operator: "Google", Purpose: Ads,
		UserAgent:     "AdsBot-Google (+http://www.google.com/adsbot.html)",
		IgnoresGlobal: true, Source: googleSpecial,
		Verify: googleSpecialVerify},
	{Token: "AdsBot-Google-Mobile", Operator: "Google", Purpose: Ads,
		UserAgent:     "Mozilla/5.0 (iPhone; CPU iPhone OS 14_7_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/14.1.2 Mobile/15E148 Safari/604.1 (compatible; AdsBot-Google-Mobile; +http://www.google.com/mobile/adsbot.html)",
		IgnoresGlobal: true, Source: googleSpecial,
		Verify: googleSpecialVerify},
	{Token: "Google-Extended", Operator: "Google", Purpose: AIControl, Source: googleCommon},
	{Token: "Google-InspectionTool", Operator: "Google", Purpose: Search,
		UserAgent: "Mozilla/5.0 (compatible; Google-InspectionTool/1.0;)", Source: googleCommon,
		Verify: googleCommonVerify},
	{Token: "Googlebot", Operator: "Google", Purpose: Search,
		UserAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		Source:    googleCommon,
		Verify:    googleCommonVerify},
	{Token: "Googlebot-Image", Operator: "Google", Purpose: Search,
		UserAgent: "Googlebot-Image/1.0", Source: googleCommon,
		Verify: googleCommonVerify},
	// Googlebot-News sends Googlebot's headers: it has none of its own.
	{Token: "Googlebot-News", Operator: "Google", Purpose: Search, Source: googleCommon,
		Verify: googleCommonVerify},
	{Token: "Googlebot-Video", Operator: "Google", Purpose: Search,
		UserAgent: "Googlebot-Video/1.0", Source: googleCommon,
		Verify: googleCommonVerify},
	{Token: "Storebot-Google", Operator: "Google", Purpose: Commerce,
		UserAgent: "Mozilla/5.0 (X11; Linux x86_64; Storebot-Google/1.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.88 Safari/537.36",
		Source:    googleCommon,
		Verify:    googleCommonVerify},
	{Token: "meta-externalagent", Operator: "Meta", Purpose: AITraining,
		UserAgent: "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
		Source:    "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers"},
	{Token: "bingbot", Operator: "Microsoft", Purpose: Search,
		UserAgent: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
		Source:    "https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0",
		Verify:    Verification{Ranges: []string{"https://www.bing.com/toolbox/bingbot.json"}, ReverseDNS: []string{"search.msn.com"}, Source: "https://www.bing.com/webmasters/help/how-to-verify-bingbot-3905dc26"}},
	{Token: "ChatGPT-User", Operator: "OpenAI", Purpose: AIUser,
		UserAgent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
		Source:    "https://platform.openai.com/docs/bots",
		Verify:    Verification{Ranges: []string{"https://openai.com/chatgpt-user.json"}, SignatureAgent: "https://chatgpt.com", Source: openAIBots}},
	{Token: "GPTBot", Operator: "OpenAI", Purpose: AITraining,
		UserAgent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot",
		Source:    "https://platform.openai.com/docs/bots",
		Verify:    Verification{Ranges: []string{"https://openai.com/gptbot.json"}, Source: openAIBots}},
	{Token: "OAI-SearchBot", Operator: "OpenAI", Purpose: AISearch,
		UserAgent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot",
		Source:    "https://platform.openai.com/docs/bots",
		Verify:    Verification{Ranges: []string{"https://openai.com/searchbot.json"}, Source: openAIBots}},
	{Token: "Perplexity-User", Operator: "Perplexity", Purpose: AIUser,
		UserAgent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)",
		Source:    "https://docs.perplexity.ai/guides/bots",
		Verify:    Verification{Ranges: []string{"https://www.perplexity.com/perplexity-user.json"}, Source: perplexityBots}},
	{Token: "PerplexityBot", Operator: "Perplexity", Purpose: AISearch,
		UserAgent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
		Source:    "https://docs.perplexity.ai/guides/bots",
		Verify:    Verification{Ranges: []string{"https://www.perplexity.com/perplexitybot.json"}, Source: perplexityBots}},
	{Token: "YandexBot", Operator: "Yandex", Purpose: Search,
		UserAgent: "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
		Source:    "https://yandex.com/support/webmaster/robot-workings/check-yandex-robots.html",
		Verify:    Verification{ReverseDNS: []string{"yandex.ru", "yandex.net", "yandex.com"}, Source: "https://yandex.com/support/webmaster/robot-workings/check-yandex-robots.html"}},
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
