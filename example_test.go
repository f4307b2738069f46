package robotstxt_test

import (
	"fmt"

	"github.com/robotstxt-go/robotstxt"
)

const exampleFile = `# Shop robots.txt
User-agent: *
Disallow: /cart/
Disallow: /*.pdf$
Allow: /cart/help

User-agent: Googlebot
User-agent: bingbot
Disallow: /search
Crawl-delay: 2.5

Sitemap: https://shop.example/sitemap.xml
`

// Parse a file once and ask it about URLs. Longest match wins, and a final
// '$' anchors the pattern at the end of the path.
func ExampleParse() {
	r := robotstxt.Parse([]byte(exampleFile))
	for _, url := range []string{
		"https://shop.example/cart/checkout",
		"https://shop.example/cart/help/returns",
		"https://shop.example/manual.pdf",
		"https://shop.example/manual.pdf?page=2",
	} {
		fmt.Println(r.Allowed("MyCrawler", url), url)
	}
	// Output:
	// false https://shop.example/cart/checkout
	// true https://shop.example/cart/help/returns
	// false https://shop.example/manual.pdf
	// true https://shop.example/manual.pdf?page=2
}

// An agent named by a group obeys only that group; the caller's agent is a
// product token, compared case-insensitively and as given.
func ExampleRobots_Allowed() {
	r := robotstxt.Parse([]byte(exampleFile))
	fmt.Println(r.Allowed("Googlebot", "https://shop.example/cart/"))
	fmt.Println(r.Allowed("googlebot", "https://shop.example/search?q=x"))
	fmt.Println(r.Allowed("Googlebot/2.1", "https://shop.example/search?q=x"))
	// Output:
	// true
	// false
	// true
}

// Decide tells which line decided and what it says.
func ExampleRobots_Decide() {
	r := robotstxt.Parse([]byte(exampleFile))
	d := r.Decide("MyCrawler", "/cart/help/returns")
	fmt.Printf("allowed=%v line=%d allow=%v rule=%q\n", d.Allowed, d.Line, d.Allow, d.Rule)
	d = r.Decide("MyCrawler", "/about")
	fmt.Printf("allowed=%v line=%d\n", d.Allowed, d.Line)
	// Output:
	// allowed=true line=5 allow=true rule="/cart/help"
	// allowed=true line=0
}

// A crawler asking many URLs of one host for one agent selects the agent's
// group once. Group is a small value; asking it allocates nothing.
func ExampleRobots_Group() {
	r := robotstxt.Parse([]byte(exampleFile))
	g := r.Group("bingbot")
	for _, url := range []string{"/search", "/cart/", "/"} {
		fmt.Println(url, g.Allowed(url))
	}
	for _, rule := range g.Rules() {
		fmt.Printf("line %d: allow=%v %s\n", rule.Line, rule.Allow, rule.Pattern)
	}
	for _, o := range g.Others() {
		fmt.Printf("line %d: %s = %s\n", o.Line, o.Key, o.Value)
	}
	// Output:
	// /search false
	// /cart/ true
	// / true
	// line 9: allow=false /search
	// line 10: Crawl-delay = 2.5
}

func ExampleRobots_Sitemaps() {
	r := robotstxt.Parse([]byte(exampleFile))
	fmt.Println(r.Sitemaps())
	// Output:
	// [https://shop.example/sitemap.xml]
}

// Crawl-delay is chosen with the same group selection as the rules.
func ExampleRobots_CrawlDelay() {
	r := robotstxt.Parse([]byte(exampleFile))
	fmt.Println(r.CrawlDelay("Googlebot"))
	fmt.Println(r.CrawlDelay("MyCrawler"))
	// Output:
	// 2.5s true
	// 0s false
}

// FromStatus turns the outcome of a robots.txt fetch into rules.
func ExampleFromStatus() {
	for _, code := range []int{200, 404, 503} {
		r := robotstxt.FromStatus(code, []byte("User-agent: *\nDisallow: /private/"))
		fmt.Println(code, r.Kind(), r.Allowed("MyCrawler", "/private/x"), r.Allowed("MyCrawler", "/"))
	}
	// Output:
	// 200 parsed false true
	// 404 allow-all true true
	// 503 disallow-all false false
}

// A crawler that obeys a group of its own when the file has one, and else
// the group of a more general crawler, as Googlebot-Image does with
// Googlebot's: ask whether the file names it first.
func ExampleRobots_NamesAgent() {
	r := robotstxt.Parse([]byte(`User-agent: Googlebot
Disallow: /private/

User-agent: *
Disallow: /
`))
	agent := "Googlebot-Image"
	if !r.NamesAgent(agent) {
		agent = "Googlebot"
	}
	fmt.Println(agent, r.Allowed(agent, "https://example.com/photo.jpg"))
	fmt.Println(agent, r.Allowed(agent, "https://example.com/private/photo.jpg"))
	// Output:
	// Googlebot true
	// Googlebot false
}

// Google's parser also takes a list of agents: the groups that name any of
// them are merged.
func ExampleRobots_GroupFor() {
	r := robotstxt.Parse([]byte(`User-agent: Foobot
Disallow: /a/

User-agent: Foobot-News
Disallow: /b/
`))
	g := r.GroupFor([]string{"Foobot", "Foobot-News"})
	fmt.Println(g.Allowed("/a/1"), g.Allowed("/b/1"), g.Allowed("/c/1"))
	// Output: false false true
}

// A cache of parsed files can keep them in their binary form and load them
// again without parsing: UnmarshalBinary checks everything it loads, and
// the loaded file answers as the parsed one did, deciding lines included.
func ExampleRobots_MarshalBinary() {
	r := robotstxt.Parse([]byte(exampleFile))
	b, err := r.MarshalBinary()
	if err != nil {
		fmt.Println(err)
		return
	}
	var loaded robotstxt.Robots
	if err := loaded.UnmarshalBinary(b); err != nil {
		fmt.Println(err)
		return
	}
	d := loaded.Decide("MyCrawler", "/cart/checkout")
	fmt.Println(d.Allowed, d.Line, d.Rule)
	fmt.Println(loaded.UnmarshalBinary(b[:len(b)/2]) != nil)
	// Output:
	// false 3 /cart/
	// true
}
