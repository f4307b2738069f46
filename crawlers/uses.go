package crawlers

// This file says which uses of pages each operator documents, and which
// robots.txt token governs each: the facts the AI access matrix (package
// aiuse) answers from. A crawler's row lists its uses; a control token
// (Google-Extended, Applebot-Extended) fetches nothing, and lists the
// crawlers whose fetches its group governs.

// Use is a use of pages that an operator documents, governed by the
// robots.txt group of one of its tokens.
type Use string

// The uses of the table, as the operators' pages name them.
const (
	// UseTraining: training AI models on the pages.
	UseTraining Use = "training"
	// UseSearch: a search index, and links and excerpts in its results.
	UseSearch Use = "search"
	// UseAIInput: the pages as input to an AI model when it answers:
	// grounding, retrieval, AI-generated answers.
	UseAIInput Use = "ai-input"
	// UseUserFetch: a page fetched because a user of an AI product asked
	// for it.
	UseUserFetch Use = "user-fetch"
)

// Uses are the uses, in the order tools show them.
var Uses = []Use{UseTraining, UseSearch, UseAIInput, UseUserFetch}

// Operators' pages that document the uses below, beyond each row's Source,
// with what each says. Google's Google-Extended page and OpenAI's bots page
// were checked as published in December 2026 (Google's now lives under
// developers.google.com/crawling/docs/); the others are as their pages
// read when the table was written.
const (
	// Google: "Google-Extended is a standalone product token that web
	// publishers can use to manage whether content Google crawls from
	// their sites may be used for training future generations of [its]
	// foundation models ... and for grounding"; Google runs no
	// Google-Extended crawler: Googlebot, GoogleOther and other crawlers
	// record the token's status when they fetch a page. It does not
	// affect Google Search.
	googleExtended = "https://developers.google.com/crawling/docs/google-extended"
	// OpenAI (openAIBots): GPTBot for training, OAI-SearchBot for
	// ChatGPT's search features, ChatGPT-User for actions a user starts,
	// "robots.txt rules may not apply" to them; each setting independent
	// of the others. Anthropic (anthropicBots): ClaudeBot collects
	// training data, Claude-SearchBot improves search results, Claude-User
	// fetches for a user's question; all three honour robots.txt.
	// Perplexity (perplexityBots): PerplexityBot surfaces sites in search
	// results and is not used to train foundation models; Perplexity-User
	// fetches for a user's question and "generally ignores robots.txt
	// rules".
	// Meta: meta-externalagent crawls "for use cases such as training AI
	// models or improving products by indexing content directly".
	metaCrawlers = "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers"
	// Amazon: Amazonbot's data "may be used to train Amazon AI models".
	amazonbot = "https://developer.amazon.com/amazonbot"
	// Common Crawl: CCBot builds an open archive of the web that others
	// train models on; blocking CCBot keeps pages out of future crawls.
	ccbot = "https://commoncrawl.org/ccbot"
	// ByteDance: Bytespider collects data for ByteDance's AI models.
	bytespider = "https://bytedance.com/en/"
)

// usage gives, by token, the uses its operator documents for it, the
// crawlers whose fetches a control token governs, and whether the operator
// says robots.txt may not apply to it. init copies them into the rows.
var usage = map[string]struct {
	uses              []Use
	fetchedBy         []string
	robotsMayNotApply bool
	source            string
}{
	"Googlebot":          {uses: []Use{UseSearch}, source: googleCommon},
	"Google-Extended":    {uses: []Use{UseTraining, UseAIInput}, fetchedBy: []string{"Googlebot"}, source: googleExtended},
	"GPTBot":             {uses: []Use{UseTraining}, source: openAIBots},
	"OAI-SearchBot":      {uses: []Use{UseSearch}, source: openAIBots},
	"ChatGPT-User":       {uses: []Use{UseUserFetch}, robotsMayNotApply: true, source: openAIBots},
	"ClaudeBot":          {uses: []Use{UseTraining}, source: anthropicBots},
	"Claude-SearchBot":   {uses: []Use{UseSearch}, source: anthropicBots},
	"Claude-User":        {uses: []Use{UseUserFetch}, source: anthropicBots},
	"Applebot":           {uses: []Use{UseSearch}, source: apple},
	"Applebot-Extended":  {uses: []Use{UseTraining}, fetchedBy: []string{"Applebot"}, source: apple},
	"PerplexityBot":      {uses: []Use{UseSearch}, source: perplexityBots},
	"Perplexity-User":    {uses: []Use{UseUserFetch}, robotsMayNotApply: true, source: perplexityBots},
	"meta-externalagent": {uses: []Use{UseTraining}, source: metaCrawlers},
	"Amazonbot":          {uses: []Use{UseTraining}, source: amazonbot},
	"CCBot":              {uses: []Use{UseTraining}, source: ccbot},
	"Bytespider":         {uses: []Use{UseTraining}, source: bytespider},
	"bingbot":            {uses: []Use{UseSearch}, source: "https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0"},
	"DuckDuckBot":        {uses: []Use{UseSearch}, source: "https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot"},
	"YandexBot":          {uses: []Use{UseSearch}, source: "https://yandex.com/support/webmaster/robot-workings/check-yandex-robots.html"},
	"Baiduspider":        {uses: []Use{UseSearch}, source: "https://www.baidu.com/search/spider.html"},
}

// Governs is one use an operator documents, and the token whose robots.txt
// group governs it.
type Governs struct {
	Operator string
	Use      Use
	// Token is the token whose group decides.
	Token string
	// FetchedBy lists the crawlers that fetch the pages, for a control
	// token that fetches nothing itself (Google-Extended: Googlebot); it
	// is empty when Token's crawler fetches them.
	FetchedBy []string
	// RobotsMayNotApply reports that the operator says the token's
	// crawler may not follow robots.txt for this use (user-triggered
	// fetchers): the site's file still states what it wants.
	RobotsMayNotApply bool
	// Source is the operator's page that documents the use.
	Source string
}

// Fetchers returns the tokens of the crawlers that fetch the pages: Token
// itself, or FetchedBy for a control token.
func (g Governs) Fetchers() []string {
	if len(g.FetchedBy) > 0 {
		return g.FetchedBy
	}
	return []string{g.Token}
}

// governs is the table's uses, by operator in table order, then by use in
// the order of Uses; built by init.
var governs []Governs

// operators lists the operators that document a use, in table order.
var operators []string

func init() {
	for i := range table {
		c := &table[i]
		u, ok := usage[c.Token]
		if !ok {
			continue
		}
		c.Uses, c.FetchedBy, c.RobotsMayNotApply = u.uses, u.fetchedBy, u.robotsMayNotApply
	}
	for _, op := range operatorOrder() {
		found := false
		for _, use := range Uses {
			for _, c := range table {
				if c.Operator != op || !hasUse(c.Uses, use) {
					continue
				}
				governs = append(governs, Governs{Operator: op, Use: use, Token: c.Token,
					FetchedBy: c.FetchedBy, RobotsMayNotApply: c.RobotsMayNotApply, Source: usage[c.Token].source})
				found = true
			}
		}
		if found {
			operators = append(operators, op)
		}
	}
}

// operatorOrder returns the table's operators, each once, in table order.
func operatorOrder() []string {
	var out []string
	for _, c := range table {
		if len(out) == 0 || out[len(out)-1] != c.Operator {
			out = append(out, c.Operator)
		}
	}
	return out
}

func hasUse(uses []Use, u Use) bool {
	for _, x := range uses {
		if x == u {
			return true
		}
	}
	return false
}

// AllGoverns returns every documented use, by operator and then by use.
// The slice is a copy.
func AllGoverns() []Governs { return append([]Governs(nil), governs...) }

// UseOperators returns the operators that document a use, in table order.
func UseOperators() []string { return append([]string(nil), operators...) }

// GovernsFor returns the token that governs use u for operator op (its
// name compared exactly), and false when the operator documents none. It
// allocates nothing.
func GovernsFor(op string, u Use) (Governs, bool) {
	for _, g := range governs {
		if g.Operator == op && g.Use == u {
			return g, true
		}
	}
	return Governs{}, false
}
